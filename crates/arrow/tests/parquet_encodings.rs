//! The Parquet encodings chosen per column (`writer.rs`) are the ones written, and read
//! back as the same strings.

mod support;

use std::fs::File;

use arrow_array::cast::AsArray;
use parquet::basic::Encoding;
use parquet::file::reader::{FileReader, SerializedFileReader};
use pgnkit_arrow::{RecordOptions, RecordVisitor, TableOptions};
use pgnkit_game::{ReadOptions, visit_games_with};

/// `piece` is written `DELTA_LENGTH_BYTE_ARRAY` without a dictionary (no hashing of each
/// letter); `san` keeps its dictionary. Both read back as the letters and SAN played.
#[test]
fn the_piece_column_is_delta_length_coded_and_reads_back() {
    let pgn = b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Qe2 Be7 6. Rd1 Kf8 *\n\n1. d4 *\n";
    let records: Vec<_> = visit_games_with(
        &pgn[..],
        RecordVisitor::new(RecordOptions::default()),
        ReadOptions::new(),
    )
    .map(|read| read.value)
    .collect();
    let games_path = support::temp_path("encodings-games.parquet");
    let moves_path = support::temp_path("encodings-moves.parquet");
    let options = TableOptions::default();
    support::write_parquet(&records, "a.pgn", options, &games_path, &moves_path);

    let reader = SerializedFileReader::new(File::open(&moves_path).unwrap()).unwrap();
    let row_group = reader.metadata().row_group(0);
    let chunk = |name: &str| {
        row_group
            .columns()
            .iter()
            .find(|c| c.column_path().string() == name)
            .unwrap()
    };
    let piece = chunk("piece");
    assert!(piece.dictionary_page_offset().is_none());
    let encodings: Vec<Encoding> = piece.encodings().collect();
    assert!(
        encodings.contains(&Encoding::DELTA_LENGTH_BYTE_ARRAY),
        "{encodings:?}"
    );
    assert!(
        !encodings.contains(&Encoding::RLE_DICTIONARY),
        "{encodings:?}"
    );
    assert!(chunk("san").dictionary_page_offset().is_some());

    let batches = support::read_parquet(&moves_path);
    let column = |name: &str| -> Vec<String> {
        batches
            .iter()
            .flat_map(|b| {
                let texts = b.column_by_name(name).unwrap().as_string::<i32>();
                texts
                    .iter()
                    .map(|t| t.unwrap().to_owned())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert_eq!(
        column("piece").concat(),
        "PPNNBPKNQBRKP",
        "a letter a move, in order"
    );
    assert_eq!(column("san")[6..9], ["O-O", "Nf6", "Qe2"]);
}

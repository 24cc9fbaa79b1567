//! EPD (PGN standard 16.2) on the EPD test suites of the corpus
//! (`positions/`): every record reads, its SAN operands resolve in its
//! position, and the canonical writing reads back to the same record.

use std::path::{Path, PathBuf};

use pgnkit_chess::{Epd, EpdError, Operand};

/// Every `.epd` file under `dir`, sorted.
fn epd_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("list a corpus folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "epd") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The records of a file: its lines that are neither empty nor `#` comments.
fn records(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).expect("read an EPD file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

/// The records that are not EPD (`file:line`): damaged GetMated records
/// (`acn 3891 acd ; acn 3891;`: an opcode twice, with other operands), and
/// pychess's own files, which write `bm 1` (a number, not SAN).
const EXPECTED_ERRORS: &[&str] = &[
    "pychess/GetMated.epd:256",
    "pychess/GetMated.epd:258",
    "pychess/GetMated.epd:357",
    "pychess/GetMated.epd:484",
    "pychess/GetMated.epd:486",
    "pychess/GetMated.epd:572",
    "pychess/GetMated.epd:587",
    "pychess/GetMated.epd:701",
    "pychess/GetMated.epd:1080",
    "pychess/GetMated.epd:1238",
    "pychess/GetMated.epd:1239",
    "pychess/GetMated.epd:1241",
    "pychess/GetMated.epd:1243",
    "pychess/GetMated.epd:1245",
    "pychess/GetMated.epd:1654",
    "pychess/GetMated.epd:2758",
    "pychess/pawn.epd:1",
    "pychess/single.epd:1",
];

#[test]
fn every_record_of_the_suites_reads_and_writes_back() {
    let dir = pgnkit_corpus::dir().join("positions");
    let files = epd_files(&dir);
    assert!(files.len() >= 10, "EPD files under {}", dir.display());
    let mut read = 0;
    let mut moves = 0;
    let mut errors = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        for (line, record) in records(path) {
            let epd = match Epd::parse(record.as_bytes()) {
                Ok(epd) => epd,
                Err(e) => {
                    let expected = match &e {
                        EpdError::DuplicateOpcode(op) => op == "acn",
                        EpdError::Operand { opcode, .. } => opcode == "bm",
                        _ => false,
                    };
                    assert!(expected, "{name}:{line}: {e}\n{record}");
                    errors.push(format!("{name}:{line}"));
                    continue;
                }
            };
            read += 1;
            for op in epd.operations() {
                moves += op
                    .operands
                    .iter()
                    .filter(|o| matches!(o, Operand::Move(_)))
                    .count();
            }
            let written = epd.to_string();
            let back: Epd = written
                .parse()
                .unwrap_or_else(|e| panic!("{name}:{line}: {e}\n{written}"));
            assert_eq!(back, epd, "{name}:{line}\n{record}\n{written}");
            assert_eq!(back.to_string(), written, "{name}:{line}");
        }
    }
    assert_eq!(errors, EXPECTED_ERRORS, "{errors:#?}");
    // 24 Bratko-Kopec, 3119 GetMated, 200 + tablebase suites, 2 x 1000 FEN
    // lines, the popular positions.
    assert!(read > 5000, "{read} records");
    assert!(moves > 20_000, "{moves} moves");
}

#[test]
fn bratko_kopec_best_moves_and_ids() {
    let path = pgnkit_corpus::dir().join("positions/python-chess/bratko-kopec.epd");
    let records = records(&path);
    assert_eq!(records.len(), 24);
    for (i, (_, record)) in records.iter().enumerate() {
        let epd: Epd = record.parse().expect("a Bratko-Kopec record");
        assert_eq!(epd.id(), Some(format!("BK.{:02}", i + 1).as_str()));
        let best: Vec<_> = epd.moves("bm").collect();
        assert!(!best.is_empty(), "{record}");
        assert!(best.iter().all(|m| epd.position().is_legal(*m)), "{record}");
    }
    let first: Epd = records[0].1.parse().expect("BK.01");
    assert_eq!(
        first.to_string(),
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";"
    );
}

#[test]
fn predicted_variations_are_played_move_by_move() {
    let path = pgnkit_corpus::dir().join("positions/pychess/GetMated.epd");
    let (_, record) = records(&path).into_iter().next().expect("a record");
    let epd: Epd = record.parse().expect("the first GetMated record");
    let pv: Vec<_> = epd.moves("pv").collect();
    assert_eq!(pv.len(), 12);
    let mut pos = epd.position().clone();
    for m in &pv {
        assert!(pos.is_legal(*m), "{m} in {pos}");
        pos.play_unchecked(*m);
    }
    assert!(pos.is_checkmate(), "{pos}");
    assert_eq!(epd.moves("pm").collect::<Vec<_>>(), pv[..1]);
    let written = epd.to_string();
    assert!(
        written.ends_with(
            "acd 2; acn 20439; ce -32755; id \"C.A.P. 4210\"; pm Rf2; \
             pv Rf2 Rg8+ Bg2 Rxg2+ Kf1 Rg1+ Kxg1 Qe1+ Rf1 Qg3+ Rg2 Qxg2#;"
        ),
        "{written}"
    );
}

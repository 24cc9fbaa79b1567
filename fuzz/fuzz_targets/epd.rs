//! Fuzz target `epd`: arbitrary bytes as an EPD record. `Epd::parse` never panics; a
//! record that parses writes (`Display`) a record that parses back to an equal `Epd`
//! writing the same text (the canonical form is a fixed point); its position's own EPD
//! is the written record's first four fields.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::chess::Epd;

fuzz_target!(|data: &[u8]| {
    let epd = match Epd::parse(data) {
        Ok(epd) => epd,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let written = epd.to_string();
    let back = Epd::parse(written.as_bytes())
        .unwrap_or_else(|e| panic!("written record {written:?} does not parse: {e}"));
    assert_eq!(
        back.to_string(),
        written,
        "the written record is not a fixed point"
    );
    assert_eq!(back, epd, "{written:?} reads back to another record");
    let _ = epd.id();
    for op in epd.operations() {
        let _ = epd.moves(&op.opcode).count();
    }
    let _ = epd.position().epd();
});

//! `--notation`: pgn-extract's long algebraic forms and other piece
//! letters reach the writer, and a bad value is a usage error (status 2)
//! naming the values that would fit.

mod common;

const GAME: &[u8] =
    b"1. e4 a6 2. e5 d5 3. exd6 Nf6 4. dxc7 e6 5. cxb8=Q Bb4 6. Nf3 O-O 7. Bd3 Qd5 8. O-O *\n";

fn moves(notation: &str) -> String {
    let output =
        common::run_with_stdin(&["export", "--notation", notation, "--width", "200"], GAME);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines()
        .find(|l| l.starts_with("1."))
        .unwrap()
        .to_owned()
}

#[test]
fn notations_of_pgn_extract_are_written() {
    assert_eq!(
        moves("xlalg"),
        "1. e2-e4 a7-a6 2. e4-e5 d7-d5 3. e5xd6ep Ng8-f6 4. d6xc7 e7-e6 5. c7xb8Q Bf8-b4 \
         6. Ng1-f3 e8-g8 7. Bf1-d3 Qd8-d5 8. e1-g1 *"
    );
    assert_eq!(
        moves("sanBSLTDK"),
        "1. e4 a6 2. e5 d5 3. exd6 Sf6 4. dxc7 e6 5. cxb8=D Lb4 6. Sf3 O-O 7. Ld3 Dd5 8. O-O *"
    );
    assert_eq!(moves("san:PNBRQK"), moves("san"));
}

#[test]
fn a_bad_notation_is_a_usage_error() {
    for (value, says) in [
        ("lalgBSLTDK", "takes no piece letters"),
        ("sanBSLT", "expected six piece letters"),
        (
            "klingon",
            "expected one of san, lan, uci, fan, lalg, halg, elalg, xlalg, xolalg",
        ),
    ] {
        let output = common::run_with_stdin(&["export", "--notation", value], GAME);
        assert_eq!(output.status.code(), Some(2), "{value}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{value}: {stderr}");
    }
}

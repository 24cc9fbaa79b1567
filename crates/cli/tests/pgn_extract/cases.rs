//! The cases of the differential test against pgn-extract (`../pgn_extract.rs`)
//! and the differences it is known to find, each with its reason.
//!
//! To add a feature: add a [`Case`] to [`CASES`] (pgn-extract's arguments,
//! pgnkit's, at least three corpus files, how to compare), run
//! `cargo test -p pgnkit-cli --test pgn_extract -- --nocapture`, and for
//! each difference it reports either fix pgnkit or add a [`Known`] entry
//! saying why the two differ (a pgn-extract defect, or a pgnkit choice
//! documented in docs/pgn-extract.md).

use std::path::Path;

/// How a case compares the two outputs.
#[derive(Debug, Clone, Copy)]
pub enum Compare {
    /// The games written (start position and main-line moves), as multisets.
    Games,
    /// As `Games`, and for each game written by both the values of these tags.
    Tags(&'static [&'static str]),
    /// The move words of each game, as written, in order; with `read_back`
    /// also `Games` on both outputs read back by pgnkit (a notation pgnkit
    /// reads: the same games must come back).
    Moves {
        /// Whether pgnkit reads the notation back.
        read_back: bool,
    },
    /// Each game whole after both outputs are normalised by `pgnkit export`
    /// (a transform): games equal as text matched as multisets, the others
    /// paired in order and their differing lines explained by
    /// [`What::Text`]; with `tag_order` also the tag names of each game as
    /// written, in order.
    Text {
        /// Whether the order of the tags as written is compared too.
        tag_order: bool,
    },
}

/// One feature both programs have, run on each of `files`.
pub struct Case {
    /// A short name, used by [`Known::case`].
    pub name: &'static str,
    /// Corpus files (relative to the corpus folder), at least three;
    /// `{dir}/NAME` is a file of `inputs` instead.
    pub files: &'static [&'static str],
    /// Files written in the work folder before the run: name and text (a
    /// `-t` criteria file, a `-z` ending). `{dir}` in the arguments is that folder.
    pub inputs: &'static [(&'static str, &'static str)],
    /// More preparation of the work folder (an ECO file).
    pub setup: fn(&Path),
    /// pgn-extract's arguments (`-s`, `-o` and the input are added).
    pub pgn_extract: &'static [&'static str],
    /// pgnkit's arguments, the command first (`-o`, `--warnings none` and
    /// the input are added).
    pub pgnkit: &'static [&'static str],
    /// How the outputs are compared.
    pub compare: Compare,
}

/// A difference the test finds (see the harness's `Diff`) and why it is right.
#[derive(Debug)]
#[allow(dead_code)] // every kind is matched; the cases of today list some kinds only
pub enum What {
    /// A game (its key's hash, as the test prints it) pgnkit writes more often.
    OnlyPgnkit(u64),
    /// A game pgn-extract writes more often.
    OnlyPgnExtract(u64),
    /// A game both write with other tag values.
    Tags(u64),
    /// A move word: given pgnkit's word, pgn-extract's, when this rule applies.
    Word(fn(&str) -> Option<String>),
    /// A game of a `Text` case written otherwise: given the lines only
    /// pgnkit's game has and those only pgn-extract's has (or, for the tag
    /// order, the tag names of each), whether this rule explains them.
    Text(fn(&[String], &[String]) -> bool),
}

/// A known difference.
pub struct Known {
    /// The case's name, or `*` for every case.
    pub case: &'static str,
    /// The corpus file, or `*` for every file of the case.
    pub file: &'static str,
    /// The difference.
    pub what: What,
    /// Why: a pgn-extract defect, or a documented pgnkit choice.
    pub reason: &'static str,
}

fn nothing(_: &Path) {}

/// An `eco.pgn` for pgn-extract's `-e` from the opening table pgnkit
/// embeds (crates/select/openings/*.tsv, as bench/select_eco.sh makes it):
/// one game per row, its ECO and Opening tags and its moves.
fn eco_file(dir: &Path) {
    let openings = pgnkit_corpus::workspace_root().join("crates/select/openings");
    let mut pgn = String::new();
    for part in ["a", "b", "c", "d", "e"] {
        let path = openings.join(format!("{part}.tsv"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for row in text.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            if let [eco, name, moves] = fields[..] {
                let name = name.replace('\\', "\\\\").replace('"', "\\\"");
                pgn.push_str(&format!(
                    "[ECO \"{eco}\"]\n[Opening \"{name}\"]\n\n{moves} *\n\n"
                ));
            }
        }
    }
    std::fs::write(dir.join("eco.pgn"), pgn).expect("the work folder is writable");
}

const BROADCAST: &str = "lichess-annotated/lichess_broadcast_lezcano-memorial-2025.pgn";
const MAGNUS: &str = "lichess-annotated/chesscom_MagnusCarlsen.pgn";
const LICHESS_DB: &str = "lichess-annotated/lichess_db_2021-10_999games.pgn";
const DRUNKEN: &str = "lichess-annotated/lichess_user_DrDrunkenstein_2019.pgn";
const ODDS: &str = "fen-start/pgn-extract_odds.pgn";
const NAJDORF: &str = "big/misc/pgn-extract_najdorf.pgn";
const PROMOTION: &str = "edge/pgn-extract/test-promotion-in.pgn";

/// The files of the selection cases: over-the-board, online (two sites),
/// and games from set-up positions with null moves.
const SELECT: &[&str] = &[BROADCAST, MAGNUS, LICHESS_DB, DRUNKEN, ODDS];

const KASPAROV: &str = "big/misc/python-chess_kasparov-deep-blue-1997.pgn";
const BLACKMAR: &str = "big/misc/BDG2_blackmar-diemer.PGN";
const STUDIES: &str =
    "annotated/lichess-studies/beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn";
const SPLIT: &str = "annotated/pgn-extract/test-splitvariants.pgn";
/// Games with errors.
const BACKSLASH: &str = "edge/chess-library/backslash_header.pgn";
const BLACK_TO_MOVE: &str = "edge/chess-library/black2move.pgn";
const CORRUPTED: &str = "edge/chess-library/corrupted.pgn";
/// Games with an illegal move: in the main line, in a variation, as the
/// last move; and a game without errors.
const BROKEN: &str = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ke3 Nf6 4. d4 *\n\n\
    [Event \"b\"]\n\n1. d4 d5 2. c4 e6 1-0\n\n\
    [Event \"c\"]\n\n1. e4 c5 (1... e5 2. Ke3 Nc6) 2. Nf3 d6 0-1\n\n\
    [Event \"d\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4+ \
    7. Kf1 Bc5 8. Qe1 Qxe1+ 9. Kxe1 Bxf2+ 10. Kxf2 Nf6 11. Rf1 O-O 12. Qh5 *\n";

/// pgn-extract's own example of a nested comment.
const NESTED_CORPUS: &str = "edge/pgn-extract/nested-comment.pgn";
/// Nested comments: in the movetext, over lines, before the first move,
/// in a variation, holding a tag pair and a marker.
const NESTED: &str = "[Event \"a\"]\n\n1. e4 { a { b } c } e5 { x {\ny { z } } w } 2. Nf3 *\n\n\
    [Event \"b\"]\n\n{ before { it } } 1. d4 d5 ({ alt { x } } 1... Nf6 { n { [Site \"s\"] 1-0 } }) 2. c4 1-0\n\n\
    [Event \"c\"]\n\n1. e4 { plain } 1/2-1/2\n";
/// Tag values without their closing quote (to the `]`), and one with an
/// escape before its `]`.
const UNCLOSED: &str = "[Event \"The Open]\n[Site \"Paris\"]\n[White \"A]\n\n1. e4 e5 *\n\n\
    [Event \"b\"]\n[Black \"Some One]\n\n1. d4 *\n";

/// The tag order file of the `-R` cases: the roster, not in its order, and
/// two more tags.
const TAG_ORDER: &str = "Result\nWhite\nBlack\nDate\nEvent\nSite\nRound\nWhiteElo\nECO\n";

/// A transform case: pgn-extract's options against pgnkit's `select`
/// options, each game whole after both are normalised by `pgnkit export`.
macro_rules! transform {
    ($name:literal, $files:expr, $px:expr, $pk:expr) => {
        Case {
            name: $name,
            files: $files,
            inputs: &[("order.txt", TAG_ORDER)],
            setup: nothing,
            pgn_extract: $px,
            pgnkit: $pk,
            compare: Compare::Text { tag_order: false },
        }
    };
}

/// A notation case: pgn-extract's `-W` form against pgnkit's `--notation`,
/// move word for move word and, when pgnkit reads the notation, game for
/// game after both are read back.
macro_rules! notation {
    ($name:literal, $w:literal, $notation:literal) => {
        notation!($name, $w, $notation, true)
    };
    ($name:literal, $w:literal, $notation:literal, $read_back:literal) => {
        Case {
            name: $name,
            files: &[MAGNUS, LICHESS_DB, ODDS, PROMOTION],
            inputs: &[],
            setup: nothing,
            pgn_extract: &["-C", "-N", "-V", "--allownullmoves", $w],
            pgnkit: &[
                "export",
                "--no-comments",
                "--no-nags",
                "--no-variations",
                "--notation",
                $notation,
            ],
            compare: Compare::Moves {
                read_back: $read_back,
            },
        }
    };
}

/// A game-event case: pgn-extract's option against `select --where`, game
/// for game, on files with mates, stalemates, long games and promotions.
macro_rules! event {
    ($name:literal, $option:literal, $query:literal) => {
        Case {
            name: $name,
            files: &[BROADCAST, MAGNUS, LICHESS_DB, DRUNKEN, PROMOTION],
            inputs: &[],
            setup: nothing,
            pgn_extract: &[$option],
            pgnkit: &["select", "--where", $query],
            compare: Compare::Games,
        }
    };
}

/// Every case.
pub static CASES: &[Case] = &[
    Case {
        name: "all",
        files: SELECT,
        inputs: &[],
        setup: nothing,
        pgn_extract: &[],
        pgnkit: &["select"],
        compare: Compare::Games,
    },
    Case {
        name: "player",
        files: SELECT,
        inputs: &[(
            "t.txt",
            "Player \"DrDrunkenstein\"\nPlayer \"MagnusCarlsen\"\nPlayer \"Sanchez\"\n",
        )],
        setup: nothing,
        pgn_extract: &["-t{dir}/t.txt"],
        pgnkit: &[
            "select",
            "--where",
            "player =~ \"^DrDrunkenstein\" or player =~ \"^MagnusCarlsen\" or player =~ \"^Sanchez\"",
        ],
        compare: Compare::Games,
    },
    Case {
        name: "white",
        files: SELECT,
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-TwDrDrunkenstein"],
        pgnkit: &["select", "--where", "White =~ \"^DrDrunkenstein\""],
        compare: Compare::Games,
    },
    Case {
        name: "tagsubstr",
        files: SELECT,
        inputs: &[(
            "t.txt",
            "Player \"agnus\"\nPlayer \"unken\"\nPlayer \"Alvaro\"\n",
        )],
        setup: nothing,
        pgn_extract: &["--tagsubstr", "-t{dir}/t.txt"],
        pgnkit: &[
            "select",
            "--where",
            "player ~ \"agnus\" or player ~ \"unken\" or player ~ \"Alvaro\"",
        ],
        compare: Compare::Games,
    },
    Case {
        name: "eco-tag",
        files: SELECT,
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-TeB"],
        pgnkit: &["select", "--where", "ECO =~ \"^B\""],
        compare: Compare::Games,
    },
    Case {
        name: "elo",
        files: SELECT,
        inputs: &[("t.txt", "Elo >= \"2400\"\n")],
        setup: nothing,
        pgn_extract: &["-t{dir}/t.txt"],
        pgnkit: &["select", "--where", "elo >= 2400"],
        compare: Compare::Games,
    },
    Case {
        name: "white-elo",
        files: SELECT,
        inputs: &[("t.txt", "WhiteElo < \"2000\"\n")],
        setup: nothing,
        pgn_extract: &["-t{dir}/t.txt"],
        pgnkit: &["select", "--where", "WhiteElo < 2000"],
        compare: Compare::Games,
    },
    Case {
        name: "date",
        files: SELECT,
        inputs: &[("t.txt", "Date >= \"2020\"\n")],
        setup: nothing,
        pgn_extract: &["-t{dir}/t.txt"],
        pgnkit: &["select", "--where", "Date >= 2020"],
        compare: Compare::Games,
    },
    Case {
        name: "result",
        files: SELECT,
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-Tr1-0"],
        pgnkit: &["select", "--where", "result = 1-0"],
        compare: Compare::Games,
    },
    Case {
        name: "plies",
        files: SELECT,
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-pl40", "-pu80"],
        pgnkit: &["select", "--where", "plies >= 40 and plies <= 80"],
        compare: Compare::Games,
    },
    Case {
        name: "fen-tag",
        files: SELECT,
        inputs: &[(
            "t.txt",
            concat!(
                "FEN \"",
                "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
                "\"\n"
            ),
        )],
        setup: nothing,
        pgn_extract: &["-t{dir}/t.txt"],
        pgnkit: &[
            "select",
            "--where",
            concat!(
                "reaches \"",
                "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
                "\""
            ),
        ],
        compare: Compare::Games,
    },
    Case {
        name: "reaches",
        files: SELECT,
        inputs: &[("x.pgn", "1. d4 Nf6 2. c4 e6 *\n")],
        setup: nothing,
        pgn_extract: &["-x{dir}/x.pgn"],
        pgnkit: &[
            "select",
            "--where",
            "reaches \"rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3\"",
        ],
        compare: Compare::Games,
    },
    Case {
        name: "material",
        files: SELECT,
        inputs: &[("z.txt", "0 rp r\n")],
        setup: nothing,
        pgn_extract: &["-z{dir}/z.txt"],
        pgnkit: &["select", "--where", "material \"KRPkr\""],
        compare: Compare::Games,
    },
    Case {
        name: "dedupe",
        files: &[LICHESS_DB, DRUNKEN, NAJDORF, ODDS],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-D"],
        pgnkit: &["dedupe"],
        compare: Compare::Games,
    },
    Case {
        name: "fuzzy-dedupe",
        files: &[LICHESS_DB, DRUNKEN, NAJDORF, MAGNUS],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-D", "--fuzzydepth", "12"],
        pgnkit: &["dedupe", "--fuzzy-ply", "12"],
        compare: Compare::Games,
    },
    Case {
        name: "plycount",
        files: &[BROADCAST, MAGNUS, ODDS],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["--allownullmoves", "--plycount"],
        pgnkit: &["select", "--add-ply-count"],
        compare: Compare::Tags(&["PlyCount"]),
    },
    Case {
        name: "eco",
        files: &[BROADCAST, MAGNUS, LICHESS_DB],
        inputs: &[],
        setup: eco_file,
        pgn_extract: &["-e{dir}/eco.pgn"],
        pgnkit: &["classify"],
        compare: Compare::Tags(&["ECO", "Opening"]),
    },
    // Issue 33: the game-event predicates pgn-extract 19.04 has.
    event!("checkmate", "--checkmate", "checkmate"),
    event!("stalemate", "--stalemate", "stalemate"),
    event!("fifty", "--fifty", "fifty_moves"),
    event!("repetition", "--repetition", "threefold"),
    event!("underpromotion", "--underpromotion", "underpromotion"),
    event!("nobadresults", "--nobadresults", "result_consistent"),
    // A Polyglot key: the Sicilian after 1. e4 c5, wherever it is reached.
    event!("hash", "-H644d4afe02564aeb", "hash 0x644d4afe02564aeb"),
    // Issue 33: transforms, compared by the games written.
    Case {
        name: "plylimit",
        files: &[BROADCAST, MAGNUS, LICHESS_DB],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["--plylimit", "20"],
        pgnkit: &["select", "--truncate-plies", "20"],
        compare: Compare::Games,
    },
    // pgn-extract writes nothing for a game shorter than the plies dropped;
    // pgnkit writes it unchanged and counts it (docs/transforms.md), so its
    // side selects the games long enough. Not on MAGNUS: pgn-extract's
    // output for its Chess960 games does not read back (`Kb8` with a rook on
    // b8 after the FEN it writes; an ambiguous `Rc1`).
    Case {
        name: "dropply",
        files: &[BROADCAST, LICHESS_DB, DRUNKEN],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["--dropply", "10"],
        pgnkit: &["select", "--where", "plies >= 10", "--drop-plies", "10"],
        compare: Compare::Games,
    },
    Case {
        name: "totalplycount",
        files: &[BROADCAST, MAGNUS, LICHESS_DB],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["--totalplycount"],
        pgnkit: &["select", "--total-ply-count"],
        compare: Compare::Tags(&["TotalPlyCount"]),
    },
    // Issue 33: transforms and writing switches, compared game by game as
    // text after both outputs are normalised by `pgnkit export`.
    transform!(
        "seven",
        &[BROADCAST, MAGNUS, STUDIES, KASPAROV],
        &["-7"],
        &["select", "--seven-tags"]
    ),
    Case {
        name: "tag-order",
        files: &[BROADCAST, MAGNUS, STUDIES, KASPAROV],
        inputs: &[("order.txt", TAG_ORDER)],
        setup: nothing,
        pgn_extract: &["-R{dir}/order.txt"],
        pgnkit: &["select", "--tag-order", "{dir}/order.txt"],
        compare: Compare::Text { tag_order: true },
    },
    // Not on files with FEN tags: pgn-extract's --xroster drops them, and
    // its games then do not read back (pgnkit keeps FEN and SetUp).
    Case {
        name: "xroster",
        files: &[BROADCAST, LICHESS_DB, DRUNKEN, KASPAROV],
        inputs: &[("order.txt", TAG_ORDER)],
        setup: nothing,
        pgn_extract: &["-R{dir}/order.txt", "--xroster"],
        pgnkit: &[
            "select",
            "--tag-order",
            "{dir}/order.txt",
            "--only-listed-tags",
        ],
        compare: Compare::Text { tag_order: true },
    },
    // Not on games from a FEN: without their tags they do not read back.
    transform!(
        "notags",
        &[BROADCAST, LICHESS_DB, DRUNKEN, KASPAROV],
        &["--notags"],
        &["select", "--no-tags"]
    ),
    transform!(
        "splitvariants",
        &[SPLIT, STUDIES, KASPAROV, BLACKMAR],
        &["--splitvariants"],
        &["select", "--split-variations"]
    ),
    transform!(
        "splitvariants-1",
        &[SPLIT, STUDIES, BLACKMAR],
        &["--splitvariants", "1"],
        &["select", "--split-variations=1"]
    ),
    transform!(
        "stopafter",
        &[BROADCAST, MAGNUS, LICHESS_DB, STUDIES],
        &["--stopafter", "7"],
        &["select", "--stop-after", "7"]
    ),
    // pgn-extract's en passant square after every double push is its
    // default; --nofauxep asks for pgnkit's (the FEN tag's) rule.
    transform!(
        "fencomments",
        &[BROADCAST, MAGNUS, STUDIES, KASPAROV],
        &["--fencomments", "--nofauxep"],
        &["select", "--fen-comments"]
    ),
    transform!(
        "hashcomments",
        &[BROADCAST, MAGNUS, STUDIES, KASPAROV],
        &["--hashcomments"],
        &["select", "--hash-comments"]
    ),
    // --nochecks: the move words as written (no comments, NAGs or
    // variations on either side), and the games read back.
    Case {
        name: "nochecks",
        files: &[MAGNUS, LICHESS_DB, PROMOTION, KASPAROV],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-C", "-N", "-V", "--nochecks"],
        pgnkit: &[
            "export",
            "--no-comments",
            "--no-nags",
            "--no-variations",
            "--no-checks",
        ],
        compare: Compare::Moves { read_back: true },
    },
    // Issue 33: the Nth matched games, on the games that match `-TeB`.
    Case {
        name: "selectonly",
        files: &[BROADCAST, MAGNUS, LICHESS_DB, DRUNKEN],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-TeB", "--selectonly", "1:3,10,20:25"],
        pgnkit: &[
            "select",
            "--where",
            "ECO =~ \"^B\"",
            "--select-only",
            "1:3,10,20:25",
        ],
        compare: Compare::Games,
    },
    Case {
        name: "skipmatching",
        files: &[BROADCAST, MAGNUS, LICHESS_DB, DRUNKEN],
        inputs: &[],
        setup: nothing,
        pgn_extract: &["-TeB", "--skipmatching", "1:3,10,20:25"],
        pgnkit: &[
            "select",
            "--where",
            "ECO =~ \"^B\"",
            "--skip-matching",
            "1:3,10,20:25",
        ],
        compare: Compare::Games,
    },
    // Games with errors kept: the main line before the error.
    Case {
        name: "keepbroken",
        files: &["{dir}/broken.pgn", BACKSLASH, BLACK_TO_MOVE, CORRUPTED],
        inputs: &[("broken.pgn", BROKEN)],
        setup: nothing,
        pgn_extract: &["--keepbroken"],
        pgnkit: &["select", "--keep-broken"],
        compare: Compare::Games,
    },
    // --nestedcomments: a nested comment read as one; both outputs are
    // normalised with `--nested-comments` (pgn-extract writes the comment
    // as read, pgnkit as a `;` comment: the same text once read).
    Case {
        name: "nestedcomments",
        files: &["{dir}/nested.pgn", NESTED_CORPUS, STUDIES, KASPAROV],
        inputs: &[("nested.pgn", NESTED)],
        setup: nothing,
        pgn_extract: &["--nestedcomments"],
        pgnkit: &["export", "--nested-comments"],
        compare: Compare::Text { tag_order: false },
    },
    // A tag value without its closing quote: 19.04 always repairs it (to
    // the `]`, with a message); pgnkit with --fix-tag-strings.
    Case {
        name: "fixtagstrings",
        files: &["{dir}/unclosed.pgn", BACKSLASH, BROADCAST, MAGNUS],
        inputs: &[("unclosed.pgn", UNCLOSED)],
        setup: nothing,
        pgn_extract: &[],
        pgnkit: &["export", "--fix-tag-strings"],
        compare: Compare::Text { tag_order: false },
    },
    notation!("notation-san", "-Wsan", "san"),
    notation!("notation-lalg", "-Wlalg", "lalg"),
    notation!("notation-halg", "-Whalg", "halg"),
    notation!("notation-elalg", "-Welalg", "elalg"),
    notation!("notation-xlalg", "-Wxlalg", "xlalg"),
    notation!("notation-xolalg", "-Wxolalg", "xolalg"),
    // German piece letters are not read back (S, L, T, D are no SAN).
    notation!("notation-german", "-WsanBSLTDK", "sanBSLTDK", false),
    notation!("notation-uci", "-Wuci", "uci"),
];

/// The check or mate sign at the end of a move word, and the word before it.
fn split_sign(word: &str) -> (&str, &str) {
    let at = word.trim_end_matches(['+', '#']).len();
    word.split_at(at)
}

/// Whether `word` is a from-square and a to-square on the first or last rank
/// with `separator` between them and no piece letter: in the long forms that
/// is castling only (a pawn never moves along those ranks; a king's move has its letter).
fn is_castling(word: &str, separator: &str) -> bool {
    let b = word.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (r == b'1' || r == b'8');
    b.len() == 4 + separator.len()
        && square(b[0], b[1])
        && word[2..2 + separator.len()] == *separator
        && square(b[2 + separator.len()], b[3 + separator.len()])
        && b[1] == b[3 + separator.len()]
}

/// pgn-extract 19.04's `-Whalg` promotion: no hyphen (`c7c8Q`).
fn halg_promotion(ours: &str) -> Option<String> {
    let (word, sign) = split_sign(ours);
    let b = word.as_bytes();
    (b.len() == 6 && b[2] == b'-' && matches!(b[5], b'Q' | b'R' | b'B' | b'N'))
        .then(|| format!("{}{}{sign}", &word[..2], &word[3..]))
}

/// pgn-extract 19.04's `-Wxlalg`/`-Wxolalg` en passant: no `ep`.
fn no_ep(ours: &str) -> Option<String> {
    let (word, sign) = split_sign(ours);
    word.strip_suffix("ep").map(|w| format!("{w}{sign}"))
}

/// pgn-extract's `-Wxlalg` Chess960 castling, king takes rook: `x`.
fn castling_as_capture(ours: &str) -> Option<String> {
    let (word, sign) = split_sign(ours);
    is_castling(word, "-").then(|| format!("{}x{}{sign}", &word[..2], &word[3..]))
}

/// pgn-extract 19.04's `-Wxolalg` castling with check: the sign twice.
fn castling_sign_twice(ours: &str) -> Option<String> {
    let (word, sign) = split_sign(ours);
    (word.starts_with("O-O") && !sign.is_empty()).then(|| format!("{word}{sign}{sign}"))
}

/// pgn-extract 19.04's `-Wuci` promotion: a capital letter.
fn uci_capital_promotion(ours: &str) -> Option<String> {
    let b = ours.as_bytes();
    (b.len() == 5 && matches!(b[4], b'q' | b'r' | b'b' | b'n'))
        .then(|| format!("{}{}", &ours[..4], ours[4..].to_ascii_uppercase()))
}

/// pgn-extract's `-Wuci` null move: `--`.
fn uci_null(ours: &str) -> Option<String> {
    (ours == "0000").then(|| "--".to_owned())
}

/// pgn-extract's `-7` keeps `[Variant "Standard"]` beside a FEN; pgnkit
/// writes `Variant` only for another variant.
fn standard_variant(ours: &[String], theirs: &[String]) -> bool {
    ours.is_empty() && theirs == ["[Variant \"Standard\"]"]
}

/// The tags of [`TAG_ORDER`] as written first by both; after them pgnkit
/// writes the others in ASCII order (export order: the roster is all
/// listed), pgn-extract in an order of its own; the same tags.
fn other_tags_order(ours: &[String], theirs: &[String]) -> bool {
    let listed: Vec<&str> = TAG_ORDER.lines().collect();
    let k = ours
        .iter()
        .take_while(|n| listed.contains(&n.as_str()))
        .count();
    let (mut a, mut b) = (ours[k..].to_vec(), theirs.get(k..).unwrap_or(&[]).to_vec());
    let ascii = ours[k..].windows(2).all(|w| w[0] < w[1]);
    a.sort();
    b.sort();
    ours[..k] == theirs[..k.min(theirs.len())] && ascii && a == b
}

/// The castling field of a FEN: pgnkit's X-FEN `KQkq` against pgn-extract's
/// Shredder-FEN letters (`Gkq`) for a Chess960 rook, word for word.
fn chess960_castling(ours: &[String], theirs: &[String]) -> bool {
    let castling = |w: &str, letters: &str| !w.is_empty() && w.chars().all(|c| letters.contains(c));
    ours.len() == theirs.len()
        && ours.iter().zip(theirs).all(|(a, b)| {
            let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
            a.len() == b.len()
                && a.iter().zip(&b).all(|(x, y)| {
                    x == y
                        || (x.len() == y.len()
                            && castling(x, "KQkq")
                            && castling(y, "KQkqABCDEFGHabcdefgh"))
                })
        })
}

/// pgn-extract's line has one comment more, `{ ... }`, where pgnkit's has none.
fn one_comment_more(ours: &[String], theirs: &[String]) -> bool {
    let [a] = ours else { return false };
    let [b] = theirs else { return false };
    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    b[at..].starts_with("{ ")
        && b[at..]
            .find("} ")
            .is_some_and(|end| format!("{}{}", &b[..at], &b[at + end + 2..]) == *a)
}

const NULL_MOVE: &str = "a null move in the main line: pgn-extract 19.04 reports the game and leaves it out \
    unless --allownullmoves; pgnkit reads `--` (SPEC-NOTES) and keeps the game (docs/pgn-extract.md)";

const FUZZY_SHORT: &str = "a game shorter than --fuzzydepth plies: pgnkit compares its final board \
    (docs/select.md, --fuzzy-ply), so games of 0, 1 or 2 plies with the same moves are duplicates; \
    pgn-extract 19.04 never counts such a game a duplicate, not even of an identical game";

/// Every difference the cases find, with its reason.
pub static KNOWN: &[Known] = &[
    Known {
        case: "repetition",
        file: DRUNKEN,
        what: What::OnlyPgnkit(0x7ea7_24da_ef3a_0400),
        reason: "python-chess agrees with pgnkit: `is_repetition(3)` holds after ply 139, the \
                 game's last move (DrDrunkenstein - raastin, 2018.02.26); pgn-extract 19.04's \
                 --repetition does not report a threefold repetition made by the last move",
    },
    Known {
        case: "fuzzy-dedupe",
        file: "*",
        what: What::OnlyPgnExtract(0xaf63_f14c_8602_103b),
        reason: FUZZY_SHORT,
    },
    Known {
        case: "fuzzy-dedupe",
        file: LICHESS_DB,
        what: What::OnlyPgnExtract(0xa7c5_1d9d_6e7a_0d09),
        reason: FUZZY_SHORT,
    },
    Known {
        case: "fuzzy-dedupe",
        file: LICHESS_DB,
        what: What::OnlyPgnExtract(0x52f8_8c96_1b2b_69c9),
        reason: FUZZY_SHORT,
    },
    Known {
        case: "*",
        file: ODDS,
        what: What::OnlyPgnkit(0x6c83_ded2_a163_0f1e),
        reason: NULL_MOVE,
    },
    Known {
        case: "*",
        file: ODDS,
        what: What::OnlyPgnkit(0x4f2e_f8c2_9444_02bc),
        reason: NULL_MOVE,
    },
    Known {
        case: "notation-halg",
        file: "*",
        what: What::Word(halg_promotion),
        reason: "pgn-extract 19.04 writes a -Whalg promotion without its hyphen (c7c8Q); its current \
            source writes c7-c8Q (output.c), as pgnkit does",
    },
    Known {
        case: "notation-xlalg",
        file: "*",
        what: What::Word(no_ep),
        reason: "pgn-extract 19.04 writes `ep` after an en passant capture in -Welalg only; its current \
            source writes it in -Wxlalg and -Wxolalg too (output.c), as pgnkit does",
    },
    Known {
        case: "notation-xolalg",
        file: "*",
        what: What::Word(no_ep),
        reason: "as for notation-xlalg: `ep` in -Wxolalg, pgn-extract's current source and pgnkit",
    },
    Known {
        case: "notation-xlalg",
        file: MAGNUS,
        what: What::Word(castling_as_capture),
        reason: "Chess960 castling is written king takes rook (e1-h1); pgn-extract marks it a capture \
            (e1xh1) because its own rook stands on the square; pgnkit writes `-`: no piece is taken",
    },
    Known {
        case: "notation-xolalg",
        file: "*",
        what: What::Word(castling_sign_twice),
        reason: "pgn-extract 19.04 -Wxolalg copies castling with its check sign from the input and adds \
            the sign again (O-O-O++); its current source strips it first (output.c)",
    },
    Known {
        case: "notation-uci",
        file: "*",
        what: What::Word(uci_capital_promotion),
        reason: "UCI writes the promotion piece in lower case (e7e8q, the UCI protocol); pgn-extract \
            19.04 -Wuci writes a capital (e7e8Q)",
    },
    Known {
        case: "notation-uci",
        file: ODDS,
        what: What::Word(uci_null),
        reason: "UCI's null move is 0000 (the UCI protocol); pgn-extract -Wuci writes --",
    },
    Known {
        case: "seven",
        file: STUDIES,
        what: What::Text(standard_variant),
        reason: "pgn-extract 19.04's -7 keeps a `Variant \"Standard\"` tag that comes with a FEN; \
            --seven-tags writes Variant only when the game is not standard chess (docs/transforms.md)",
    },
    Known {
        case: "tag-order",
        file: "*",
        what: What::Text(other_tags_order),
        reason: "after the tags of the order file pgnkit writes the others in export order (ASCII \
            here), pgn-extract 19.04 its known tags in its table's order, then the rest as first met \
            (docs/transforms.md)",
    },
    Known {
        case: "fencomments",
        file: MAGNUS,
        what: What::Text(chess960_castling),
        reason: "a Chess960 FEN's castling rights: pgnkit writes X-FEN (`KQkq` for the outermost \
            rooks, as its FEN tags), pgn-extract Shredder-FEN (the rook's file, `Gkq`); both name the \
            same rights (docs/transforms.md)",
    },
    Known {
        case: "splitvariants",
        file: SPLIT,
        what: What::Text(one_comment_more),
        reason: "a comment before a variation's first move, `( { comment3 } 1... e6 (1... d6) ...)`: \
            pgnkit keeps it with 1... e6, pgn-extract also writes it in the game of the alternative \
            1... d6 (docs/transforms.md)",
    },
    Known {
        case: "splitvariants-1",
        file: SPLIT,
        what: What::OnlyPgnkit(0x6669_0a3c_1813_6ed1),
        reason: "`(1... e6 (1... d6))`: in pgnkit's move tree 1... d6 is one more alternative to \
            1... e5, a variation of depth 1; pgn-extract counts it depth 2 (docs/transforms.md)",
    },
    Known {
        case: "keepbroken",
        file: "{dir}/broken.pgn",
        what: What::OnlyPgnkit(0xe5fa_bdf4_c022_9ef7),
        reason: "an illegal move in a variation, `1. e4 c5 (1... e5 2. Ke3) 2. Nf3 d6`: pgnkit leaves \
            the broken variation out and keeps the main line whole; pgn-extract 19.04 --keepbroken \
            moves the main line's 2. Nf3 d6 into a comment",
    },
    Known {
        case: "keepbroken",
        file: "{dir}/broken.pgn",
        what: What::OnlyPgnExtract(0xa17d_1c63_8d53_84dd),
        reason: "the same game as pgn-extract 19.04 writes it: main line cut at the variation's error",
    },
    Known {
        case: "keepbroken",
        file: BLACK_TO_MOVE,
        what: What::OnlyPgnkit(0x8f79_b945_041a_5980),
        reason: "a game without a termination marker at the end of the file: pgn-extract 19.04 \
            reports `Missing result` and writes nothing, --keepbroken or not; pgnkit warns and keeps \
            what it read (here the start position: the first move is illegal)",
    },
    Known {
        case: "keepbroken",
        file: CORRUPTED,
        what: What::OnlyPgnkit(0xf426_cff4_cc19_a965),
        reason: "a game cut off in the middle of a move (`63. Kx`, end of file): pgn-extract 19.04 \
            reports `Missing result` and writes nothing, --keepbroken or not; pgnkit keeps the moves \
            before the error",
    },
];

//! Perft equals the published counts for every position of every chess
//! perft suite in the corpus, at every depth whose count is at most
//! `NODE_BUDGET` (and at least the shallowest published depth); full depths
//! run in `cargo bench`.

mod common;

use pgnkit_chess::perft::perft;

/// Largest published count checked here, per position.
const NODE_BUDGET: u64 = 120_000;
/// For the few positions of the small suites, allow deeper counts.
const SMALL_SUITE_BUDGET: u64 = 2_000_000;

#[test]
fn every_suite_matches_published_counts() {
    let mut checked = 0usize;
    let mut nodes = 0u64;
    for path in common::suite_files() {
        let cases = common::read_suite(&path);
        let budget = if cases.len() <= 200 {
            SMALL_SUITE_BUDGET
        } else {
            NODE_BUDGET
        };
        for case in &cases {
            let mut any = false;
            for &(depth, expected) in &case.counts {
                if expected > budget && depth > 1 {
                    continue;
                }
                let got = perft(&case.pos, depth);
                assert_eq!(got, expected, "{} depth {depth} ({})", case.name, case.pos);
                nodes += got;
                checked += 1;
                any = true;
            }
            if !any {
                // Only deep counts published: check the shallowest one.
                let &(depth, expected) = case
                    .counts
                    .iter()
                    .min_by_key(|(d, _)| *d)
                    .unwrap_or_else(|| panic!("{}: no counts", case.name));
                let got = perft(&case.pos, depth);
                assert_eq!(got, expected, "{} depth {depth} ({})", case.name, case.pos);
                nodes += got;
                checked += 1;
            }
        }
    }
    assert!(checked > 9_000, "only {checked} counts checked");
    eprintln!("{checked} perft counts checked, {nodes} nodes");
}

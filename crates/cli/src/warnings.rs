//! Warnings on standard error, as compilers print them: the first few of
//! each kind with their place, then, once the run is over, one line per
//! kind counting the rest (`pgnkit: ... and 4,812 more: tag TimeControl is
//! not a time control such as 180+2`). `--warnings all` prints every one,
//! `--warnings none` none (the summary line counts them either way).

/// Warnings of one kind printed before the rest are only counted.
pub const SHOWN_PER_KIND: u64 = 5;

/// Which warnings are printed (`--warnings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shown {
    /// Every warning.
    All,
    /// The first [`SHOWN_PER_KIND`] of each kind, then a count per kind.
    #[default]
    Summary,
    /// None.
    None,
}

/// The warnings of a run, counted by kind.
#[derive(Debug, Default)]
pub struct Warnings {
    shown: Shown,
    /// Each kind met and its count, in the order first met (a run meets few kinds).
    kinds: Vec<(String, u64)>,
}

impl Warnings {
    /// No warnings yet; `shown` says which will be printed.
    pub fn new(shown: Shown) -> Warnings {
        Warnings {
            shown,
            kinds: Vec::new(),
        }
    }

    /// Counts one warning of `kind`; whether to print it.
    pub fn count(&mut self, kind: &str) -> bool {
        let n = match self.kinds.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.kinds.push((kind.to_owned(), 1));
                1
            }
        };
        match self.shown {
            Shown::All => true,
            Shown::Summary => n <= SHOWN_PER_KIND,
            Shown::None => false,
        }
    }

    /// One line per kind with warnings left unprinted (with `summary`): how many.
    pub fn rest(&self) -> Vec<String> {
        if self.shown != Shown::Summary {
            return Vec::new();
        }
        self.kinds
            .iter()
            .filter(|(_, n)| *n > SHOWN_PER_KIND)
            .map(|(kind, n)| {
                format!(
                    "pgnkit: ... and {} more: {kind} (--warnings all prints them)",
                    grouped(n - SHOWN_PER_KIND)
                )
            })
            .collect()
    }
}

/// The kind of a typed tag's warning in `convert` and `select`'s tables
/// (the tag and what its column expects; the value is the warning's own).
pub fn tag_kind(warning: &pgnkit_arrow::TagWarning) -> String {
    format!("tag {} is not {}", warning.tag, warning.expected)
}

/// `4812` as `4,812`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_kind_and_prints_the_first_few() {
        let mut w = Warnings::new(Shown::Summary);
        let printed: Vec<bool> = (0..8).map(|_| w.count("a")).collect();
        assert_eq!(printed, [true, true, true, true, true, false, false, false]);
        assert!(w.count("b"));
        assert_eq!(
            w.rest(),
            ["pgnkit: ... and 3 more: a (--warnings all prints them)"]
        );
        let mut all = Warnings::new(Shown::All);
        assert!((0..100).all(|_| all.count("a")) && all.rest().is_empty());
        let mut none = Warnings::new(Shown::None);
        assert!(!none.count("a") && none.rest().is_empty());
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(4812), "4,812");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}

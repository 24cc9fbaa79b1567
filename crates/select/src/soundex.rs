//! American Soundex codes of names (`soundex player = "Fisher"` in a
//! query, as pgn-extract's `-S`): a letter and three digits, so names
//! that sound alike (Fischer, Fisher) have the same code.
//!
//! The rule (the U.S. National Archives'): keep the first letter; code the
//! others B F P V 1, C G J K Q S X Z 2, D T 3, L 4, M N 5, R 6; letters
//! with the same code side by side count once, also when only H or W
//! stands between them (and the first letter counts with its neighbour);
//! a vowel (A E I O U Y, and any letter outside A-Z, such as ü) separates
//! them; pad with zeros to three digits, cut after three. Case does not
//! count.

/// The Soundex code of one word, `None` when it has no letter A-Z.
pub(crate) fn code(word: &str) -> Option<String> {
    let mut letters = word.chars().filter(|c| c.is_alphabetic());
    // The first letter A-Z: letters before it (outside A-Z) are skipped.
    let first = letters.by_ref().find(char::is_ascii_alphabetic)?;
    let first = first.to_ascii_uppercase();
    let mut out = String::with_capacity(4);
    out.push(first);
    let mut last = digit(first);
    for c in letters {
        let c = c.to_ascii_uppercase();
        match c {
            'H' | 'W' => {}
            _ => {
                let d = if c.is_ascii_alphabetic() { digit(c) } else { 0 };
                if d != 0 && d != last {
                    out.push(char::from(b'0' + d));
                    if out.len() == 4 {
                        break;
                    }
                }
                last = d;
            }
        }
    }
    while out.len() < 4 {
        out.push('0');
    }
    Some(out)
}

/// The codes of the words of `text` (words are split at anything that is
/// not a letter: `Fischer, Robert J.` is three words).
pub(crate) fn codes(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter_map(code)
        .collect()
}

/// A letter's digit; 0 for a vowel (and Y).
fn digit(c: char) -> u8 {
    match c {
        'B' | 'F' | 'P' | 'V' => 1,
        'C' | 'G' | 'J' | 'K' | 'Q' | 'S' | 'X' | 'Z' => 2,
        'D' | 'T' => 3,
        'L' => 4,
        'M' | 'N' => 5,
        'R' => 6,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_archives_examples() {
        for (name, want) in [
            ("Robert", "R163"),
            ("Rupert", "R163"),
            ("Rubin", "R150"),
            ("Ashcraft", "A261"),
            ("Ashcroft", "A261"),
            ("Tymczak", "T522"),
            ("Pfister", "P236"),
            ("Honeyman", "H555"),
            ("Lee", "L000"),
            ("Fischer", "F260"),
            ("fisher", "F260"),
            ("Kasparov", "K216"),
            ("Kasparow", "K216"),
            ("Müller", "M460"),
        ] {
            assert_eq!(code(name).as_deref(), Some(want), "{name}");
        }
        assert_eq!(code("123"), None);
        assert_eq!(code(""), None);
    }

    #[test]
    fn words_of_a_name() {
        assert_eq!(codes("Fischer, Robert J."), ["F260", "R163", "J000"]);
        assert!(codes("?").is_empty());
    }
}

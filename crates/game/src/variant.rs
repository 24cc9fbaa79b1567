//! Which chess a game plays, from its `Variant` tag (SPEC-NOTES "When a
//! game is Chess960, and other variants").

/// What a `Variant` tag value means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VariantKind {
    /// `Standard`, `Normal`, `Chess`, `From Position` or empty.
    Standard,
    /// `Chess960`, `chess 960`, `960`, `Fischerandom`, `Fischer Random`, `FRC`.
    Chess960,
    /// Anything else (crazyhouse, atomic, ...): not supported.
    Unsupported,
}

impl VariantKind {
    /// Classifies a `Variant` tag value (case-insensitive, surrounding
    /// white space ignored).
    ///
    /// ```
    /// use pgnkit_game::VariantKind;
    /// assert_eq!(VariantKind::from_tag(b"Fischer Random"), VariantKind::Chess960);
    /// assert_eq!(VariantKind::from_tag(b"From Position"), VariantKind::Standard);
    /// assert_eq!(VariantKind::from_tag(b"Crazyhouse"), VariantKind::Unsupported);
    /// ```
    pub fn from_tag(value: &[u8]) -> VariantKind {
        let value = value.trim_ascii();
        let is = |name: &str| value.eq_ignore_ascii_case(name.as_bytes());
        if [
            "chess960",
            "chess 960",
            "960",
            "fischerandom",
            "fischer random",
            "frc",
        ]
        .iter()
        .any(|n| is(n))
        {
            VariantKind::Chess960
        } else if ["standard", "normal", "chess", "from position", ""]
            .iter()
            .any(|n| is(n))
        {
            VariantKind::Standard
        } else {
            VariantKind::Unsupported
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for v in ["chess960", "CHESS 960", " 960 ", "FRC", "fischerandom"] {
            assert_eq!(
                VariantKind::from_tag(v.as_bytes()),
                VariantKind::Chess960,
                "{v}"
            );
        }
        for v in ["", "Standard", "normal", "Chess", "from position"] {
            assert_eq!(
                VariantKind::from_tag(v.as_bytes()),
                VariantKind::Standard,
                "{v}"
            );
        }
        for v in ["atomic", "Three-check", "chess9600", "horde"] {
            assert_eq!(
                VariantKind::from_tag(v.as_bytes()),
                VariantKind::Unsupported,
                "{v}"
            );
        }
    }
}

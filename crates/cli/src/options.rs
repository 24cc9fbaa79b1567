//! The options layer: the parsed command line ([`args`](crate::args)) turned
//! into the libraries' options, once, before any input is read (ripgrep's
//! `HiArgs` is the model). Subcommands take these values, not raw flags:
//! the reading options, the export writer's options, the query, the opening
//! table and how warnings are shown.

use std::borrow::Cow;
use std::path::Path;

use pgnkit::export::ExportOptions;
use pgnkit::game::ReadOptions;
use pgnkit::select::{Openings, OpeningsError, Query};

use crate::args::{Inputs, PgnFormat, WarningsArg};
use crate::failure::Failure;
use crate::warnings::Shown;

/// The reading options the inputs ask for (`--strict`).
pub fn read_options(inputs: &Inputs) -> ReadOptions {
    if inputs.strict {
        ReadOptions::strict()
    } else {
        ReadOptions::new()
    }
}

/// Which warnings go to standard error (`--warnings`).
pub fn warnings(inputs: &Inputs) -> Shown {
    match inputs.warnings {
        WarningsArg::All => Shown::All,
        WarningsArg::Summary => Shown::Summary,
        WarningsArg::None => Shown::None,
    }
}

/// The writer's options that `format` asks for (`export` and `select`).
pub fn export_options(format: &PgnFormat) -> ExportOptions {
    let base = if format.reduced {
        ExportOptions::reduced()
    } else {
        ExportOptions::export()
    };
    ExportOptions {
        width: usize::from(format.width),
        comments: base.comments && !format.no_comments,
        nags: base.nags && !format.no_nags,
        variations: base.variations && !format.no_variations,
        notation: format.notation,
        ..base
    }
}

/// The query of `--where`, parsed; a bad one is a usage error showing the
/// query with a caret under the fault.
pub fn query(text: Option<&str>) -> Result<Option<Query>, Failure> {
    let Some(text) = text else {
        return Ok(None);
    };
    Query::parse(text)
        .map(Some)
        .map_err(|e| Failure::usage(format!("bad --where expression:\n{}", e.render(text))))
}

/// Reads `--openings FILE` (before any input is read).
fn read_openings(path: &Path) -> Result<Openings, Failure> {
    let text = std::fs::read(path).map_err(|e| Failure::io(&path.display().to_string(), &e))?;
    let text = String::from_utf8(text).map_err(|_| {
        Failure::usage(format!(
            "--openings {}: the table is not UTF-8 text",
            path.display()
        ))
    })?;
    Openings::from_tsv(&text).map_err(|e| {
        let at = match &e {
            OpeningsError::Row { offset, .. } => {
                format!(" line {}", text[..*offset].matches('\n').count() + 1)
            }
            _ => String::new(),
        };
        Failure::usage(format!("--openings {}{at}: {e}", path.display()))
    })
}

/// The opening table of `--classify` and `--openings FILE` (`convert`'s):
/// read before any input is.
pub fn openings(
    classify: bool,
    path: Option<&Path>,
) -> Result<Option<Cow<'static, Openings>>, Failure> {
    match (path, classify) {
        (Some(path), _) => Ok(Some(Cow::Owned(read_openings(path)?))),
        (None, true) => Ok(Some(Cow::Borrowed(Openings::lichess()))),
        (None, false) => Ok(None),
    }
}

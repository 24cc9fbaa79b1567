//! The options layer: the parsed command line ([`args`](crate::args)) turned
//! into the libraries' options, once, before any input is read (ripgrep's
//! `HiArgs` is the model). Subcommands take these values, not raw flags:
//! the reading options, the export writer's options, the query, the opening
//! table and how warnings are shown.

use std::borrow::Cow;
use std::path::Path;

use pgnkit::export::{ExportOptions, PositionComments, TagOrder};
use pgnkit::game::ReadOptions;
use pgnkit::select::{Openings, OpeningsError, Query, Transforms};

use crate::args::{Inputs, PgnFormat, ReadFlags, TransformArgs, WarningsArg};
use crate::failure::Failure;
use crate::warnings::Shown;

/// The reading options the inputs ask for (`--strict`, `--nested-comments`,
/// `--fix-tag-strings`).
pub fn read_options(inputs: &Inputs) -> ReadOptions {
    read_flags(&inputs.read)
}

/// The reading options of the flags every reading command shares
/// (`index`, `tree` and `book` have them without the other inputs').
pub fn read_flags(flags: &ReadFlags) -> ReadOptions {
    let mut options = if flags.strict {
        ReadOptions::strict()
    } else {
        ReadOptions::new()
    };
    options.nested_comments = flags.nested_comments;
    options.fix_tag_strings = flags.fix_tag_strings;
    options
}

/// Which warnings go to standard error (`--warnings`).
pub fn warnings(inputs: &Inputs) -> Shown {
    match inputs.warnings {
        WarningsArg::All => Shown::All,
        WarningsArg::Summary => Shown::Summary,
        WarningsArg::None => Shown::None,
    }
}

/// The writer's options that `format` asks for (`export` and `select`), and
/// how `inputs` are read (a comment read with `--nested-comments` is written
/// so that it reads back the same); `--tag-order FILE` is read here, before
/// any input is.
pub fn export_options(format: &PgnFormat, inputs: &Inputs) -> Result<ExportOptions, Failure> {
    let base = if format.reduced {
        ExportOptions::reduced()
    } else {
        ExportOptions::export()
    };
    let tag_order = match &format.tag_order {
        Some(path) => {
            let text =
                std::fs::read(path).map_err(|e| Failure::io(&path.display().to_string(), &e))?;
            let text = String::from_utf8_lossy(&text);
            let order = TagOrder::parse(&text, format.only_listed_tags)
                .map_err(|e| Failure::usage(format!("--tag-order {}: {e}", path.display())))?;
            Some(order)
        }
        None => None,
    };
    Ok(ExportOptions {
        width: usize::from(format.width),
        comments: base.comments && !format.no_comments,
        nags: base.nags && !format.no_nags,
        variations: base.variations && !format.no_variations,
        notation: format.notation,
        reduced_tags: base.reduced_tags || format.seven_tags,
        move_numbers: !format.no_move_numbers,
        results: !format.no_results,
        tags: !format.no_tags,
        checks: !format.no_checks,
        comment_lines: format.comment_lines,
        tag_order,
        nested_comments: read_options(inputs).nested_comments,
        ..base
    })
}

/// The game transforms `args` ask for; FEN comments are written as the
/// writer writes the FEN tag.
pub fn transforms(args: &TransformArgs, export: &ExportOptions) -> Transforms {
    Transforms {
        total_ply_count: args.total_ply_count,
        split_variations: args.split_variations.map(|d| d.unwrap_or(usize::MAX)),
        drop_plies: args.drop_plies,
        truncate_plies: args.truncate_plies,
        fen_comments: args.fen_comments.then_some(export.fen),
        hash_comments: args.hash_comments,
        hash_code: args.add_hash_code,
        variation_comments: args.lichess_comment_fix,
    }
}

/// The comments the streaming writer writes after every move in place of
/// `transforms`, when they are FEN or key comments alone
/// ([`Transforms::only_position_comments`]); none otherwise (the game's tree
/// then gets them).
pub fn position_comments(transforms: &Transforms) -> PositionComments {
    if !transforms.only_position_comments() {
        return PositionComments::default();
    }
    PositionComments {
        fen: transforms.fen_comments,
        polyglot_key: transforms.hash_comments,
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

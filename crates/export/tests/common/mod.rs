//! Helpers shared by the export integration tests: invariant checks over
//! export-format text.

/// Checks the layout invariants of export text made of whole games: LF only,
/// no tab, no line starting or ending with a space, no two empty lines in a
/// row, every game ends with one empty line, and no movetext line of more
/// than 79 characters unless it is a single unit (a lone over-long word,
/// possibly with the tokens glued to it, or a `;` comment) or a tag line.
pub fn check_layout(text: &str) -> Result<(), String> {
    if text.contains('\r') {
        return Err("CR in output".into());
    }
    if text.contains('\t') {
        return Err("TAB in output".into());
    }
    if !text.is_empty() && !text.ends_with("\n\n") {
        return Err("output does not end with an empty line".into());
    }
    if text.ends_with("\n\n\n") || text.starts_with('\n') {
        return Err("two empty lines at the end or an empty line at the start".into());
    }
    let lines: Vec<&str> = text.split('\n').collect();
    // The text ends with a line feed: the last piece is not a line.
    let lines = &lines[..lines.len().saturating_sub(1)];
    let mut previous_empty = false;
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        if line.is_empty() {
            if previous_empty {
                return Err(format!("line {n}: two empty lines in a row"));
            }
            previous_empty = true;
            continue;
        }
        previous_empty = false;
        if line.starts_with(' ') || line.ends_with(' ') {
            return Err(format!("line {n}: leading or trailing space: {line:?}"));
        }
        if line.chars().count() > 79 && !line.starts_with('[') && !is_single_unit(line) {
            return Err(format!(
                "line {n}: {} characters: {line:?}",
                line.chars().count()
            ));
        }
    }
    Ok(())
}

/// Whether an over-long line is one unit: a single token, possibly with
/// the tokens glued to it (`{`/`}` with one word, `(`/`)`, words starting
/// with `[` or `%`), or one `;` comment.
fn is_single_unit(line: &str) -> bool {
    if line.starts_with(';') {
        return true;
    }
    let words: Vec<&str> = line.split(' ').collect();
    words.iter().enumerate().all(|(i, w)| {
        i == 0
            || *w == "}"
            || w.starts_with('[')
            || w.starts_with('%')
            || (i == 1 && words[0].ends_with('{'))
    })
}

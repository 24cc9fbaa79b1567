//! Counting what a command did, for its summary line and exit status.

use std::io;
use std::time::Instant;

use crate::console;
use crate::warnings::{Shown, Warnings};

/// Games read, written and rejected; diagnostics; bytes; time.
#[derive(Debug)]
pub struct Tally {
    /// Games the splitter found.
    pub games: u64,
    /// Games written (or, for `check`, games without errors).
    pub written: u64,
    /// Games with errors.
    pub rejected: u64,
    /// Warnings over all games.
    pub warnings: u64,
    /// Errors over all games.
    pub errors: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Bytes outside any game.
    pub skipped: u64,
    /// Games read and not rejected that were not written because the run
    /// stopped early (standard output closed, an input failed with a file
    /// output, an output failed).
    pub unwritten: u64,
    /// Inputs that could not be read.
    pub failed_inputs: u64,
    /// More counts for the summary line (`select`: "12 duplicates"...), in order.
    pub extra: Vec<String>,
    /// The warnings printed on standard error, by kind.
    shown: Warnings,
    started: Instant,
}

impl Tally {
    /// Starts the clock; warnings are printed as `shown` says.
    pub fn with_warnings(shown: Shown) -> Tally {
        Tally {
            shown: Warnings::new(shown),
            ..Tally::new()
        }
    }

    /// Counts a warning of `kind` and prints it (`line()`, a whole line) on
    /// standard error when `--warnings` shows it (see [`Warnings`]).
    pub fn warn(&mut self, kind: &str, line: impl FnOnce() -> String) -> io::Result<()> {
        self.warnings += 1;
        if self.shown.count(kind) {
            console::write(&line())?;
        }
        Ok(())
    }

    /// Prints the count of each kind of warning not printed, at the end of a run.
    pub fn say_warning_counts(&self) {
        for line in self.shown.rest() {
            console::say(&line);
        }
    }

    /// Starts the clock; warnings are summarised.
    pub fn new() -> Tally {
        Tally {
            games: 0,
            written: 0,
            rejected: 0,
            warnings: 0,
            errors: 0,
            bytes: 0,
            skipped: 0,
            unwritten: 0,
            failed_inputs: 0,
            extra: Vec::new(),
            shown: Warnings::default(),
            started: Instant::now(),
        }
    }

    /// Settles the count of games written with what the output took
    /// (`written` games; the rest of those without errors were not written).
    pub fn written_out(&mut self, written: u64) {
        self.unwritten = self.written.saturating_sub(written);
        self.written = written;
    }

    /// Counts one game's diagnostics and bytes.
    pub fn game(&mut self, bytes: usize, diagnostics: &pgnkit::game::Diagnostics) {
        use pgnkit::game::DiagnosticKind;
        self.games += 1;
        self.bytes += bytes as u64;
        // A game skipped for its size was read all the same.
        for d in diagnostics.errors() {
            if let DiagnosticKind::GameTooLarge { bytes } = d.kind {
                self.bytes += bytes;
            }
        }
        let errors = diagnostics.errors().count() as u64;
        self.errors += errors;
        self.warnings += diagnostics.len() as u64 - errors;
        if errors > 0 {
            self.rejected += 1;
        } else {
            self.written += 1;
        }
    }

    /// `pgnkit <command>: 3 games read, 2 written, 1 rejected, ...`.
    pub fn summary(&self, command: &str, written: &str) -> String {
        let seconds = self.started.elapsed().as_secs_f64();
        let mut line = format!(
            "pgnkit {command}: {} games read, {} {written}, {} rejected, {} errors, {} warnings; {} bytes in {seconds:.2} s ({:.1} MB/s)",
            self.games,
            self.written,
            self.rejected,
            self.errors,
            self.warnings,
            self.bytes,
            self.bytes as f64 / seconds.max(1e-9) / 1e6,
        );
        for extra in &self.extra {
            line.push_str("; ");
            line.push_str(extra);
        }
        if self.unwritten > 0 {
            line.push_str(&format!(
                "; {} not written (the run stopped early)",
                plural(self.unwritten, "game", "games")
            ));
        }
        if self.failed_inputs > 0 {
            line.push_str(&format!(
                "; {} could not be read",
                plural(self.failed_inputs, "input", "inputs")
            ));
        }
        if self.skipped > 0 {
            line.push_str(&format!(
                "; {} bytes outside any game skipped",
                self.skipped
            ));
        }
        line
    }
}

/// `1 game`, `2 games`.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

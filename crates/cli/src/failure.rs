//! Why the command stopped, and the exit status that says so.

use std::fmt;
use std::io;

/// A failure that ends the command: usage or I/O (exit status 2).
#[derive(Debug)]
pub struct Failure {
    message: String,
}

impl Failure {
    /// A mistake on the command line or in what it names.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
        }
    }

    /// An I/O error on `name`, in words a person reads.
    pub fn io(name: &str, err: &io::Error) -> Failure {
        let what = match err.kind() {
            io::ErrorKind::NotFound => "no such file".to_string(),
            io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            io::ErrorKind::IsADirectory => "is a directory".to_string(),
            _ => describe(err),
        };
        Failure {
            message: format!("cannot read {name}: {what}"),
        }
    }

    /// An error writing output.
    pub fn write(name: &str, err: &io::Error) -> Failure {
        Failure {
            message: format!("cannot write {name}: {}", describe(err)),
        }
    }
}

/// An I/O error in words a person reads: the system's message without its
/// `(os error N)` tail.
pub fn describe(err: &io::Error) -> String {
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

//! Writing to the GUI. A closed stdout (the GUI went away, or `cb2026 bench | head`) ends the
//! engine quietly instead of panicking.

use std::io::Write;

/// Writes `text` as it is (multi-line text ending in a newline).
pub fn text(text: &str) {
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// Writes one line.
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{args}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// `println!` for the GUI: see [`line`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}
pub(crate) use say;

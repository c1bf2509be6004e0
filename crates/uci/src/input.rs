//! Reading the GUI's lines with a bound on their size. A line is a command, and the longest a GUI
//! sends is a `position ... moves ...` of a whole game (a few kilobytes even for a game of a
//! thousand moves), so a line past [`MAX_LINE_BYTES`] is no command: it is skipped to its end
//! without being kept, and the engine says so once. Reading never holds more than the limit.

use std::io::{BufRead, ErrorKind};

/// The most bytes a line may have (not counting its newline): a mebibyte, two hundred times the
/// longest `position startpos moves ...` of a game of a thousand moves.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line, now in the buffer (without its newline).
    Line,
    /// A line longer than the limit: skipped, the buffer is empty.
    TooLong,
    /// The end of the input (or an error reading it).
    End,
}

/// Reads the next line of `input` into `line` (cleared first), keeping at most `limit` bytes.
/// A last line without a newline counts as a line.
pub fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, limit: usize) -> Read {
    line.clear();
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return Read::End,
        };
        if available.is_empty() {
            return match (too_long, line.is_empty()) {
                (true, _) => Read::TooLong,
                (false, true) => Read::End,
                (false, false) => Read::Line,
            };
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        if !too_long {
            if line.len() + chunk.len() > limit {
                too_long = true;
                // Give the memory back: a long line must not leave a large buffer behind.
                *line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = chunk.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            return if too_long { Read::TooLong } else { Read::Line };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8], limit: usize) -> Vec<(Read, String)> {
        // A small buffer, so that lines cross the reader's refills.
        let mut input = std::io::BufReader::with_capacity(3, bytes);
        let mut line = Vec::new();
        let mut out = Vec::new();
        loop {
            let read = read_line(&mut input, &mut line, limit);
            let text = String::from_utf8_lossy(&line).into_owned();
            let end = read == Read::End;
            out.push((read, text));
            if end {
                return out;
            }
        }
    }

    #[test]
    fn long_lines_are_skipped_whole_and_short_ones_kept() {
        let got = lines(b"go\nabcdefghij\nisready\r\n\nlast", 8);
        let want = [
            (Read::Line, "go"),
            (Read::TooLong, ""),
            (Read::Line, "isready\r"),
            (Read::Line, ""),
            (Read::Line, "last"),
            (Read::End, ""),
        ];
        let got: Vec<(&Read, &str)> = got.iter().map(|(r, t)| (r, t.as_str())).collect();
        let want: Vec<(&Read, &str)> = want.iter().map(|(r, t)| (r, *t)).collect();
        assert_eq!(got, want);
        // Exactly the limit is a line; one more byte, at the end of the input too, is not.
        assert_eq!(lines(b"12345678", 8)[0], (Read::Line, "12345678".into()));
        assert_eq!(lines(b"123456789", 8)[0], (Read::TooLong, String::new()));
        assert_eq!(lines(b"", 8), vec![(Read::End, String::new())]);
    }
}

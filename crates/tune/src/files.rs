//! Reading the files a user names: only regular files (a pipe or a device such as `/dev/zero`
//! could block or never end), and no more than a stated size.

use engine::eval::nnue::Network;
use engine::eval::nnue::inputs::MAX_KING_BUCKETS;
use engine::eval::nnue::network::{MAX_DESCRIPTION, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, file_size};
use std::io::Read;
use std::path::Path;

/// No limit but the file's own length, known before it is read: for data files, which are as
/// large as the user made them (the positions are held in memory anyway).
pub const ANY_SIZE: u64 = u64::MAX;

/// The largest network file: the widest first layer, the most buckets, the longest description.
pub const MAX_NET_FILE: u64 = file_size(
    MAX_HIDDEN,
    MAX_KING_BUCKETS,
    MAX_OUTPUT_BUCKETS,
    MAX_DESCRIPTION,
) as u64;

/// A regular file's bytes, if it holds at most `limit` of them.
///
/// # Errors
/// The file cannot be opened or read, is not a regular file, or is larger than `limit`: the
/// message names the file.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let fail = |why: String| format!("{}: {why}", path.display());
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    if meta.len() > limit {
        return Err(fail(format!("{} bytes, more than {limit}", meta.len())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while it is read stops at the limit too.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(fail(format!("it grew past {limit} bytes while read")));
    }
    Ok(bytes)
}

/// The network in a net file (`--eval-file`).
///
/// # Errors
/// As [`read_regular_file`], or the bytes are not a network.
pub fn read_network(path: &Path) -> Result<Network, String> {
    let bytes = read_regular_file(path, MAX_NET_FILE)?;
    Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("cb2026-files-{}-{name}", std::process::id()))
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let path = temp("small");
        std::fs::write(&path, b"twelve bytes").unwrap();
        assert_eq!(read_regular_file(&path, 12).unwrap(), b"twelve bytes");
        let e = read_regular_file(&path, 11).unwrap_err();
        assert!(e.ends_with("12 bytes, more than 11"), "{e}");
        std::fs::remove_file(&path).unwrap();
        let e = read_regular_file(&std::env::temp_dir(), u64::MAX).unwrap_err();
        assert!(e.ends_with("not a regular file"), "{e}");
        #[cfg(unix)]
        {
            let e = read_regular_file(Path::new("/dev/zero"), u64::MAX).unwrap_err();
            assert_eq!(e, "/dev/zero: not a regular file");
        }
        assert!(read_regular_file(&temp("missing"), 1).is_err());
    }

    #[test]
    fn a_net_file_larger_than_any_network_is_refused_unread() {
        // A sparse file: its size is stated without writing it.
        let path = temp("huge.nnue");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_NET_FILE + 1).unwrap();
        let e = read_network(&path).unwrap_err();
        assert!(e.contains(&format!("more than {MAX_NET_FILE}")), "{e}");
        // One within the limit is read and judged as a network.
        file.set_len(1000).unwrap();
        let e = read_network(&path).unwrap_err();
        assert!(e.contains("not a cb2026 network"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}

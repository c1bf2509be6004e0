//! The Syzygy options as a GUI sets them: declared, loaded with a count, bad paths and values
//! refused without losing the tables in use, `tbhits` on `info` lines, and `set syzygy off`.

mod common;

use common::Engine;
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

fn tables_dir() -> String {
    format!("{}/../../data/syzygy", env!("CARGO_MANIFEST_DIR"))
}

/// The `tbhits` of the last `info` line of a search of `fen` to `depth`.
fn tbhits(e: &mut Engine, fen: &str, depth: u32) -> u64 {
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go depth {depth}"));
    let lines = e.until("bestmove", 30 * SECOND);
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "tbhits").expect("tbhits");
    words[at + 1].parse().expect("a count")
}

/// The `info string` lines that answer `command`.
fn answer(e: &mut Engine, command: &str) -> Vec<String> {
    e.send(command);
    e.send("isready");
    let lines = e.until("readyok", 10 * SECOND);
    lines.into_iter().filter(|l| l != "readyok").collect()
}

#[test]
fn syzygy_options_load_refuse_and_probe() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 5 * SECOND);
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    // Four pieces, rook against rook: at the root the tables choose the moves.
    let krkr = "8/8/8/4k3/8/1r6/2R5/4K3 w - - 0 1";
    // Five pieces: the tables answer inside the tree, after captures.
    let five = "8/8/8/4k3/3r4/8/2R5/3QK3 w - - 0 1";
    assert_eq!(tbhits(&mut e, krkr, 6), 0);

    let missing = answer(&mut e, "setoption name SyzygyPath value /no/such/folder");
    assert!(
        missing[0].starts_with("info string error: SyzygyPath"),
        "{missing:?}"
    );
    let found = answer(
        &mut e,
        &format!("setoption name SyzygyPath value {}", tables_dir()),
    );
    assert_eq!(
        found,
        ["info string Found 70 tablebase files, up to 4 pieces"]
    );
    assert!(tbhits(&mut e, krkr, 6) > 0);
    assert!(tbhits(&mut e, five, 8) > 0);

    // A bad path or value is refused, and the tables in use stay.
    let bad = answer(&mut e, "setoption name SyzygyPath value /no/such/folder");
    assert!(bad[0].starts_with("info string error:"), "{bad:?}");
    for refused in [
        "setoption name SyzygyProbeLimit value 8",
        "setoption name SyzygyProbeDepth value 0",
        "setoption name Syzygy50MoveRule value perhaps",
    ] {
        let said = answer(&mut e, refused);
        assert!(
            said[0].starts_with("info string error:"),
            "{refused}: {said:?}"
        );
    }
    assert!(tbhits(&mut e, five, 8) > 0);

    // A folder that exists but holds no table is an error too, and changes nothing.
    let empty = answer(
        &mut e,
        &format!(
            "setoption name SyzygyPath value {}",
            env!("CARGO_MANIFEST_DIR")
        ),
    );
    assert!(empty[0].starts_with("info string error:"), "{empty:?}");

    // The switch, the probe limit, and emptying the path.
    answer(&mut e, "set syzygy off");
    assert_eq!(tbhits(&mut e, five, 8), 0);
    answer(&mut e, "set syzygy on");
    answer(&mut e, "setoption name SyzygyProbeLimit value 0");
    assert_eq!(tbhits(&mut e, five, 8), 0);
    answer(&mut e, "setoption name SyzygyProbeLimit value 7");
    assert!(tbhits(&mut e, five, 8) > 0);
    answer(&mut e, "setoption name SyzygyPath value <empty>");
    assert_eq!(tbhits(&mut e, five, 8), 0);
    e.send("quit");
}

//! `UCI_LimitStrength` and `UCI_Elo`: declared, values checked, a limited search (few nodes, four
//! lines), a move drawn among those lines that varies from search to search, and no blunder into
//! a mate or past a mate in one.

mod common;

use chess::Position;
use common::{Engine, last_pv_move};
use std::collections::HashSet;
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

/// The `info` lines and the `bestmove` of one search.
fn search(e: &mut Engine, fen: &str, go: &str) -> (Vec<String>, String) {
    e.send(&format!("position fen {fen}"));
    e.send(go);
    let lines = e.until("bestmove", 30 * SECOND);
    let best = lines.last().expect("bestmove").clone();
    let mv = best.split_whitespace().nth(1).expect("a move").to_string();
    (lines, mv)
}

fn word_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == key)?;
    words.get(at + 1).copied()
}

#[test]
fn a_limited_strength_searches_little_and_chooses_among_its_lines() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 5 * SECOND);
    for option in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1320 min 1320 max 2161",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    for bad in ["1000", "2400", "strong"] {
        e.send(&format!("setoption name UCI_Elo value {bad}"));
        let said = e.until("info string", 5 * SECOND);
        assert!(said[0].starts_with("info string error:"), "{bad}: {said:?}");
    }
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1320");

    // An open middlegame with several reasonable moves.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let go = "go wtime 60000 btime 60000 winc 1000 binc 1000";
    let pos = Position::from_fen(fen).expect("fen");
    let mut played = HashSet::new();
    for _ in 0..30 {
        let (lines, mv) = search(&mut e, fen, go);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        // The budget at 1320 is 229 nodes, which binds once the first iteration (four lines) is
        // complete: no later iteration ends past it.
        for info in infos.iter().filter(|l| word_after(l, "depth") != Some("1")) {
            let nodes: u64 = word_after(info, "nodes")
                .expect("nodes")
                .parse()
                .expect("count");
            assert!(nodes <= 229, "{info}");
        }
        let last_depth = word_after(infos.last().expect("an info line"), "depth").expect("depth");
        // The last iteration's four lines; a move drawn other than the first is then shown
        // again, as the best line, so that the last best line sent begins with the move played.
        let firsts: Vec<&str> = infos
            .iter()
            .filter(|l| word_after(l, "depth") == Some(last_depth))
            .take(4)
            .filter_map(|l| word_after(l, "pv"))
            .collect();
        assert_eq!(firsts.len(), 4, "{infos:?}");
        assert!(firsts.contains(&mv.as_str()), "{mv} not among {firsts:?}");
        assert_eq!(last_pv_move(&lines), Some(mv.clone()), "{infos:?}");
        assert!(pos.parse_uci_move(&mv).is_ok());
        played.insert(mv);
    }
    assert!(played.len() >= 2, "always {played:?}");

    // A mate in one is never passed over, however weak the setting.
    let mate = "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1";
    for _ in 0..20 {
        let (_, mv) = search(&mut e, mate, go);
        let mut after = Position::from_fen(mate).expect("fen");
        after.make_move(after.parse_uci_move(&mv).expect("legal"));
        assert!(
            after.is_check() && !after.has_legal_moves(),
            "{mv} does not mate"
        );
    }

    // Full strength again: one line, and the search's own move.
    e.send("setoption name UCI_LimitStrength value false");
    let (lines, _) = search(&mut e, fen, "go depth 6");
    assert!(lines.iter().all(|l| !l.contains("multipv 2")));
    e.send("quit");
}

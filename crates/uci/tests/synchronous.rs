//! The synchronous session, as the browser build drives it (`crates/web`): each command runs to
//! its end inside `execute`, its output captured rather than printed. Run natively here, so that
//! `cargo test` checks the browser's protocol without WebAssembly tools.

use chess::Position;
use engine::threads::SEARCH_STACK_BYTES;
use uci::Session;
use uci::output::capture;

/// A session's driver: runs each line and returns what it wrote.
struct Driver {
    session: Session,
}

impl Driver {
    fn new() -> Driver {
        Driver {
            session: Session::synchronous(false),
        }
    }

    fn run(&mut self, line: &str) -> String {
        let session = &mut self.session;
        capture(
            || {
                session.execute(line);
            },
            |_| {},
        )
    }

    /// The node count of the last `info` line of a search.
    fn nodes(&mut self, go: &str) -> u64 {
        let out = self.run(go);
        assert!(out.contains("bestmove "), "{out}");
        let info = out
            .lines()
            .rfind(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("no info line: {out}"));
        word_after(info, "nodes").parse().expect("a node count")
    }
}

fn word_after<'a>(line: &'a str, key: &str) -> &'a str {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key);
    words
        .next()
        .unwrap_or_else(|| panic!("no '{key}' in {line}"))
}

/// The search runs on the test's thread here: give it the search thread's stack.
fn with_search_stack(test: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(test)
        .expect("a thread")
        .join()
        .expect("the test passed");
}

#[test]
fn a_search_runs_to_its_end_and_its_output_is_returned() {
    with_search_stack(|| {
        let mut d = Driver::new();
        d.run("position startpos moves e2e4 e7e5");
        let out = d.run("go depth 6");
        let infos = out.lines().filter(|l| l.starts_with("info depth")).count();
        assert_eq!(infos, 6, "one info line per iteration: {out}");
        let last = out.lines().last().expect("output");
        let best = word_after(last, "bestmove");
        let moves = d.run("moves");
        assert!(
            moves.split_whitespace().any(|m| m == best),
            "{best}: {moves}"
        );
        // The pieces handed over one by one add up to what is returned.
        let mut pieces = String::new();
        let collected = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
        let into = collected.clone();
        let returned = capture(
            || {
                d.session.execute("go nodes 5000");
            },
            move |piece| into.borrow_mut().push_str(piece),
        );
        pieces.push_str(&collected.borrow());
        assert_eq!(pieces, returned);
        assert!(returned.contains("bestmove"));
    });
}

#[test]
fn a_search_without_a_limit_is_refused() {
    with_search_stack(|| {
        let mut d = Driver::new();
        for go in [
            "go",
            "go infinite",
            "go ponder wtime 1000 btime 1000",
            "go mate 3",
        ] {
            let out = d.run(go);
            assert!(out.starts_with("info string error: go:"), "{go}: {out}");
            assert!(!out.contains("bestmove"), "{go}: {out}");
        }
        assert!(d.run("go movetime 50").contains("bestmove"));
        assert!(d.run("go wtime 200 btime 200").contains("bestmove"));
    });
}

#[test]
fn moves_lists_the_legal_moves() {
    let mut d = Driver::new();
    let start: Vec<String> = d
        .run("moves")
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(start[0], "moves");
    let expected: Vec<String> = Position::startpos()
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(false))
        .collect();
    assert_eq!(start[1..], expected[..]);
    assert_eq!(start.len(), 21);
    // Fool's mate: no move at all.
    d.run("position startpos moves f2f3 e7e5 g2g4 d8h4");
    assert_eq!(d.run("moves"), "moves\n");
    // Promotions are listed one per piece.
    d.run("position fen 8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let moves = d.run("moves");
    for promotion in ["e7e8q", "e7e8r", "e7e8b", "e7e8n"] {
        assert!(moves.contains(promotion), "{moves}");
    }
}

#[test]
fn switching_a_technique_changes_the_count_and_the_stats() {
    with_search_stack(|| {
        let mut d = Driver::new();
        let fen =
            "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
        d.run(fen);
        d.run("ucinewgame");
        let on = d.nodes("go depth 7");
        let stats_on = d.run("stats");
        assert_eq!(d.run("set null_move off"), "info string null_move = off\n");
        d.run("ucinewgame");
        let off = d.nodes("go depth 7");
        let stats_off = d.run("stats");
        assert_ne!(on, off, "null move pruning saves or costs nodes");
        assert_ne!(stats_on, stats_off);
        // The same search again gives the same count: the difference is the switch's.
        d.run("ucinewgame");
        assert_eq!(d.nodes("go depth 7"), off);
    });
}

#[test]
fn tree_prints_its_drawing() {
    with_search_stack(|| {
        let mut d = Driver::new();
        let svg = d.run("tree depth 3 print svg");
        assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
        assert!(svg.trim_end().ends_with("</svg>"));
        let html = d.run("tree depth 3 print html");
        assert!(html.to_ascii_lowercase().starts_with("<!doctype html"));
        let json = d.run("tree depth 3 print json");
        assert!(json.starts_with('{') && json.trim_end().ends_with('}'));
        assert!(
            d.run("tree depth 3 print png")
                .starts_with("info string error: tree:")
        );
    });
}

#[test]
fn missing_tables_and_unknown_commands_are_error_lines() {
    let mut d = Driver::new();
    let out = d.run("setoption name SyzygyPath value /no/such/folder");
    assert!(out.starts_with("info string error: SyzygyPath"), "{out}");
    assert!(
        d.run("frobnicate")
            .starts_with("info string error: unknown command")
    );
}

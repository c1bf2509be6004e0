//! The search-tree explorer: its JSON, read back with serde_json, must agree with the search's own
//! counters (one record per counted node, one per outcome per counter), the tree must hang
//! together (parents before children, the principal variation along PV nodes, the root's score
//! the search's), and recording must not change what the search does.

use engine::eval::nnue::embedded;
use engine::tools::bench::{self, SIX_POSITIONS};
use engine::tools::tree::{TreeRequest, record as record_tree};
use engine::tree::{self, DEFAULT_CAP, Outcome, Tree};
use engine::{Note, Params, Signals, Techniques};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

fn request(fen: &str, depth: i32, techniques: &Techniques, params: &Params) -> TreeRequest {
    TreeRequest {
        position: chess::Position::from_fen(fen).expect("a good FEN"),
        history: Vec::new(),
        depth,
        techniques: techniques.clone(),
        params: *params,
        cap: DEFAULT_CAP,
        chess960: false,
    }
}

fn record(fen: &str, depth: i32, techniques: &Techniques, params: &Params) -> Tree {
    record_tree(
        &request(fen, depth, techniques, params),
        embedded(),
        Arc::new(Signals::default()),
    )
}

/// Every check on one tree, through its JSON.
fn check(fen: &str, depth: i32, techniques: &Techniques) {
    check_with(fen, depth, techniques, &Params::default());
}

fn check_with(fen: &str, depth: i32, techniques: &Techniques, params: &Params) {
    let tree = record(fen, depth, techniques, params);
    let json: Value = serde_json::from_str(&tree::json::to_json(&tree)).expect("valid JSON");
    let what = format!("{fen} at depth {depth}");
    assert_eq!(json["format"], "cb2026-tree");
    assert_eq!(json["version"], 1);
    assert_eq!(json["depth"], depth, "{what}: the last iteration");
    assert_eq!(json["dropped"], 0, "{what}");
    let nodes = json["nodes"].as_array().expect("nodes");
    let counters = &json["counters"];
    let counter = |note: Note| counters[note.name()].as_u64().expect("a counter");
    assert_eq!(counter(Note::Nodes), tree.counters.get(Note::Nodes));

    // One record per node the search counted, main search and quiescence apart.
    let kind_count = |kinds: &[&str]| {
        nodes
            .iter()
            .filter(|n| kinds.contains(&n["kind"].as_str().unwrap_or("")))
            .count() as u64
    };
    assert_eq!(
        kind_count(&["root", "pv", "nonpv"]),
        counter(Note::Nodes),
        "{what}: main-search nodes"
    );
    assert_eq!(
        kind_count(&["qs"]),
        counter(Note::QNodes),
        "{what}: quiescence nodes"
    );

    // Each outcome with a counter: as many records as the counter says.
    let mut by_outcome: HashMap<&str, u64> = HashMap::new();
    for n in nodes {
        *by_outcome
            .entry(n["outcome"].as_str().expect("outcome"))
            .or_default() += 1;
    }
    for &outcome in Outcome::ALL {
        let recorded = by_outcome.get(outcome.key()).copied().unwrap_or(0);
        assert_eq!(
            json["outcomes"][outcome.key()].as_u64(),
            Some(recorded),
            "{what}: the totals of {}",
            outcome.key()
        );
        if let Some(note) = outcome.note() {
            assert_eq!(
                recorded,
                counter(note),
                "{what}: records with outcome {} against the counter {}",
                outcome.key(),
                note.name()
            );
        }
    }
    assert_eq!(by_outcome.get("open"), None, "{what}: every node closed");

    // Parents come first and exist; a child is one ply down, or a second look at the parent's
    // own position (verification, singular search, razoring) at the same ply.
    let roots: Vec<u64> = json["roots"]
        .as_array()
        .expect("roots")
        .iter()
        .map(|r| r.as_u64().expect("index"))
        .collect();
    assert!(!roots.is_empty(), "{what}: a root search");
    let mut subtree = vec![0u64; nodes.len()];
    for (i, n) in nodes.iter().enumerate().rev() {
        assert_eq!(n["id"].as_u64(), Some(i as u64));
        if n["kind"] != "pruned" {
            subtree[i] += 1;
        }
        assert_eq!(
            n["subtree"].as_u64(),
            Some(subtree[i]),
            "{what}: subtree of {i}"
        );
        match n["parent"].as_u64() {
            None => {
                assert!(roots.contains(&(i as u64)), "{what}: {i} is a root");
                assert_eq!(n["kind"], "root");
            }
            Some(p) => {
                assert!((p as usize) < i, "{what}: parent {p} of {i} comes first");
                let parent = &nodes[p as usize];
                assert_ne!(
                    parent["kind"], "pruned",
                    "{what}: a pruned move has no children"
                );
                let (ply, parent_ply) = (n["ply"].as_u64(), parent["ply"].as_u64());
                let same = ["verification", "singular", "razoring"]
                    .contains(&n["via"].as_str().unwrap_or(""));
                if same {
                    assert_eq!(ply, parent_ply, "{what}: {i}");
                    assert_eq!(n["move"], Value::Null);
                } else {
                    assert_eq!(ply, parent_ply.map(|p| p + 1), "{what}: {i}");
                }
                subtree[p as usize] += subtree[i];
            }
        }
    }

    // The final root search's score is the search's, and the principal variation runs down PV
    // nodes (or quiescence nodes at its end), each the negation of the one above.
    let root = &nodes[*roots.last().expect("a root") as usize];
    assert_eq!(root["score"], json["score"], "{what}: the root's score");
    let children = tree.children();
    let path = tree.pv_path(&children);
    assert_eq!(
        path.len(),
        tree.pv.len() + 1,
        "{what}: the whole PV is in the tree"
    );
    for pair in path.windows(2) {
        let (above, below) = (&nodes[pair[0] as usize], &nodes[pair[1] as usize]);
        assert!(
            ["pv", "qs"].contains(&below["kind"].as_str().unwrap_or("")),
            "{what}: PV record {} is {}",
            pair[1],
            below["kind"]
        );
        assert_eq!(
            above["score"].as_i64(),
            below["score"].as_i64().map(|s| -s),
            "{what}: scores along the PV"
        );
    }

    // Recording only watches: the same search without a recorder counts the same nodes.
    let plain = bench::run(&[(fen_static(fen), false)], depth, techniques, params);
    assert_eq!(
        plain.nodes, tree.search_nodes,
        "{what}: nodes with and without the recorder"
    );
}

fn fen_static(fen: &str) -> &'static str {
    Box::leak(fen.to_string().into_boxed_str())
}

#[test]
fn json_agrees_with_the_counters_on_the_six_positions() {
    let techniques = Techniques::default();
    for fen in SIX_POSITIONS {
        check(fen, 5, &techniques);
    }
}

#[test]
fn json_agrees_with_switches_off_and_probcut_on() {
    let fen = SIX_POSITIONS[5];
    let mut probcut = Techniques::default();
    probcut.set("probcut", true).expect("probcut");
    check(fen, 6, &probcut);
    let mut fewer = Techniques::default();
    for name in ["lmr", "futility", "null_move"] {
        fewer.set(name, false).expect(name);
    }
    check(fen, 5, &fewer);
    // Tactics: mates, checks, extensions.
    check(
        "r1b1k2r/ppp2ppp/2n5/3q4/1b1P4/2N2N2/PP3PPP/R2QKB1R w KQkq - 0 9",
        6,
        &Techniques::default(),
    );
    check(
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        5,
        &Techniques::default(),
    );
}

#[test]
fn json_agrees_with_stage_20_on() {
    // Hindsight changes depths, blending changes scores, quiescence futility skips captures:
    // the tree still agrees with the counters, the PV's scores and the unrecorded search.
    let mut stage20 = Techniques::default();
    for name in [
        "history_bonus_malus",
        "hindsight",
        "fail_high_blend",
        "qs_futility",
        "low_ply_history",
    ] {
        stage20.set(name, true).expect(name);
    }
    check(SIX_POSITIONS[1], 7, &stage20);
    check(SIX_POSITIONS[5], 7, &stage20);
}

#[test]
fn json_agrees_deeper_with_singular_searches_and_verification() {
    // Depth 9 on Kiwipete reaches the singular searches and multi-cut (from depth 8).
    let tree = record(
        SIX_POSITIONS[1],
        9,
        &Techniques::default(),
        &Params::default(),
    );
    assert!(tree.counters.get(Note::SingularSearch) > 0);
    assert!(tree.counters.get(Note::MultiCut) > 0);
    check(SIX_POSITIONS[1], 9, &Techniques::default());
    // Null-move verification searches, brought down to depth 6.
    let mut params = Params::default();
    params.set("nmp_verify_depth", 6).expect("a parameter");
    let tree = record(SIX_POSITIONS[5], 8, &Techniques::default(), &params);
    assert!(tree.counters.get(Note::NullMoveVerification) > 0);
    check_with(SIX_POSITIONS[5], 8, &Techniques::default(), &params);
}

#[test]
fn the_cap_stops_recording_and_says_so() {
    let mut request = request(
        SIX_POSITIONS[1],
        5,
        &Techniques::default(),
        &Params::default(),
    );
    request.cap = 100;
    let tree = record_tree(&request, embedded(), Arc::new(Signals::default()));
    assert!(tree.nodes.len() <= 100);
    assert!(tree.dropped > 0);
    assert_eq!(
        tree.node_count() + tree.dropped,
        tree.counted_nodes(),
        "recorded and dropped nodes make up the count"
    );
    let svg = tree::svg::to_svg(&tree);
    assert!(svg.contains("cap reached"));
    // The cap's promise of memory: 32 bytes a record.
    assert!(std::mem::size_of::<tree::TreeNode>() <= 32);
}

#[test]
fn the_pictures_are_self_contained_and_small() {
    let tree = record(
        SIX_POSITIONS[1],
        5,
        &Techniques::default(),
        &Params::default(),
    );
    let svg = tree::svg::to_svg(&tree);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.len() < 200_000, "SVG of {} bytes", svg.len());
    let html = tree::html::to_html(&tree);
    assert!(html.contains("<script>") && html.contains("</html>"));
    for external in ["src=", "href=", "@import", "url("] {
        assert!(
            !html.contains(external),
            "the page loads nothing: {external}"
        );
    }
    let text = tree::text::to_text(&tree);
    assert!(text.contains("ply 0"));
}

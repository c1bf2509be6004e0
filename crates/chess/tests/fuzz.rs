//! Text from outside must never panic the rules: random and mutated FENs, EPD lines, UCI moves
//! and SAN strings, tens of thousands of each (a seeded loop, so failures reproduce).
//! Whatever parses must be a consistent position: it writes back to the same FEN, its hash
//! equals one computed from scratch, and its moves can be generated and played.

use chess::{CastlingMode, Epd, Position};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const SEEDS: [&str; 8] = [
    chess::STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 99 200",
];

/// Characters that FENs are made of, plus some that they are not.
const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefghABCDEFGH0123456789xyz;\"\t\n\0\xff";

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = if bytes.is_empty() {
            0
        } else {
            rng.below(bytes.len())
        };
        match rng.below(6) {
            0 if !bytes.is_empty() => bytes[at] = *rng.pick(ALPHABET),
            1 if !bytes.is_empty() => {
                bytes.remove(at);
            }
            2 => bytes.insert(at, *rng.pick(ALPHABET)),
            3 if !bytes.is_empty() => {
                let other = rng.below(bytes.len());
                bytes.swap(at, other);
            }
            4 => {
                let fields: Vec<&[u8]> = bytes.split(|&b| b == b' ').collect();
                let mut copy: Vec<Vec<u8>> = fields.iter().map(|f| f.to_vec()).collect();
                let dup = copy[rng.below(copy.len())].clone();
                copy.insert(rng.below(copy.len() + 1), dup);
                bytes = copy.join(&b' ');
            }
            _ => bytes.truncate(at),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn random_text(rng: &mut Rng) -> String {
    let len = rng.below(90);
    let bytes: Vec<u8> = (0..len).map(|_| *rng.pick(ALPHABET)).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn check_consistent(pos: &Position, mode: CastlingMode) {
    let fen = pos.to_fen();
    let again = Position::from_fen_with(&fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&again, pos, "{fen}");
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "{fen}");
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.make_move(mv);
        assert_eq!(child.hash(), child.hash_from_scratch(), "{fen} {mv:?}");
        let _ = pos.san(mv);
    }
}

#[test]
fn random_and_mutated_fens_never_panic() {
    let mut rng = Rng(0x5eed_f00d);
    let mut accepted = 0;
    for i in 0..200_000 {
        let text = if i % 4 == 0 {
            random_text(&mut rng)
        } else {
            let seed = SEEDS[rng.below(SEEDS.len())];
            mutate(&mut rng, seed)
        };
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            if let Ok(pos) = Position::from_fen_with(&text, mode) {
                accepted += 1;
                check_consistent(&pos, mode);
            }
            let _ = Epd::parse(&text, mode);
        }
    }
    // The mutations keep enough FENs valid that the checks above really run.
    assert!(accepted > 5_000, "only {accepted} accepted");
}

#[test]
fn random_move_text_never_panics() {
    let mut rng = Rng(0xabcd_ef01);
    let positions: Vec<Position> = SEEDS
        .iter()
        .map(|fen| Position::from_fen_with(fen, CastlingMode::Chess960).expect("seed FEN"))
        .collect();
    let words = [
        "e2e4", "e1g1", "e1h1", "O-O", "O-O-O", "Nf3", "exd6", "e8=Q", "a7a8q", "Qxh7#", "0000",
    ];
    for _ in 0..50_000 {
        let pos = &positions[rng.below(positions.len())];
        let text = if rng.below(2) == 0 {
            let word = words[rng.below(words.len())];
            mutate(&mut rng, word)
        } else {
            random_text(&mut rng).chars().take(8).collect()
        };
        if let Ok(mv) = pos.parse_uci_move(&text) {
            assert!(pos.is_legal(mv));
        }
        if let Ok(mv) = pos.parse_san(&text) {
            assert!(pos.is_legal(mv));
        }
    }
}

/// The FEN of a board given square by square (a1 first), White to move, no castling.
fn fen_of(board: &[u8; 64]) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                b'.' => empty += 1,
                piece => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(char::from(piece));
                }
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(" w - - 0 1");
    fen
}

/// The move list's capacity rests on a proof that no position the FEN parser accepts has more
/// than 218 legal moves. A hill climb towards many moves with the most material a side can
/// have (nine queens and every other piece) looks for a counterexample: each step moves one
/// piece to another square and keeps the placement unless it has fewer moves.
#[test]
fn a_climb_towards_many_moves_stays_within_218() {
    let mut rng = Rng(0x218_218);
    let mut best_seen = 0;
    for _ in 0..16 {
        let mut board = [b'.'; 64];
        for &piece in b"KQQQQQQQQQRRBBNNk" {
            loop {
                let sq = rng.below(64);
                if board[sq] == b'.' {
                    board[sq] = piece;
                    break;
                }
            }
        }
        let mut moves = 0;
        for _ in 0..5_000 {
            let mut next = board;
            let from = loop {
                let sq = rng.below(64);
                if next[sq] != b'.' {
                    break sq;
                }
            };
            let to = rng.below(64);
            if next[to] != b'.' {
                continue;
            }
            next.swap(from, to);
            let Ok(pos) = Position::from_fen(&fen_of(&next)) else {
                continue;
            };
            let count = pos.count_legal_moves();
            assert!(count <= 218, "{count} moves: {}", pos.to_fen());
            assert_eq!(pos.legal_moves().len() as u64, count, "{}", pos.to_fen());
            if count >= moves {
                moves = count;
                board = next;
            }
        }
        best_seen = best_seen.max(moves);
    }
    eprintln!("the climb's best: {best_seen} moves");
    // The climb really climbs: it gets near the record.
    assert!(best_seen > 200, "{best_seen}");
}

//! Finds magic numbers for rook and bishop attacks and writes the lookup tables as Rust source.

#[path = "src/magic_search.rs"]
mod magic_search;

use magic_search::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, Rng, find_magic};
use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=src/magic_search.rs");
    println!("cargo::rerun-if-changed=build.rs");
    let mut rng = Rng(0x00c0_ffee_2026_cb26);
    let mut source = String::new();
    let mut table: Vec<u64> = Vec::new();
    for (name, directions) in [("ROOK", &ROOK_DIRECTIONS), ("BISHOP", &BISHOP_DIRECTIONS)] {
        writeln!(source, "pub(crate) static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for sq in 0..64u8 {
            let found = find_magic(sq, directions, &mut rng);
            writeln!(
                source,
                "    Magic {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},",
                found.mask,
                found.magic,
                found.shift,
                table.len()
            )
            .unwrap();
            table.extend_from_slice(&found.table);
        }
        writeln!(source, "];").unwrap();
    }
    writeln!(
        source,
        "pub(crate) static SLIDER_ATTACKS: [Bitboard; {}] = [",
        table.len()
    )
    .unwrap();
    for attacks in &table {
        writeln!(source, "Bitboard({attacks:#x}),").unwrap();
    }
    writeln!(source, "];").unwrap();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("magics.rs"), source).expect("write magics.rs");
}

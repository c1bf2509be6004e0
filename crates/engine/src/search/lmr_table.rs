//! The late move reductions table (chapter 13).

use crate::params::Params;

// ANCHOR: lmr_table
/// Late move reductions by depth and move number: `base + ln(depth) * ln(moves) / divisor`
/// plies, both numbers in hundredths. Deep nodes and late moves are reduced most.
pub(crate) struct LmrTable {
    table: Box<[[i32; 64]; 64]>,
}

impl LmrTable {
    pub(crate) fn new(p: &Params) -> LmrTable {
        let mut table = Box::new([[0; 64]; 64]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                let ln = (depth as f64).ln() * (moves as f64).ln();
                *r = (p.lmr_base as f64 / 100.0 + ln * 100.0 / p.lmr_divisor as f64) as i32;
            }
        }
        LmrTable { table }
    }

    #[inline]
    pub(crate) fn get(&self, depth: i32, moves: usize) -> i32 {
        self.table[(depth as usize).min(63)][moves.min(63)]
    }
}
// ANCHOR_END: lmr_table

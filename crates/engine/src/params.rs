//! Every tunable number of the search in one table: name, default, range and SPSA step.
//!
//! The search reads them as `p.name`. `set NAME VALUE` and `setoption` change them; built with
//! `--features tune` they are listed as UCI spin options, and `cb2026 spsa` prints them in
//! OpenBench's SPSA input format.

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// The SPSA perturbation size (OpenBench's `c_end`).
    pub step: i32,
    pub doc: &'static str,
}

macro_rules! params {
    ($($name:ident: $default:expr, $min:expr, $max:expr, $step:expr, $doc:literal;)*) => {
        /// The search's tunable numbers. `Copy`, so a node can take its own copy (`let p =
        /// self.params;`) and still call `&mut self` methods.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $(#[doc = $doc] pub $name: i32,)*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($name: $default,)* }
            }
        }

        /// The table, in declaration order.
        pub const PARAMS: &[ParamInfo] = &[
            $(ParamInfo { name: stringify!($name), default: $default, min: $min, max: $max, step: $step, doc: $doc },)*
        ];

        impl Params {
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)*
                    _ => None,
                }
            }

            /// The value of the parameter called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

params! {
    // ANCHOR: aspiration_params
    // Chapter 6: iterative deepening.
    aspiration_window: 25, 5, 100, 5, "half-width of the first aspiration window, in centipawns";
    aspiration_min_depth: 5, 1, 12, 1, "the first depth searched with an aspiration window";
    // ANCHOR_END: aspiration_params
    // ANCHOR: history_params
    // Chapter 9: move ordering.
    history_bonus_per_depth: 160, 16, 512, 16, "history bonus per ply of depth for a move that cut off";
    history_bonus_base: -80, -400, 400, 20, "history bonus at depth 0 (added to the per-depth part)";
    history_bonus_max: 1600, 200, 4000, 100, "the largest history bonus or malus";
    // ANCHOR_END: history_params
    // Chapter 12: null-move pruning.
    nmp_min_depth: 3, 1, 8, 1, "the shallowest depth at which a null move is tried";
    nmp_base_reduction: 3, 1, 6, 1, "plies the null-move search is shallower by, at least";
    nmp_depth_divisor: 3, 1, 8, 1, "one more ply of reduction per this many plies of depth";
    nmp_eval_divisor: 200, 50, 600, 25, "one more ply of reduction per this many centipawns above beta";
    nmp_eval_max: 3, 0, 6, 1, "at most this many plies of reduction for being above beta";
    nmp_verify_depth: 12, 6, 64, 1, "from this depth a null-move cutoff is verified by a real search";
    // Chapter 13: late move reductions.
    lmr_min_depth: 3, 2, 8, 1, "the shallowest depth at which late moves are reduced";
    lmr_base: 75, 0, 200, 10, "the reduction's constant part, in hundredths of a ply";
    lmr_divisor: 225, 100, 500, 15, "ln(depth) * ln(moves) is divided by this (in hundredths)";
    lmr_history_divisor: 8192, 2048, 32768, 512, "one ply less (or more) per this much history";
    lmr_tt_pv: 1, 0, 3, 1, "plies less for a move of a node on the principal variation, now or once (tt_pv)";
    lmr_cut_node: 1, 0, 3, 1, "plies more for a move of a node expected to fail high";
    lmr_gives_check: 1, 0, 3, 1, "plies less for a move that gives check";
    lmr_not_improving: 1, 0, 3, 1, "plies more for a move of a node that is not improving (with `improving` on)";
    // Chapter 14: futility, razoring and SEE pruning.
    rfp_margin: 80, 20, 200, 5, "reverse futility margin per ply of depth";
    rfp_max_depth: 7, 1, 16, 1, "the deepest node reverse futility pruning applies to";
    razor_margin: 300, 50, 800, 25, "razoring margin per ply of depth";
    razor_max_depth: 2, 1, 6, 1, "the deepest node razoring applies to";
    futility_base: 100, 0, 400, 10, "futility margin at depth 0";
    futility_per_depth: 100, 20, 300, 10, "futility margin added per ply of depth";
    futility_max_depth: 6, 1, 12, 1, "the deepest node futility pruning applies to";
    see_quiet_margin: 60, 10, 200, 5, "quiet moves losing more than this per ply by SEE are pruned";
    see_capture_margin: 100, 10, 300, 10, "captures losing more than this per ply by SEE are pruned";
    see_max_depth: 6, 1, 12, 1, "the deepest node SEE pruning applies to";
    delta_margin: 200, 0, 600, 25, "delta pruning's safety margin in the quiescence search";
    // Chapter 14.1: improving, late move pruning, history pruning.
    rfp_improving: 40, 0, 79, 5, "the cut in the reverse futility margin when improving (below rfp_margin)";
    lmp_base: 3, 0, 12, 1, "late move pruning keeps lmp_base + depth^2 moves (fewer when not improving)";
    lmp_max_depth: 8, 1, 16, 1, "the deepest node late move pruning applies to";
    lmp_not_improving_percent: 50, 20, 100, 5, "the share of the moves late move pruning keeps when not improving, in percent";
    history_pruning_depth: 4, 1, 10, 1, "the deepest node history pruning applies to";
    history_pruning_margin: 2048, 256, 8192, 256, "quiet moves with history below minus this per ply are pruned";
    // Chapter 15: internal iterative reduction, singular extensions.
    iir_min_depth: 4, 2, 12, 1, "the shallowest depth at which a node without a hash move is reduced";
    se_min_depth: 8, 4, 16, 1, "the shallowest depth at which the hash move is tested for singularity";
    se_tt_depth_margin: 3, 1, 6, 1, "the hash entry may be this many plies shallower than the node";
    se_beta_per_depth: 2, 1, 6, 1, "the singular margin below the hash score, per ply of depth";
    se_depth_percent: 50, 25, 75, 5, "the singular search's depth, in percent of the node's depth less one";
    se_double_margin: 20, 0, 100, 5, "how far below the singular beta makes a double extension";
    se_double_max: 6, 0, 16, 1, "at most this many double extensions on one line";
    // ANCHOR: time_params
    // Chapter 11: time management. Percentages, so that SPSA can tune them as integers.
    tm_moves_to_go: 20, 10, 60, 2, "a clock without movestogo is shared out as if this many moves were left";
    tm_soft_percent: 55, 20, 120, 5, "no new iteration once this share of the soft limit (times the scales) is spent";
    tm_hard_percent: 300, 150, 600, 25, "the hard limit, in percent of the soft limit";
    tm_unstable_percent: 140, 100, 200, 5, "the scale after an iteration that changed the best move";
    tm_stable_step: 15, 0, 40, 2, "the scale falls by this many points per iteration with the same best move";
    tm_stable_min: 80, 40, 100, 5, "the smallest scale a settled best move gets";
    tm_nodes_base: 203, 100, 300, 10, "the node scale is (tm_nodes_base - tm_nodes_slope x the best move's node share) %";
    tm_nodes_slope: 135, 0, 250, 10, "see tm_nodes_base";
    tm_score_drop: 8, 0, 30, 1, "the scale grows by this many thousandths per centipawn the score fell";
    // ANCHOR_END: time_params
    // Milestone M5: ProbCut.
    probcut_margin: 100, 25, 400, 10, "how far above beta a capture must score in ProbCut's search";
    probcut_min_depth: 5, 3, 12, 1, "the shallowest depth at which ProbCut is tried";
    probcut_reduction: 4, 2, 8, 1, "plies ProbCut's search is shallower than the node";
    // ANCHOR: correction_params
    // Stage 20: correcting the evaluation. Weights in 1/1024 of a table's entry.
    pawn_correction_weight: 1024, 0, 4096, 64, "the pawn correction history's weight, in 1/1024";
    non_pawn_correction_weight: 1024, 0, 4096, 64, "each colour's non-pawn correction history's weight, in 1/1024";
    minor_correction_weight: 1024, 0, 4096, 64, "the minor-piece correction history's weight, in 1/1024";
    major_correction_weight: 1024, 0, 4096, 64, "the major-piece correction history's weight, in 1/1024";
    continuation_correction_weight: 1024, 0, 4096, 64, "the continuation correction history's weight, in 1/1024";
    correction_update_divisor: 96, 16, 512, 8, "a result moves a correction by its error times depth over this (before gravity)";
    correction_bonus_max: 16, 2, 64, 2, "the most one result moves a correction, in centipawns";
    material_scale_base: 21000, 0, 60000, 1000, "the evaluation is scaled by (this + material) / material_scale_divisor (material: 100 a pawn ... 900 a queen)";
    material_scale_divisor: 27000, 10000, 60000, 1000, "see material_scale_base";
    fifty_move_divisor: 200, 100, 1000, 10, "the evaluation is scaled by (this - the fifty-move counter) / this";
    // ANCHOR_END: correction_params
    // ANCHOR: stage20_params
    // Stage 20: history bonus and malus, each min(per_depth * depth + base, max) and never below
    // 0, for each of the three histories (with `history_bonus_malus` on; off, the three rows of
    // chapter 9 serve all six).
    quiet_bonus_per_depth: 160, 16, 512, 16, "quiet history bonus per ply of depth for the move that cut off";
    quiet_bonus_base: -80, -400, 400, 20, "quiet history bonus at depth 0";
    quiet_bonus_max: 1600, 200, 4000, 100, "the largest quiet history bonus";
    quiet_malus_per_depth: 200, 16, 512, 16, "quiet history malus per ply of depth for each quiet move tried before it";
    quiet_malus_base: -80, -400, 400, 20, "quiet history malus at depth 0";
    quiet_malus_max: 2000, 200, 4000, 100, "the largest quiet history malus";
    capture_bonus_per_depth: 160, 16, 512, 16, "capture history bonus per ply of depth for the capture that cut off";
    capture_bonus_base: -80, -400, 400, 20, "capture history bonus at depth 0";
    capture_bonus_max: 1600, 200, 4000, 100, "the largest capture history bonus";
    capture_malus_per_depth: 200, 16, 512, 16, "capture history malus per ply of depth for each capture tried before the move that cut off";
    capture_malus_base: -80, -400, 400, 20, "capture history malus at depth 0";
    capture_malus_max: 2000, 200, 4000, 100, "the largest capture history malus";
    cont_bonus_per_depth: 160, 16, 512, 16, "continuation history bonus per ply of depth for the move that cut off";
    cont_bonus_base: -80, -400, 400, 20, "continuation history bonus at depth 0";
    cont_bonus_max: 1600, 200, 4000, 100, "the largest continuation history bonus";
    cont_malus_per_depth: 200, 16, 512, 16, "continuation history malus per ply of depth for each quiet move tried before it";
    cont_malus_base: -80, -400, 400, 20, "continuation history malus at depth 0";
    cont_malus_max: 2000, 200, 4000, 100, "the largest continuation history malus";
    // Stage 20: hindsight.
    hindsight_ext_reduction: 3, 1, 8, 1, "a node its parent reduced by at least this many plies may be extended";
    hindsight_ext_margin: 0, -200, 200, 10, "extended when the two static evaluations add up to less than this";
    hindsight_red_reduction: 1, 1, 8, 1, "a node its parent reduced by at least this many plies may be reduced";
    hindsight_red_margin: 60, 0, 300, 10, "reduced when the two static evaluations add up to more than this";
    // Stage 20: fail-high blending.
    fail_high_blend_weight: 100, 0, 400, 25, "beta's weight against the cutoff score's (depth plies), in hundredths of a ply";
    stand_pat_blend_percent: 50, 0, 100, 5, "how far a stand-pat cutoff's score is pulled towards beta, in percent";
    // Stage 20: quiescence futility.
    qs_futility_margin: 150, 0, 600, 25, "captures not winning material are skipped when the evaluation plus this can't reach alpha";
    // Stage 20: low-ply history.
    low_ply_history_percent: 80, 0, 200, 10, "the low-ply history's bonus and malus, in percent of the quiet history's";
    low_ply_history_scale: 400, 0, 1600, 50, "the low-ply history's ordering weight in percent, divided by 1 + 2 x ply";
    // ANCHOR_END: stage20_params
}

// ANCHOR: history_max
/// The largest magnitude a history score reaches (the "gravity" limit).
pub const HISTORY_MAX: i32 = 16_384;
// ANCHOR_END: history_max

impl Params {
    // ANCHOR: params_set
    /// Changes one parameter, checking the name and the range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let info = PARAMS
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| format!("no parameter called '{name}'"))?;
        if !(info.min..=info.max).contains(&value) {
            return Err(format!(
                "{name} must be from {} to {}, not {value}",
                info.min, info.max
            ));
        }
        if let Some(slot) = self.slot(name) {
            *slot = value;
        }
        Ok(())
    }
    // ANCHOR_END: params_set

    // ANCHOR: spsa_input
    /// OpenBench's SPSA input: `name, int, default, min, max, c_end, r_end`, one per line.
    pub fn spsa_input() -> String {
        PARAMS
            .iter()
            .map(|p| {
                format!(
                    "{}, int, {}, {}, {}, {}, 0.002\n",
                    p.name, p.default, p.min, p.max, p.step
                )
            })
            .collect()
    }
    // ANCHOR_END: spsa_input
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_set_checks_them() {
        let mut p = Params::default();
        for info in PARAMS {
            assert!(
                info.min <= info.default && info.default <= info.max,
                "{}",
                info.name
            );
            assert!(info.step > 0, "{}", info.name);
            assert_eq!(p.get(info.name), Some(info.default));
        }
        assert!(p.set("aspiration_window", 40).is_ok());
        assert_eq!(p.aspiration_window, 40);
        assert!(p.set("aspiration_window", 1_000_000).is_err());
        assert!(p.set("no_such_thing", 1).is_err());
        assert_eq!(p.aspiration_window, 40);
        assert_eq!(Params::spsa_input().lines().count(), PARAMS.len());
    }
}

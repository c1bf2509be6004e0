//! The evaluation's features: every weight the evaluation uses is one entry of a single flat
//! table, [`WEIGHTS`], at an offset named here. One table makes the tuner simple: it sees a
//! position as a list of (feature, count) pairs and fits one number pair per feature.

use super::score_pair::S;

/// One named block of the weight table.
#[derive(Clone, Copy, Debug)]
pub struct FeatureInfo {
    pub name: &'static str,
    /// The term it belongs to in the `eval` printout.
    pub group: &'static str,
    pub start: usize,
    pub len: usize,
}

macro_rules! features {
    ($($group:literal { $($name:ident: $len:expr;)* })*) => {
        features!(@offsets 0usize; $($($name: $len;)*)*);

        /// Every block, in table order.
        pub const FEATURES: &[FeatureInfo] = &[
            $($(FeatureInfo { name: stringify!($name), group: $group, start: $name, len: $len },)*)*
        ];
    };
    (@offsets $at:expr; $name:ident: $len:expr; $($rest:tt)*) => {
        pub const $name: usize = $at;
        features!(@offsets $at + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {
        /// The number of weights.
        pub const FEATURE_COUNT: usize = $at;
    };
}

// ANCHOR: features
features! {
    "material" {
        MATERIAL: 6;
    }
    "squares" {
        // Six tables of 64 squares, pawn to king, seen from the piece's own side (a1 = its corner).
        PST: 6 * 64;
    }
    "mobility" {
        // By the number of safe squares the piece attacks.
        MOBILITY_KNIGHT: 9;
        MOBILITY_BISHOP: 14;
        MOBILITY_ROOK: 15;
        MOBILITY_QUEEN: 28;
    }
    "bishop pair" {
        BISHOP_PAIR: 1;
    }
    "pawns" {
        DOUBLED: 1;
        ISOLATED: 1;
        BACKWARD: 1;
        // Pawns side by side or defended by a pawn, by rank.
        CONNECTED: 8;
    }
    "passed pawns" {
        PASSED: 8;
        PASSED_BLOCKED: 8;
        PASSED_FREE: 8;
        // Per square of distance from the king to the square in front of the pawn, by rank.
        PASSED_OWN_KING: 8;
        PASSED_ENEMY_KING: 8;
        PASSED_UNSTOPPABLE: 1;
    }
    "rooks" {
        ROOK_OPEN: 1;
        ROOK_HALF_OPEN: 1;
    }
    "outposts" {
        OUTPOST_KNIGHT: 1;
        OUTPOST_BISHOP: 1;
    }
    "threats" {
        // By the type of the piece attacked.
        THREAT_BY_PAWN: 6;
        THREAT_BY_MINOR: 6;
        THREAT_BY_ROOK: 6;
        HANGING: 1;
    }
    "king safety" {
        // Attacks on the enemy king's zone, per attacked square, by knight, bishop, rook, queen.
        KING_ZONE_ATTACKS: 4;
        // Safe squares from which a knight, bishop, rook or queen could give check.
        SAFE_CHECKS: 4;
        WEAK_KING_SQUARES: 1;
        // Per file of the king and its neighbours: the distance to the nearest own pawn in front
        // (0: none), and the distance of the nearest enemy pawn coming (0: none).
        SHIELD: 8;
        STORM: 8;
    }
    "space" {
        SPACE: 1;
    }
    "tempo" {
        TEMPO: 1;
    }
}
// ANCHOR_END: features

// ANCHOR: weights
// The tuner's output: `WEIGHTS`, one pair per feature.
include!("tuned.rs");

/// The weight of a feature.
#[inline(always)]
pub fn weight(feature: usize) -> S {
    WEIGHTS[feature]
}
// ANCHOR_END: weights

/// The block a feature index belongs to, and its position in the block.
pub fn describe(feature: usize) -> (&'static FeatureInfo, usize) {
    let info = FEATURES
        .iter()
        .find(|f| (f.start..f.start + f.len).contains(&feature))
        .unwrap_or(&FEATURES[0]);
    (info, feature - info.start)
}

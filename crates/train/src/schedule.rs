//! The learning rate: a step schedule. Epoch `e` (counted from 0) trains at
//! `lr · γ^⌊e / E⌋`: the rate is multiplied by γ (`--lr-gamma`) every E epochs
//! (`--lr-drop-epoch`; 0 keeps it constant).
//!
//! A step schedule rather than, say, a cosine one because the rate of an epoch depends only on
//! the epoch's number, not on how many epochs the run has: a run can be resumed with more
//! `--epochs` than it started with and train exactly as one started with that many.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub lr: f32,
    /// E; 0 for never.
    pub drop_every: u32,
    /// γ.
    pub gamma: f32,
}

impl Schedule {
    /// The rate for epoch `epoch` (from 0).
    pub fn lr(&self, epoch: u32) -> f32 {
        if self.drop_every == 0 {
            return self.lr;
        }
        let drops = (epoch / self.drop_every).min(i32::MAX as u32) as i32;
        (self.lr as f64 * (self.gamma as f64).powi(drops)) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_drops_every_e_epochs() {
        let s = Schedule {
            lr: 0.001,
            drop_every: 3,
            gamma: 0.1,
        };
        let lrs: Vec<f32> = (0..7).map(|e| s.lr(e)).collect();
        assert_eq!(lrs[0], 0.001);
        assert_eq!(lrs[2], 0.001);
        assert!((lrs[3] - 0.0001).abs() < 1e-9);
        assert!((lrs[6] - 0.00001).abs() < 1e-10);
        let constant = Schedule { drop_every: 0, ..s };
        assert_eq!(constant.lr(100), 0.001);
    }
}

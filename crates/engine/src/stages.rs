//! The book's stages as presets of the switches, so that a reader can play, bench and draw the
//! engine of any chapter: `setoption name Stage value N`, `set stage N`, `--stage N`.
//!
//! The book builds the engine in stages, and each chapter carries its stage's number (a number
//! after a dot, as in 14.1, is a chapter that extends stage 14). Each row of `techniques!` names
//! the chapter that describes it, so the stage of a technique is read from that row, never
//! listed here: stage N is the engine with every technique of stages 6 to N on, the others off,
//! whatever the technique's default. ProbCut, whose chapter is a milestone ("M5") and no stage, is
//! in no preset. The full engine (`Stage` = `full`, the default) is not a stage: it is the default
//! switches, which leave the last stage's techniques off until an SPRT accepts them.
//!
//! What changed between stages without being a technique:
//!
//! - The evaluation is a switch too: material and piece-square tables until stage 15, the
//!   hand-crafted evaluation from 16 (`hce`), the network from 17 (`nnue`).
//! - The time manager of chapter 11 and the search threads of the threads chapter (which has no
//!   number) are in every preset: an engine without a clock can't play a game, and `Threads` is an
//!   option a player sets, not a stage's.
//! - The search parameters (`params!`) are today's in every preset; some were tuned after the
//!   stage that introduced them.
//!
//! The table below is one entry per stage, each with a doc comment naming its chapter and what it
//! adds; a test checks the titles against the book's contents (`book/src/SUMMARY.md`).

use crate::techniques::{TECHNIQUES, Techniques};

/// One stage of the book.
#[derive(Clone, Copy, Debug)]
pub struct StageInfo {
    pub number: u32,
    /// The chapter's title in the book's contents.
    pub title: &'static str,
    /// What the stage adds: the entry's doc comment, its lines joined (see [`StageInfo::summary`]).
    doc: &'static str,
}

impl StageInfo {
    /// What the stage adds, in a sentence or two.
    pub fn summary(&self) -> &'static str {
        self.doc.trim()
    }
}

macro_rules! stages {
    ($($(#[doc = $doc:literal])* $number:literal: $title:literal;)*) => {
        /// Every stage, in order.
        pub const STAGES: &[StageInfo] = &[
            $(StageInfo { number: $number, title: $title, doc: concat!($($doc),*) },)*
        ];
    };
}

// ANCHOR: stages_table
stages! {
    /// Chapter 6: the search itself, with principal variation search, aspiration windows, mate
    /// distance pruning and the check extension, on material and piece-square tables. No
    /// quiescence search: the horizon takes the static evaluation as it is.
    6: "Alpha-beta, iterative deepening and PVS";
    /// Chapter 7: the quiescence search at the horizon.
    7: "Quiescence search";
    /// Chapter 8: the transposition table.
    8: "The transposition table";
    /// Chapter 9: MVV-LVA, killers and the butterfly history.
    9: "Move ordering";
    /// Chapters 10.1 and 10.2: countermoves, continuation history and capture history.
    10: "Move ordering with more history";
    /// Chapter 11: time management and the instruments; no technique, so the engine of stage 10
    /// (every preset has the time manager).
    11: "Time management, UCI and the instruments";
    /// Chapter 12: null-move pruning.
    12: "Null-move pruning";
    /// Chapter 13: late move reductions.
    13: "Late move reductions";
    /// Chapters 14 and 14.1: reverse futility, razoring, futility, SEE ordering and pruning, delta
    /// pruning; the improving flag, late move pruning and history pruning.
    14: "Futility, razoring and SEE pruning";
    /// Chapter 15: internal iterative reduction, singular, double and negative extensions,
    /// multi-cut.
    15: "Internal iterative reduction and singular extensions";
    /// Chapter 16: the hand-crafted evaluation with its tuned weights (the hand-set weights it
    /// started from are in the history, commit `c12dcbf`; no stage ended with them).
    16: "The hand-crafted evaluation and its tuning";
    /// Chapter 17: the network as the evaluation (the one the engine embeds today, or
    /// `EvalFile`'s).
    17: "NNUE: a network as the evaluation";
    /// Chapter 18: training the network; no technique, so the engine of stage 17.
    18: "Training the network";
    /// Chapter 19: Syzygy tablebases in the search (once `SyzygyPath` names some).
    19: "Endgame tablebases, and what a score means";
    /// Chapter 20: the evaluation corrected (correction histories, the hash score, material and
    /// the fifty-move counter), and five search techniques strong engines added since 2021.
    20: "Correcting the evaluation, and the search since 2021";
}
// ANCHOR_END: stages_table

/// The first stage with a search; the chapters before it build the rules.
pub const FIRST_STAGE: u32 = 6;

/// The stage of a chapter number: "14.1" is stage 14's; `None` for a chapter that is no stage
/// ("M5").
pub fn stage_of(chapter: &str) -> Option<u32> {
    let whole = chapter.split('.').next()?;
    whole.parse().ok()
}

/// The full engine's stage: the last one, or a later one a technique names.
pub fn last_stage() -> u32 {
    let named = TECHNIQUES.iter().filter_map(|t| stage_of(t.chapter));
    named
        .chain(STAGES.iter().map(|s| s.number))
        .max()
        .unwrap_or(FIRST_STAGE)
}

/// The stage numbered `number`, if the table has it.
pub fn stage_info(number: u32) -> Option<&'static StageInfo> {
    STAGES.iter().find(|s| s.number == number)
}

/// What the `Stage` option shows, and `set stage` takes, for the full engine.
pub const FULL: &str = "full";

/// A `Stage` setting: the engine of one of the book's stages, or the full engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Stage N: the techniques of the chapters up to N on, every other one off.
    Book(u32),
    /// The engine that plays by default: the default switches. It is not the last stage, whose
    /// techniques stay off by default until an SPRT accepts them.
    Full,
}

impl Stage {
    /// Reads `full` (any case) or a stage number from [`FIRST_STAGE`] to [`last_stage`].
    pub fn parse(value: &str) -> Result<Stage, String> {
        let value = value.trim();
        if value.eq_ignore_ascii_case(FULL) {
            return Ok(Stage::Full);
        }
        let last = last_stage();
        value
            .parse::<u32>()
            .ok()
            .filter(|n| (FIRST_STAGE..=last).contains(n))
            .map(Stage::Book)
            .ok_or_else(|| {
                format!("stage '{value}': {FULL} or a whole number from {FIRST_STAGE} to {last}")
            })
    }

    /// Every value the `Stage` option takes, the full engine first: a GUI's list.
    pub fn choices() -> Vec<Stage> {
        let stages = (FIRST_STAGE..=last_stage()).map(Stage::Book);
        std::iter::once(Stage::Full).chain(stages).collect()
    }

    /// The switches of this stage.
    pub fn techniques(self) -> Techniques {
        match self {
            Stage::Full => Techniques::default(),
            Stage::Book(number) => Techniques::built_by(number),
        }
    }

    /// The stage's chapter title, or what the full engine is.
    pub fn title(self) -> &'static str {
        match self {
            Stage::Full => "the engine's default switches",
            Stage::Book(number) => stage_info(number).map_or("", |info| info.title),
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stage::Full => f.write_str(FULL),
            Stage::Book(number) => write!(f, "{number}"),
        }
    }
}

impl Techniques {
    // ANCHOR: for_stage
    /// The switches of stage `stage`: a technique is on when its chapter belongs to this stage or
    /// an earlier one, whatever its default; one whose chapter is no stage (ProbCut's "M5") is off.
    fn built_by(stage: u32) -> Techniques {
        let mut t = Techniques::none();
        for info in TECHNIQUES {
            if stage_of(info.chapter).is_some_and(|s| s <= stage) {
                // The name comes from the table itself, so it is always a technique.
                let _ = t.set(info.name, true);
            }
        }
        t
    }

    /// The switches of stage `stage` (see [`Stage`]); an error for a number that is no stage.
    pub fn for_stage(stage: u32) -> Result<Techniques, String> {
        let last = last_stage();
        if !(FIRST_STAGE..=last).contains(&stage) {
            return Err(format!(
                "stage {stage}: a whole number from {FIRST_STAGE} to {last}"
            ));
        }
        Ok(Techniques::built_by(stage))
    }
    // ANCHOR_END: for_stage
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapters_give_stages_and_values_read() {
        assert_eq!(stage_of("6"), Some(6));
        assert_eq!(stage_of("14.1"), Some(14));
        assert_eq!(stage_of("10.2"), Some(10));
        assert_eq!(stage_of("M5"), None);
        assert_eq!(stage_of(""), None);
        assert_eq!(Stage::parse(" 9 "), Ok(Stage::Book(9)));
        assert_eq!(Stage::parse("Full"), Ok(Stage::Full));
        for bad in ["5", "0", "-1", "x", "9.5", "", "1000", "fullest"] {
            assert!(Stage::parse(bad).is_err(), "{bad}");
        }
        let last = last_stage();
        assert_eq!(
            last, 20,
            "stage 20's techniques are the last the table names"
        );
        assert_eq!(Stage::parse(&last.to_string()), Ok(Stage::Book(last)));
        assert!(Stage::parse(&(last + 1).to_string()).is_err());
        let choices: Vec<String> = Stage::choices().iter().map(Stage::to_string).collect();
        assert_eq!(choices.first().map(String::as_str), Some(FULL));
        assert_eq!(choices.len(), 2 + (last - FIRST_STAGE) as usize);
        for choice in &choices {
            assert_eq!(
                Stage::parse(choice).map(|s| s.to_string()).as_ref(),
                Ok(choice)
            );
        }
    }

    #[test]
    fn each_preset_switches_on_what_its_stage_had_built() {
        for stage in FIRST_STAGE..=last_stage() {
            let t = Techniques::for_stage(stage).expect("a stage");
            assert_eq!(Stage::Book(stage).techniques(), t);
            for info in TECHNIQUES {
                let on = t.get(info.name).expect("a technique");
                let expected = stage_of(info.chapter).is_some_and(|s| s <= stage);
                assert_eq!(on, expected, "stage {stage}: {}", info.name);
            }
        }
        // Spelled out, from the chapters rather than from the table: what a reader expects.
        let six = Techniques::for_stage(6).unwrap();
        let mut by_hand = Techniques::none();
        by_hand.pvs = true;
        by_hand.aspiration = true;
        by_hand.mate_distance_pruning = true;
        by_hand.check_extension = true;
        assert_eq!(six, by_hand, "stage 6 is the four switches of chapter 6");
        let ten = Techniques::for_stage(10).unwrap();
        assert!(ten.quiescence && ten.tt && ten.killers && ten.history);
        assert!(ten.countermove && ten.continuation_history && ten.capture_history);
        assert!(!ten.null_move && !ten.lmr);
        assert_eq!(
            Techniques::for_stage(11),
            Ok(ten),
            "chapter 11 adds no technique"
        );
        let fourteen = Techniques::for_stage(14).unwrap();
        assert!(fourteen.futility && fourteen.improving && fourteen.delta_pruning);
        assert!(fourteen.late_move_pruning && fourteen.history_pruning && fourteen.see_pruning);
        assert!(!fourteen.iir && !fourteen.singular_extensions && !fourteen.hce);
        assert!(!fourteen.nnue, "the network is stage 17's");
        let sixteen = Techniques::for_stage(16).unwrap();
        assert!(sixteen.hce && sixteen.multi_cut && !sixteen.nnue && !sixteen.syzygy);
        let seventeen = Techniques::for_stage(17).unwrap();
        assert!(seventeen.nnue && !seventeen.syzygy);
        assert_eq!(
            Techniques::for_stage(18),
            Ok(seventeen),
            "chapter 18 trains, adds none"
        );
        let nineteen = Techniques::for_stage(19).unwrap();
        assert!(nineteen.syzygy && !nineteen.pawn_correction && !nineteen.hindsight);
        let twenty = Techniques::for_stage(20).unwrap();
        assert!(twenty.pawn_correction && twenty.tt_eval && twenty.fifty_move_scaling);
        assert!(twenty.history_bonus_malus && twenty.hindsight && twenty.low_ply_history);
        for stage in FIRST_STAGE..=last_stage() {
            assert!(
                !Techniques::for_stage(stage).unwrap().probcut,
                "ProbCut is no stage's"
            );
        }
        assert_eq!(Stage::Full.techniques(), Techniques::default());
        assert_ne!(twenty, Techniques::default(), "stage 20 is off by default");
        assert!(Techniques::for_stage(FIRST_STAGE - 1).is_err());
        assert!(Techniques::for_stage(last_stage() + 1).is_err());
    }

    #[test]
    fn presets_only_grow() {
        for stage in FIRST_STAGE..last_stage() {
            let (now, next) = (
                Techniques::for_stage(stage).unwrap(),
                Techniques::for_stage(stage + 1).unwrap(),
            );
            for info in TECHNIQUES {
                let (a, b) = (now.get(info.name), next.get(info.name));
                assert!(a <= b, "{} on at {stage}, off at {}", info.name, stage + 1);
            }
        }
    }

    #[test]
    fn every_stage_is_a_chapter_of_the_book() {
        let summary = include_str!("../../../book/src/SUMMARY.md");
        // "- [14. Futility, razoring and SEE pruning](pruning.md)": whole numbers from 6 on.
        let chapters: Vec<(u32, &str)> = summary
            .lines()
            .filter_map(|line| {
                let entry = line.trim_start().strip_prefix("- [")?;
                let (number, rest) = entry.split_once(". ")?;
                let title = &rest[..rest.find("](")?];
                Some((number.parse().ok()?, title))
            })
            .filter(|&(n, _)| n >= FIRST_STAGE)
            .collect();
        for &(number, title) in &chapters {
            let stage = stage_info(number).unwrap_or_else(|| panic!("no stage {number}"));
            assert_eq!(stage.title, title, "stage {number}");
        }
        // Every stage has its chapter.
        for stage in STAGES {
            assert!(
                chapters.iter().any(|&(n, _)| n == stage.number),
                "stage {} is not in the book",
                stage.number
            );
        }
        // In order, one each, and every stage a technique names is in the table.
        assert!(STAGES.windows(2).all(|w| w[0].number + 1 == w[1].number));
        assert_eq!(STAGES[0].number, FIRST_STAGE);
        for info in TECHNIQUES {
            if let Some(stage) = stage_of(info.chapter) {
                assert!(
                    stage_info(stage).is_some(),
                    "{}: chapter {} has no stage in STAGES",
                    info.name,
                    info.chapter
                );
            }
        }
        assert!(STAGES.iter().all(|s| !s.doc.is_empty()));
    }
}

//! Progress of a diagnosis as it crosses the worker boundary. The stages themselves are the
//! core's ([`crate::diagnose::Stage`], reported by [`crate::diagnose::diagnose_with_progress`]).

pub use crate::diagnose::{diagnose_with_progress, Stage};

/// `(stage, done, total)` for the message to the page.
pub fn to_parts(stage: Stage) -> (u32, usize, usize) {
    match stage {
        Stage::Reading => (0, 0, 0),
        Stage::Matching { done, total } => (1, done, total),
        Stage::Building => (2, 0, 0),
    }
}

/// The inverse of [`to_parts`].
pub fn from_parts(stage: u32, done: usize, total: usize) -> Option<Stage> {
    match stage {
        0 => Some(Stage::Reading),
        1 => Some(Stage::Matching { done, total }),
        2 => Some(Stage::Building),
        _ => None,
    }
}

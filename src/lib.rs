//! Trace Doctor's core: parses JVM stack traces (Apache Flink's above all) and explains them.
//!
//! Pure logic, no UI: [`parse`] reads traces out of pasted text (logs, mail, JSON, HTML) keeping
//! byte spans into it; [`rules`] holds the rule catalogue (data files under `rules/`);
//! [`matcher`] applies it; [`context`] and [`version`] read facts from the text; [`diagnose`]
//! runs it all; [`report`] turns the result into the JSON, text and Markdown people read;
//! [`digest`] into a reply for a mailing list or an issue (plain text or Markdown).
//! The Yew app (feature `web`) and the CLI (feature `cli`) render what this crate returns.

#![warn(missing_docs)]

pub mod answer;
pub mod catalog;
pub mod component;
pub mod context;
pub mod decode;
pub mod diagnose;
pub mod diagram;
pub mod digest;
pub mod eval;
pub mod evidence;
pub mod frames;
pub mod glob;
pub mod logline;
pub mod matcher;
pub mod model;
pub mod parse;
pub mod pattern;
pub mod redact;
pub mod report;
pub mod rules;
pub mod share;
pub mod sharing;
pub mod shortcuts;
pub mod span;
pub mod version;
pub mod view;
pub mod wording;

#[cfg(feature = "web")]
pub mod app;

pub use diagnose::{diagnose, Diagnosis};

/// The flagship example: a Flink checkpoint failing with `ConcurrentModificationException`
/// while the async I/O operator's in-flight records are deep-copied (the trace as posted to the
/// mailing list in August 2021; `../shared/cases/seed.txt`).
pub const FLAGSHIP_EXAMPLE: &str = include_str!("../tests/cases/seed.txt");

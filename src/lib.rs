//! Trace Doctor's core: parses JVM stack traces (Apache Flink's above all) and explains them.
//!
//! The source is in folders by stage: [`read`] (decode, parse, model, span), [`know`] (rules,
//! matcher, evidence, context, version, component, answer), [`tell`] (report, view, diagram,
//! catalog, digest), [`share`] (link, shorten, redact, the Share panel); [`diagnose`] runs the
//! pipeline and [`eval`] scores it on the corpus.
//!
//! Pure logic, no UI: [`parse`] reads traces out of pasted text (logs, mail, JSON, HTML) keeping
//! byte spans into it; [`rules`] holds the rule catalogue (data files under `rules/`);
//! [`matcher`] applies it; [`context`] and [`version`] read facts from the text; [`diagnose`]
//! runs it all; [`report`] turns the result into the JSON, text and Markdown people read;
//! [`digest`] into a reply for a mailing list or an issue (plain text or Markdown).
//! The Yew app (feature `web`) and the CLI (feature `cli`) render what this crate returns.

#![warn(missing_docs)]

pub mod diagnose;
pub mod eval;
pub mod know;
pub mod read;
pub mod share;
pub mod tell;

// The stages' modules, also at the crate's root: the paths the CLI, the page and the tests use.
pub use know::{
    answer, component, context, cut, docs, evidence, frames, glob, matcher, pattern, rules, version,
};
pub use read::{decode, logline, model, parse, span};
pub use share::{panel as sharing, redact};
pub use tell::{catalog, diagram, digest, lang, number, report, shortcuts, view, wording};

#[cfg(feature = "web")]
pub mod app;

#[cfg(feature = "browser")]
pub mod browser;

pub use diagnose::{diagnose, Diagnosis};

/// The flagship example: a Flink checkpoint failing with `ConcurrentModificationException`
/// while the async I/O operator's in-flight records are deep-copied (the trace as posted to the
/// mailing list in August 2021; `../shared/cases/seed.txt`).
pub const FLAGSHIP_EXAMPLE: &str = include_str!("../tests/cases/seed.txt");

//! Knowing: what Flink and the JVM mean by a trace. The rule catalogue and its matcher (globs,
//! message patterns), the facts read around a trace (context, Flink evidence, version), who
//! wrote each frame, the component that threw and the no-rule answer.

pub mod answer;
pub mod component;
pub mod context;
pub mod cut;
pub mod docs;
pub mod evidence;
pub mod frames;
pub mod glob;
pub mod matcher;
pub mod pattern;
pub mod rules;
pub mod version;

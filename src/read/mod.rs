//! Reading: what a pasted text holds. Decoding its container (JSON, HTML, mail quoting),
//! parsing traces out of it with byte spans into the original text, the trace model, and the
//! telling log line of a text without any exception.

pub mod decode;
mod json_throwable;
pub mod logline;
pub mod model;
pub mod parse;
pub mod scan;
pub mod span;

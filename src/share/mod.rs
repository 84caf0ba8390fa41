//! Sharing: a text and its diagnosis sent to someone else. The share link's codec ([`link`]),
//! the shorter link's text ([`shorten`]), redaction of personal details before sharing
//! ([`redact`]), the Share panel's model ([`panel`]), and its crossing to the Share worker
//! ([`wire`]).

pub mod link;
pub mod panel;
pub mod redact;
pub mod shorten;
pub mod wire;

//! Telling: what people read. The report (JSON, text), the view models the page renders, the
//! failure diagram, the rule catalogue's pages, the replies for mail and issues, and the
//! wording helpers they share, in English or Chinese ([`lang`]).

pub mod catalog;
pub mod diagram;
pub mod digest;
pub mod html;
pub mod lang;
pub mod number;
pub mod report;
pub mod shortcuts;
pub mod view;
pub mod wording;

//! What runs in a browser without Yew (feature `browser`): shared by the app (`crate::app`) and
//! the first view's module (`src/bin/first.rs`, issue 13), which shows a diagnosis before the
//! app has loaded.

pub mod first;
pub mod prose;

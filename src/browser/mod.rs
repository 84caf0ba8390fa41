//! What runs in a browser without Yew (feature `browser`): shared by the app (`crate::app`) and
//! the first view's module (`src/bin/first.rs`, issue 13), which shows a diagnosis before the
//! app has loaded.

pub mod first;
pub mod prose;

/// Sets a Performance API mark (`performance.mark(name)`), read by `scripts/budgets.mjs`;
/// nothing where there is no `window` (the diagnosis worker) or no Performance API. The app's
/// marks: `crate::app::mark`; the first view's: [`first::MARK_STEPS`], [`first::MARK_SHOWN`].
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

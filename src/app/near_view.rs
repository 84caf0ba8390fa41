//! When an element comes near the window: an `IntersectionObserver` whose root margin extends
//! the window by one window height above and below, so that what is built on that signal is on
//! the page before the person scrolls to it.
//!
//! The trace cards of a big result are built this way, one at a time ([`super::Results`]): with
//! a focused 1 MB text area and its caret at the end, every frame that follows a change of the
//! page costs Chromium ~25 ms of compositor commit on two cores (a performance trace of a bare
//! page shows it; ~8 ms when the text area is not focused), so nine cards built one per task
//! after a diagnosis were nine 50-80 ms frames while the person went on typing.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// How far beyond the window an element counts as near: one window height above and below
/// (CSS margin, percentages of the root's size).
const NEAR: &str = "100% 0px 100% 0px";

/// A watch on one element; dropping it stops the watch.
pub struct NearView {
    observer: IntersectionObserver,
    _on_change: Closure<dyn FnMut(js_sys::Array)>,
}

impl NearView {
    /// Calls `near` once, from the observer's callback, when `el` is within [`NEAR`] of the window
    /// (at once, in the next rendering step, when it already is). `None` when the browser has no
    /// `IntersectionObserver` (then `near` is never called).
    pub fn watch(el: &Element, near: impl FnOnce() + 'static) -> Option<Self> {
        let mut near = Some(near);
        let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let is_near = entries.iter().any(|e| {
                e.dyn_into::<IntersectionObserverEntry>()
                    .is_ok_and(|e| e.is_intersecting())
            });
            if is_near {
                if let Some(near) = near.take() {
                    near();
                }
            }
        });
        let options = IntersectionObserverInit::new();
        options.set_root_margin(NEAR);
        let observer =
            IntersectionObserver::new_with_options(on_change.as_ref().unchecked_ref(), &options)
                .ok()?;
        observer.observe(el);
        Some(Self {
            observer,
            _on_change: on_change,
        })
    }
}

impl Drop for NearView {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

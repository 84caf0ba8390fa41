//! Entry point of the first view's module (built by Trunk for wasm32 with the `first` and
//! `lazy-prose` features; index.html): a share link's or a kept text's diagnosis as static HTML,
//! shown before the app's module is fetched (issue 13; `trace_doctor::browser::first`). Nothing
//! runs at start: `index.html` calls [`show`], then [`kept_prose`], then loads the app.

use trace_doctor::lang::Lang;
use wasm_bindgen::prelude::*;

fn main() {}

/// Shows the diagnosis of the share link `link` (the page's fragment; empty on a plain visit)
/// or else of the `kept` text, in `lang` (`en`, `zh`; English otherwise). Resolves to whether
/// something was shown.
#[wasm_bindgen]
pub async fn show(link: String, kept: String, lang: String) -> bool {
    let lang = Lang::from_code(&lang).unwrap_or_default();
    trace_doctor::browser::first::show(&link, &kept, lang).await
}

/// The prose files loaded for the first view, `{"<lang>/<id>": "<json>"}`, for the app.
#[wasm_bindgen]
pub fn kept_prose() -> js_sys::Object {
    trace_doctor::browser::first::kept_prose()
}

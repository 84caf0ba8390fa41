//! The first view (issue 13): a share link's or a kept text's diagnosis written into the page as
//! static HTML ([`crate::tell::html`]) by a module without Yew (`src/bin/first.rs`, about half
//! the app's module), before the app's module is even fetched. `index.html` runs it when the page
//! opens on a share link (`#/s/…`) or on a plain visit with a kept text, then loads the app,
//! which takes the first view's place once it has rendered the same diagnosis
//! (`crate::app`, [`ROOT_ID`]).

use super::mark;
use crate::lang::Lang;

/// DOM id of the element of `index.html` the first view is written into. While it has content,
/// `style/main.css` hides the loading note and the app's root (`#app`) after it; the app removes
/// it once it shows the same diagnosis, keeping what the person opened and how far they
/// scrolled (`crate::app`).
pub const ROOT_ID: &str = "first";

/// Performance API mark set once the first view's diagnosis is in the DOM.
pub const MARK_SHOWN: &str = "td:first-view-shown";

/// Performance API marks of the first view's steps before [`MARK_SHOWN`], in order: the text
/// had (a link decoded), the text diagnosed, the findings' prose had, the page model built (the
/// HTML is written last). `scripts/budgets.mjs` reports the time between them.
pub const MARK_STEPS: [&str; 4] = [
    "td:first:text",
    "td:first:diagnosed",
    "td:first:prose",
    "td:first:model",
];

/// Diagnoses the text of [`crate::tell::html::text_to_show`]`(link, kept)`, loads the prose of
/// the rules it finds in `lang` (`crate::browser::prose`), and writes the diagnoser with the text and its diagnosis
/// into the element [`ROOT_ID`]; then sets the [`MARK_SHOWN`] mark. Returns whether it showed
/// something (nothing to show, or no such element: `false`). A rule whose prose cannot be had
/// says so in its finding, as in the app.
pub async fn show(link: &str, kept: &str, lang: Lang) -> bool {
    let Some(text) = crate::tell::html::text_to_show(link, kept) else {
        return false;
    };
    mark(MARK_STEPS[0]);
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let now = || {
        web_sys::window()
            .and_then(|w| w.performance())
            .map_or(0.0, |p| p.now())
    };
    let start = now();
    let diagnosis = crate::diagnose(&text);
    let took = now() - start;
    mark(MARK_STEPS[1]);
    let need = super::prose::missing(&diagnosis, lang);
    if !need.is_empty() {
        if let Err(e) = super::prose::load(need, lang).await {
            web_sys::console::warn_1(&format!("Trace Doctor: {e}").into());
        }
    }
    mark(MARK_STEPS[2]);
    let model = crate::view::build_lang(&text, &diagnosis, "", lang);
    mark(MARK_STEPS[3]);
    let Some(root) = document.get_element_by_id(ROOT_ID) else {
        return false;
    };
    if let Some(html) = document.document_element() {
        let _ = html.set_attribute("lang", lang.html_lang());
    }
    document.set_title(&lang.home_title());
    root.set_inner_html(&crate::tell::html::diagnoser(
        &text,
        &model,
        took,
        !link.is_empty(),
        lang,
    ));
    mark(MARK_SHOWN);
    true
}

/// The prose files loaded here, `{"<lang>/<id>": "<json>"}`, for the app: `index.html` hands
/// them over as already-fetched files (`window.__traceDoctorPrefetch`), so the app does not
/// wait for them again.
pub fn kept_prose() -> js_sys::Object {
    super::prose::kept()
}

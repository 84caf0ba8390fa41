//! Entry point of the page (built by Trunk for wasm32 with the `web` feature). The same module
//! also runs in the diagnosis worker (`src/app/worker.rs`): there is no `window` there.

fn main() {
    if let Some(w) = web_sys::window() {
        trace_doctor::browser::mark("td:main");
        // Into index.html's `#app` (Yew empties its root: the first view beside it stays until
        // the app shows the same diagnosis); into the body when a page has no such element.
        match w.document().and_then(|d| d.get_element_by_id("app")) {
            Some(root) => yew::Renderer::<trace_doctor::app::App>::with_root(root).render(),
            None => yew::Renderer::<trace_doctor::app::App>::new().render(),
        };
    } else {
        trace_doctor::app::worker::run_in_worker();
    }
}

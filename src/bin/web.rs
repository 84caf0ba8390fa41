//! Entry point of the page (built by Trunk for wasm32 with the `web` feature). The same module
//! also runs in the diagnosis worker (`src/app/worker.rs`): there is no `window` there.

fn main() {
    if let Some(w) = web_sys::window() {
        if let Some(p) = w.performance() {
            let _ = p.mark("td:main");
        }
        yew::Renderer::<trace_doctor::app::App>::new().render();
    } else {
        trace_doctor::app::worker::run_in_worker();
    }
}

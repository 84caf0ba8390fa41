//! Entry point of the page (built by Trunk for wasm32 with the `web` feature).

fn main() {
    yew::Renderer::<trace_doctor::app::App>::new().render();
}

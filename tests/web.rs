//! The core and the app inside a real browser (wasm32, headless Chromium):
//! `cargo test --target wasm32-unknown-unknown --no-default-features --features web --test web`.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_flagship_is_diagnosed_in_wasm() {
    let d = trace_doctor::diagnose(trace_doctor::FLAGSHIP_EXAMPLE);
    assert_eq!(d.traces.len(), 1);
    let t = &d.traces[0];
    assert_eq!(t.findings[0].rule, "async-wait-inflight-cme");
    assert_eq!(t.context.checkpoint_id, Some(575));
    assert_eq!(t.flink_version.summary, "1.13.0 – 1.13.2");
    assert!(trace_doctor::rules::catalogue_errors().is_empty());
}

#[wasm_bindgen_test]
async fn the_app_mounts_and_the_example_button_diagnoses() {
    use wasm_bindgen::JsCast;
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<trace_doctor::app::App>::with_root(root.clone()).render();
    sleep(50).await;
    let button: web_sys::HtmlElement = root
        .query_selector("#try-example")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    button.click();
    // Debounce 0, one frame to paint "working", then the diagnosis.
    for _ in 0..100 {
        sleep(20).await;
        if root
            .query_selector(".finding[data-rule=\"async-wait-inflight-cme\"]")
            .unwrap()
            .is_some()
        {
            break;
        }
    }
    assert!(root
        .query_selector(".finding[data-rule=\"async-wait-inflight-cme\"]")
        .unwrap()
        .is_some());
    let status = root.query_selector("#status").unwrap().unwrap();
    assert_eq!(status.get_attribute("data-state").as_deref(), Some("done"));
    let highlighted = root
        .query_selector_all(".frame.highlighted")
        .unwrap()
        .length();
    assert!(highlighted >= 5, "{highlighted} highlighted frames");
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

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

/// The shared cases, and a generated input of many traces (distinct ones and repeats).
fn inputs() -> Vec<String> {
    let mut v: Vec<String> = [
        include_str!("cases/seed.txt"),
        include_str!("cases/seed-crlf.txt"),
        include_str!("cases/seed-html.txt"),
        include_str!("cases/seed-log4j.txt"),
        include_str!("cases/seed-quoted.txt"),
        include_str!("cases/seed-rest.json"),
        include_str!("cases/lookalike-broadcast.txt"),
        include_str!("cases/lookalike-chaining.txt"),
        include_str!("cases/negative-spark-kryo.txt"),
        include_str!("cases/negative-user-cme.txt"),
        "not a stack trace",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut many = String::new();
    for i in 0..300 {
        many.push_str(&format!(
            "java.lang.IllegalStateException: job {i} failed\n\tat com.acme.Job{i}.run(Job{i}.java:{})\n\tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)\nCaused by: java.io.IOException: disk {}\n\tat com.acme.Io.write(Io.java:{i})\n\t... 1 more\n",
            i % 7 + 1,
            i % 3
        ));
        if i % 10 == 0 {
            many.push_str(trace_doctor::FLAGSHIP_EXAMPLE);
            many.push('\n');
        }
    }
    v.push(many);
    v
}

#[wasm_bindgen_test]
fn the_worker_pipeline_gives_exactly_what_diagnose_gives() {
    use trace_doctor::app::progress::{diagnose_with_progress, Stage};
    for input in inputs() {
        let mut stages = Vec::new();
        let d = diagnose_with_progress(&input, &mut |s| stages.push(s));
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            serde_json::to_string(&trace_doctor::diagnose(&input)).unwrap(),
            "app::progress differs from diagnose.rs on {:?}…",
            &input[..input.len().min(60)]
        );
        // Reading first, then every trace counted in order, ending at total of total.
        assert_eq!(stages.first(), Some(&Stage::Reading));
        let counts: Vec<(usize, usize)> = stages[1..]
            .iter()
            .map(|s| match *s {
                Stage::Matching { done, total } => (done, total),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        let total = counts.last().unwrap().1;
        assert_eq!(counts.len(), total + 1);
        assert!(counts.iter().enumerate().all(|(i, &c)| c == (i, total)));
    }
}

#[wasm_bindgen_test]
fn the_page_model_survives_the_trip_from_the_worker() {
    use trace_doctor::app::wire;
    for input in inputs() {
        let model = trace_doctor::view::build(&input, &trace_doctor::diagnose(&input));
        let bytes = wire::encode(&model);
        assert_eq!(wire::decode(&bytes).as_ref(), Some(&model));
        // Cut short or padded, it is refused rather than misread.
        if !bytes.is_empty() {
            assert_eq!(wire::decode(&bytes[..bytes.len() - 1]), None);
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(wire::decode(&longer), None);
    }
}

#[wasm_bindgen_test]
async fn a_big_input_is_diagnosed_even_where_no_worker_can_start() {
    // The test runner serves no worker.js: the worker fails to start, and the page falls back to
    // diagnosing on the main thread.
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<trace_doctor::app::App>::with_root(root.clone()).render();
    sleep(50).await;
    let area: web_sys::HtmlTextAreaElement = {
        use wasm_bindgen::JsCast;
        root.query_selector("#trace-input")
            .unwrap()
            .unwrap()
            .dyn_into()
            .unwrap()
    };
    let unit = format!("{}\n", trace_doctor::FLAGSHIP_EXAMPLE);
    let text = unit.repeat(trace_doctor::app::WORKER_MIN_BYTES / unit.len() + 2);
    area.set_value(&text);
    area.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    let status = root.query_selector("#status").unwrap().unwrap();
    for _ in 0..500 {
        sleep(20).await;
        if status.get_attribute("data-state").as_deref() == Some("done") {
            break;
        }
    }
    assert_eq!(status.get_attribute("data-state").as_deref(), Some("done"));
    assert!(root
        .query_selector(".finding[data-rule=\"async-wait-inflight-cme\"]")
        .unwrap()
        .is_some());
    root.remove();
}

/// The page in Chinese (the language kept from the switch), and the switch back to English,
/// kept for the next visit.
#[wasm_bindgen_test]
async fn the_page_speaks_chinese_when_chosen_and_switches_back() {
    use wasm_bindgen::JsCast;
    let window = web_sys::window().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    storage.set_item("trace-doctor.lang", "\"zh\"").unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<trace_doctor::app::App>::with_root(root.clone()).render();
    sleep(50).await;
    let text = |sel: &str| {
        root.query_selector(sel)
            .unwrap()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    assert_eq!(text("#try-example"), "试试示例");
    let html = document.document_element().unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("zh-CN"));
    let button: web_sys::HtmlElement = root
        .query_selector("#try-example")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    button.click();
    for _ in 0..100 {
        sleep(20).await;
        if root.query_selector(".finding h3").unwrap().is_some() {
            break;
        }
    }
    let title = text(".finding[data-rule=\"async-wait-inflight-cme\"] h3");
    assert!(title.contains("在途记录"), "{title}");
    assert!(text("#status").contains("已诊断"), "{}", text("#status"));
    let english: web_sys::HtmlElement = root
        .query_selector("#lang-en")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    english.click();
    for _ in 0..100 {
        sleep(20).await;
        if text("#try-example") == "Try the example" && text("#status").contains("diagnosed") {
            break;
        }
    }
    assert_eq!(text("#try-example"), "Try the example");
    let title = text(".finding[data-rule=\"async-wait-inflight-cme\"] h3");
    assert!(title.starts_with("The async I/O operator"), "{title}");
    assert_eq!(html.get_attribute("lang").as_deref(), Some("en"));
    assert_eq!(
        storage.get_item("trace-doctor.lang").unwrap().as_deref(),
        Some("\"en\"")
    );
    storage.remove_item("trace-doctor.lang").unwrap();
    root.remove();
}

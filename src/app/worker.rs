//! Diagnosing big inputs off the main thread, in a web worker that runs this same wasm module.
//!
//! The page sends the worker its own compiled `WebAssembly.Module` (so nothing is downloaded or
//! compiled twice) and the URL of the wasm-bindgen glue; `worker.js` imports the glue and
//! instantiates the module, whose start function (`main` in `src/bin/web.rs`) sees no `window`
//! and calls [`run_in_worker`]. Messages are small arrays:
//!
//! - page → worker: `[glue_url, module, warm_up]` once (read by `worker.js`; `warm_up`: the
//!   page's first worker, which warms the compiler up when ready), then
//!   `[generation, text, lang, prose]` (`lang`: 1 for Chinese, else English; `prose`: the
//!   rules' prose files the page has loaded, [`super::prose::kept`]);
//! - worker → page: `[0]` ready, `[1, generation, stage, done, total]` progress,
//!   `[2, generation, model_bytes, diagnose_ms, prose]` result (the bytes of [`super::wire`],
//!   transferred; the prose files the worker has, which the page takes in),
//!   `[3, reason]` when `worker.js` could not load the module.
//!
//! A worker diagnoses one input at a time and cannot be interrupted, so a newer input terminates
//! a busy worker and starts a fresh one; results of older generations are dropped by the reducer.

use super::progress::{self, Stage};
use super::state::{Action, State};
use super::wire;
use gloo::timers::callback::Timeout;
use js_sys::{Array, Uint8Array};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    DedicatedWorkerGlobalScope, ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType,
};
use yew::UseReducerDispatcher;

const READY: u32 = 0;
const PROGRESS: u32 = 1;
const RESULT: u32 = 2;
/// Sent by `worker.js` when it cannot load the module.
const FAILED: u32 = 3;

/// Progress messages are sent at most this often (ms), plus one per stage change.
const PROGRESS_EVERY_MS: f64 = 200.0;

/// A worker that has not said it is ready after this long (ms) is given up on.
const START_TIMEOUT_MS: u32 = 15_000;

#[wasm_bindgen]
extern "C" {
    /// URL of the wasm-bindgen glue module (`import.meta.url` inside it).
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static GLUE_URL: String;
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn num(v: &JsValue) -> f64 {
    v.as_f64().unwrap_or(-1.0)
}

// ---------------------------------------------------------------------------------------------
// the worker side

/// Entry point inside the worker: answers diagnosis requests until the page terminates it.
pub fn run_in_worker() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        stop_warming_up();
        let data: Array = e.data().unchecked_into();
        let generation = num(&data.get(0));
        // The page sends the text as UTF-8 bytes (a transferred buffer): decoding it here keeps
        // a 10 MB conversion and its garbage off the page's thread.
        super::prose::adopt(&data.get(3));
        if let Ok(bytes) = data.get(1).dyn_into::<Uint8Array>() {
            let text = String::from_utf8(bytes.to_vec())
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            let lang = if num(&data.get(2)) == 1.0 {
                crate::lang::Lang::Zh
            } else {
                crate::lang::Lang::En
            };
            diagnose_and_reply(&reply, generation, &text, lang);
        }
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    // Compile the rule catalogue and all its message patterns before saying "ready", so the
    // first input does not pay for them: a worker starts when a big text is edited, during the
    // debounce.
    let _ = crate::diagnose(crate::FLAGSHIP_EXAMPLE);
    crate::rules::compile_patterns();
    let _ = scope.post_message(&Array::of1(&READY.into()));
    let first = js_sys::Reflect::get(&scope, &"__traceDoctorWarmUp".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if first {
        warm_up(WARM_UP_RUNS);
    } else {
        stop_warming_up();
    }
}

/// Diagnoses of the example the worker runs after saying "ready", one per task (a message
/// from the page stops them at once: [`stop_warming_up`]). WebAssembly's code starts in V8's
/// baseline compiler and is compiled again, optimized, once it has run enough: the first 1 MB
/// text a fresh worker read took 240 ms in Node's V8, the same text after forty runs of the
/// example 110–145 ms. Forty runs are ~150 ms of this worker's time, off the page's thread.
const WARM_UP_RUNS: u32 = 40;

thread_local! {
    /// Whether the warm-up is over (done, or stopped by a message).
    static WARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `left` more diagnoses of the example, one per task, unless a message came.
fn warm_up(left: u32) {
    if WARMED.with(std::cell::Cell::get) {
        return;
    }
    if left == 0 {
        stop_warming_up();
        return;
    }
    Timeout::new(0, move || {
        if !WARMED.with(std::cell::Cell::get) {
            let _ = crate::diagnose(crate::FLAGSHIP_EXAMPLE);
            warm_up(left - 1);
        }
    })
    .forget();
}

/// Ends the warm-up, and forgets what it remembered of the example's frames (a person's text
/// that shares them must be read as if the worker had not seen them).
fn stop_warming_up() {
    if !WARMED.with(|w| w.replace(true)) {
        crate::know::version::forget_remembered_frames();
    }
}

fn diagnose_and_reply(
    scope: &DedicatedWorkerGlobalScope,
    generation: f64,
    text: &str,
    lang: crate::lang::Lang,
) {
    let start = now_ms();
    let mut last: Option<(u32, f64)> = None;
    let mut report = |stage: Stage| {
        let (kind, done, total) = progress::to_parts(stage);
        let t = now_ms();
        let due = match last {
            Some((k, at)) => {
                k != kind || t - at >= PROGRESS_EVERY_MS || (total > 0 && done == total)
            }
            None => true,
        };
        if due {
            last = Some((kind, t));
            let msg = Array::of5(
                &PROGRESS.into(),
                &generation.into(),
                &kind.into(),
                &(done as f64).into(),
                &(total as f64).into(),
            );
            let _ = scope.post_message(&msg);
        }
    };
    let diagnosis = progress::diagnose_with_progress(text, &mut report);
    report(Stage::Building);
    let need = super::prose::missing(&diagnosis, lang);
    if need.is_empty() {
        reply_with_model(scope, generation, text, &diagnosis, lang, start);
        return;
    }
    // The findings' prose first (fetched beside worker.js, or from the single file's table).
    let scope = scope.clone();
    let text = text.to_owned();
    super::prose::load_then(need, lang, move || {
        reply_with_model(&scope, generation, &text, &diagnosis, lang, start);
    });
}

/// Builds the page model of `diagnosis` and sends it to the page (transferred, not copied).
fn reply_with_model(
    scope: &DedicatedWorkerGlobalScope,
    generation: f64,
    text: &str,
    diagnosis: &crate::diagnose::Diagnosis,
    lang: crate::lang::Lang,
    start: f64,
) {
    let model = crate::view::build_lang(text, diagnosis, "", lang);
    let bytes = wire::encode(&model);
    let array = Uint8Array::from(&bytes[..]);
    // With the prose files this worker has: the page needs them too (its Share panel's
    // replies, the next worker).
    let msg = Array::of5(
        &RESULT.into(),
        &generation.into(),
        &array,
        &(now_ms() - start).into(),
        &super::prose::kept(),
    );
    let _ = scope.post_message_with_transfer(&msg, &Array::of1(&array.buffer()));
}

// ---------------------------------------------------------------------------------------------
// the page side

/// The page's handle on the diagnosis worker (cheap to clone).
#[derive(Clone)]
pub struct Client(Rc<RefCell<Inner>>);

struct Inner {
    dispatcher: UseReducerDispatcher<State>,
    live: Option<Live>,
    /// Workers could not start here (no module workers, a blocked script…): use the main thread.
    unavailable: bool,
    /// Workers let go of, kept until no handler of theirs can be running.
    retired: Vec<Live>,
    /// Number of workers started (each [`Live`] knows its own, so late events of an old worker
    /// are not taken for the current one's).
    started: u64,
}

struct Live {
    id: u64,
    worker: Worker,
    ready: bool,
    /// The generation being diagnosed.
    busy: Option<u64>,
    /// Sent once the worker is ready.
    queued: Option<(u64, JsValue)>,
    /// When the page handed over the current (or queued) input, `Date.now()` ms.
    submitted_at: f64,
    _onmessage: Closure<dyn FnMut(MessageEvent)>,
    _onerror: Closure<dyn FnMut(Event)>,
    _start_timeout: Option<Timeout>,
}

impl Live {
    /// Sends `text` (a `Uint8Array` of UTF-8, whose buffer is transferred, not copied).
    fn send(&mut self, generation: u64, text: JsValue) {
        let lang = f64::from(u8::from(super::lang() == crate::lang::Lang::Zh));
        // The prose the page has loaded: the same text being edited needs the same rules.
        let msg = Array::of4(
            &(generation as f64).into(),
            &text,
            &lang.into(),
            &super::prose::kept(),
        );
        let buffer = text.unchecked_ref::<Uint8Array>().buffer();
        match self
            .worker
            .post_message_with_transfer(&msg, &Array::of1(&buffer))
        {
            Ok(()) => self.busy = Some(generation),
            Err(_) => self.busy = None,
        }
    }

    fn stop(&self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// What the page should do with an input it hands over.
pub enum Submitted {
    /// The worker has it (or will, once started).
    Worker,
    /// No worker here: diagnose on the main thread.
    MainThread,
}

impl Client {
    /// A client that reports to the page's reducer. Starts nothing yet.
    pub fn new(dispatcher: UseReducerDispatcher<State>) -> Client {
        Client(Rc::new(RefCell::new(Inner {
            dispatcher,
            live: None,
            unavailable: false,
            retired: Vec::new(),
            started: 0,
        })))
    }

    /// Drops a worker that is busy with an older input (it cannot be interrupted) and, when
    /// `warm`, makes sure a worker is starting, so it is ready when the debounce ends.
    pub fn new_input(&self, warm: bool) {
        let mut inner = self.0.borrow_mut();
        inner.retired.clear();
        if inner.live.as_ref().is_some_and(|l| l.busy.is_some()) {
            if let Some(old) = inner.live.take() {
                old.stop();
                inner.retired.push(old);
            }
        }
        if let Some(live) = inner.live.as_mut() {
            live.queued = None;
        }
        drop(inner);
        if warm {
            self.warm();
        }
    }

    /// Starts a worker if none is running, so the first big input does not wait for one
    /// (loading the module and compiling the catalogue there take ~100-300 ms).
    pub fn warm(&self) {
        let mut inner = self.0.borrow_mut();
        if inner.live.is_none() && !inner.unavailable {
            inner.live = spawn(&self.0, &mut inner);
            if inner.live.is_none() {
                inner.unavailable = true;
            }
        }
    }

    /// Diagnoses `text` (of `generation`) in the worker.
    pub fn submit(&self, generation: u64, text: &str) -> Submitted {
        let mut inner = self.0.borrow_mut();
        if inner.unavailable {
            return Submitted::MainThread;
        }
        if inner.live.as_ref().is_some_and(|l| l.busy.is_some()) {
            if let Some(old) = inner.live.take() {
                old.stop();
                inner.retired.push(old);
            }
        }
        if inner.live.is_none() {
            inner.live = spawn(&self.0, &mut inner);
        }
        let Some(live) = inner.live.as_mut() else {
            inner.unavailable = true;
            return Submitted::MainThread;
        };
        let text: JsValue = Uint8Array::from(text.as_bytes()).into();
        live.submitted_at = now_ms();
        if live.ready {
            live.send(generation, text);
        } else {
            live.queued = Some((generation, text));
        }
        Submitted::Worker
    }
}

/// The URL of the folder the page's glue was loaded from, with its final `/` (where Trunk put
/// `worker.js` and the Share worker's loader).
pub fn page_folder() -> String {
    let glue = GLUE_URL.with(String::clone);
    glue[..glue.rfind('/').map_or(0, |i| i + 1)].to_owned()
}

/// Starts a worker on this page's own module; `None` when the browser refuses.
fn spawn(rc: &Rc<RefCell<Inner>>, inner: &mut Inner) -> Option<Live> {
    inner.started += 1;
    let id = inner.started;
    let glue = GLUE_URL.with(String::clone);
    let base = page_folder();
    let options = WorkerOptions::new();
    // The single-file build (scripts/build-single.sh) has no worker.js beside it: it sets
    // `window.__traceDoctorWorkerUrl` to a blob: URL of the same script. Chromium refuses module
    // workers from blob: URLs on file:// pages (an opaque origin), so that one is a classic
    // worker (worker.js only uses a dynamic `import()`, which classic workers have too).
    let single_file = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"__traceDoctorWorkerUrl".into()).ok())
        .and_then(|v| v.as_string());
    options.set_type(if single_file.is_some() {
        WorkerType::Classic
    } else {
        WorkerType::Module
    });
    let url = single_file.unwrap_or_else(|| format!("{base}worker.js"));
    let worker = Worker::new_with_options(&url, &options).ok()?;
    let weak = Rc::downgrade(rc);
    let onmessage = {
        let weak = weak.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| on_message(&weak, id, e))
    };
    let onerror = {
        let weak = weak.clone();
        Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            e.prevent_default();
            // A script that cannot load fires a plain Event; a thrown error, an ErrorEvent.
            let why = e.dyn_ref::<ErrorEvent>().map_or_else(
                || "the worker script did not load".to_owned(),
                |e| e.message(),
            );
            on_failure(&weak, id, &why);
        })
    };
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    let start_timeout = Timeout::new(START_TIMEOUT_MS, move || {
        let starting = weak.upgrade().is_some_and(|rc| {
            rc.borrow()
                .live
                .as_ref()
                .is_some_and(|l| l.id == id && !l.ready)
        });
        if starting {
            on_failure(&weak, id, "the diagnosis worker did not start");
        }
    });
    // The page's first worker warms up; one started for an edit gets the text within the
    // debounce, and its warm-up would only take a core from the person typing.
    let init = Array::of3(
        &JsValue::from_str(&glue),
        &wasm_bindgen::module(),
        &JsValue::from_bool(id == 1),
    );
    worker.post_message(&init).ok()?;
    Some(Live {
        id,
        worker,
        ready: false,
        busy: None,
        queued: None,
        submitted_at: 0.0,
        _onmessage: onmessage,
        _onerror: onerror,
        _start_timeout: Some(start_timeout),
    })
}

fn on_message(weak: &Weak<RefCell<Inner>>, id: u64, e: MessageEvent) {
    let Some(rc) = weak.upgrade() else { return };
    let data: Array = e.data().unchecked_into();
    let kind = num(&data.get(0)) as u32;
    let generation = num(&data.get(1)) as u64;
    if kind == FAILED {
        on_failure(weak, id, &data.get(1).as_string().unwrap_or_default());
        return;
    }
    let action = {
        let mut inner = rc.borrow_mut();
        let Some(live) = inner.live.as_mut().filter(|l| l.id == id) else {
            return;
        };
        match kind {
            READY => {
                live.ready = true;
                live._start_timeout = None;
                if let Some((generation, text)) = live.queued.take() {
                    live.send(generation, text);
                }
                None
            }
            PROGRESS => progress::from_parts(
                num(&data.get(2)) as u32,
                num(&data.get(3)) as usize,
                num(&data.get(4)) as usize,
            )
            .map(|stage| Action::Progress { generation, stage }),
            RESULT => {
                if live.busy == Some(generation) {
                    live.busy = None;
                }
                let bytes: Uint8Array = data.get(2).unchecked_into();
                let diagnose_ms = num(&data.get(3));
                super::prose::adopt(&data.get(4));
                Some(match wire::decode(&bytes.to_vec()) {
                    Some(model) => Action::Finished {
                        generation,
                        model: Rc::new(model),
                        diagnose_ms,
                        wall_ms: now_ms() - live.submitted_at,
                    },
                    None => Action::Failed {
                        generation,
                        message: "the diagnosis worker sent an unreadable result".into(),
                    },
                })
            }
            _ => None,
        }
    };
    // Dispatch after the borrow ends: the reducer and the render may call back into the client.
    if let Some(action) = action {
        let dispatcher = rc.borrow().dispatcher.clone();
        dispatcher.dispatch(action);
    }
}

/// The worker failed: before it was ready (it cannot start here: fall back to the main thread
/// for good) or while diagnosing (report the failure for that input).
fn on_failure(weak: &Weak<RefCell<Inner>>, id: u64, message: &str) {
    let Some(rc) = weak.upgrade() else { return };
    let action = {
        let mut inner = rc.borrow_mut();
        let Some(live) = inner.live.take_if(|l| l.id == id) else {
            return;
        };
        live.stop();
        let action = if live.ready {
            live.busy.map(|generation| Action::Failed {
                generation,
                message: format!("the diagnosis failed ({message})"),
            })
        } else {
            inner.unavailable = true;
            live.queued
                .as_ref()
                .map(|(generation, _)| Action::Diagnose {
                    generation: *generation,
                    now: super::now_ms,
                    then: inner.dispatcher.clone(),
                })
        };
        inner.retired.push(live);
        action
    };
    if let Some(action) = action {
        let dispatcher = rc.borrow().dispatcher.clone();
        dispatcher.dispatch(action);
    }
}

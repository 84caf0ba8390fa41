//! The page's side of the Share panel's worker (`src/bin/share.rs`, a module of its own): started
//! when the panel first asks, kept for the page's life. One request is with the worker at a
//! time; a newer request replaces the one waiting for it (a text edited with the panel open is
//! not worked on for every version), and only the latest request's answer is delivered.
//!
//! The worker script is `trace-doctor-share_loader.js` beside the page's glue (Trunk's loader
//! shim for a `data-type="worker"` module), or in the single file a blob: URL from
//! `window.__traceDoctorShareWorkerUrl` (a classic worker, as for the diagnosis worker).

use crate::share::wire::{self, Request};
use crate::sharing::{NotShared, SharePanel};
use gloo::timers::callback::Timeout;
use js_sys::Array;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

/// A worker that has not said it is ready after this long (ms) is given up on.
const START_TIMEOUT_MS: u32 = 20_000;

/// What the Share panel gets back for a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The panel, or why there is nothing to share.
    Panel(Result<SharePanel, NotShared>),
    /// The worker could not start, failed, or sent something unreadable: why, in English.
    Failed(String),
}

/// The worker and what is waiting on it.
struct Inner {
    worker: Option<Worker>,
    ready: bool,
    /// Whether a request is with the worker (its answer not back yet).
    busy: bool,
    /// Why it could not work: the request waiting then was answered with it; the next request
    /// tries a new worker (the panel closed and opened again, a new text).
    failed: Option<String>,
    /// The id of the latest request.
    latest: u32,
    /// The latest request's JSON, while the worker is starting or busy.
    queued: Option<String>,
    /// Who gets the latest request's answer.
    done: Option<Callback<Answer>>,
    _onmessage: Option<Closure<dyn FnMut(MessageEvent)>>,
    _onerror: Option<Closure<dyn FnMut(Event)>>,
    _start_timeout: Option<Timeout>,
}

thread_local! {
    static WORKER: Rc<RefCell<Inner>> = Rc::new(RefCell::new(Inner {
        worker: None,
        ready: false,
        busy: false,
        failed: None,
        latest: 0,
        queued: None,
        done: None,
        _onmessage: None,
        _onerror: None,
        _start_timeout: None,
    }));
}

/// Starts the worker if it is not running yet: called when the pointer or the focus comes to
/// the Share panel's summary or the button that opens it, so that its module is loading before
/// the click (the first panel of a small text: 380-600 ms after the click when started by it,
/// the module's download and compile and the catalogue's load).
pub fn warm() {
    WORKER.with(|rc| {
        if rc.borrow().worker.is_none() && rc.borrow().failed.is_none() {
            start(rc);
        }
    });
}

/// Asks for the Share panel of `request`; `done` is called once with the answer, unless a newer
/// request is made first.
pub fn ask(request: &Request, done: Callback<Answer>) {
    let json = serde_json::to_string(request).unwrap_or_default();
    WORKER.with(|rc| rc.borrow_mut().failed = None);
    warm();
    let failed = WORKER.with(|rc| {
        let mut inner = rc.borrow_mut();
        if let Some(why) = &inner.failed {
            return Some(why.clone());
        }
        inner.latest += 1;
        inner.done = Some(done.clone());
        inner.queued = Some(json);
        send_queued(&mut inner);
        None
    });
    if let Some(why) = failed {
        done.emit(Answer::Failed(why));
    }
}

/// Hands the waiting request to the worker when it is ready and not busy.
fn send_queued(inner: &mut Inner) {
    if !inner.ready || inner.busy {
        return;
    }
    let (Some(json), Some(w)) = (inner.queued.take(), &inner.worker) else {
        return;
    };
    let _ = w.post_message(&Array::of2(&inner.latest.into(), &json.into()));
    inner.busy = true;
}

/// The worker's script: the single file's blob: URL, else the loader beside the page's glue.
fn script() -> (String, WorkerType) {
    let single_file = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"__traceDoctorShareWorkerUrl".into()).ok())
        .and_then(|v| v.as_string());
    match single_file {
        Some(url) => (url, WorkerType::Classic),
        None => (
            format!(
                "{}trace-doctor-share_loader.js",
                super::worker::page_folder()
            ),
            WorkerType::Module,
        ),
    }
}

fn start(rc: &Rc<RefCell<Inner>>) {
    let (url, kind) = script();
    let options = WorkerOptions::new();
    options.set_type(kind);
    let worker = match Worker::new_with_options(&url, &options) {
        Ok(w) => w,
        Err(e) => {
            rc.borrow_mut().failed = Some(
                e.as_string()
                    .unwrap_or_else(|| "the browser refused to start a worker".into()),
            );
            return;
        }
    };
    let weak = Rc::downgrade(rc);
    let onmessage = {
        let weak = weak.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(rc) = weak.upgrade() {
                on_message(&rc, &e);
            }
        })
    };
    let onerror = {
        let weak = weak.clone();
        Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            e.prevent_default();
            // A script that cannot load fires a plain Event; a thrown error, an ErrorEvent.
            let why = e.dyn_ref::<ErrorEvent>().map_or_else(
                || "the Share worker's script did not load".to_owned(),
                |e| crate::share::wire::plain_failure(&e.message()),
            );
            if let Some(rc) = weak.upgrade() {
                fail(&rc, why);
            }
        })
    };
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    let start_timeout = Timeout::new(START_TIMEOUT_MS, move || {
        if let Some(rc) = weak.upgrade() {
            if !rc.borrow().ready {
                fail(&rc, "the Share worker did not start".into());
            }
        }
    });
    let mut inner = rc.borrow_mut();
    inner.worker = Some(worker);
    inner._onmessage = Some(onmessage);
    inner._onerror = Some(onerror);
    inner._start_timeout = Some(start_timeout);
}

fn on_message(rc: &Rc<RefCell<Inner>>, e: &MessageEvent) {
    let data = Array::from(&e.data());
    match data.get(0).as_f64() {
        Some(0.0) => {
            let mut inner = rc.borrow_mut();
            inner.ready = true;
            inner._start_timeout = None;
            send_queued(&mut inner);
        }
        Some(1.0) => {
            let done = {
                let mut inner = rc.borrow_mut();
                inner.busy = false;
                send_queued(&mut inner);
                if data.get(1).as_f64() != Some(f64::from(inner.latest)) {
                    return;
                }
                inner.done.take()
            };
            let answer = data
                .get(2)
                .as_string()
                .and_then(|json| wire::read_answer(&json))
                .map_or_else(
                    || Answer::Failed("the Share worker sent an unreadable answer".into()),
                    Answer::Panel,
                );
            // Called after the borrow ends: the panel renders again and may ask again.
            if let Some(done) = done {
                done.emit(answer);
            }
        }
        Some(2.0) => fail(
            rc,
            crate::share::wire::plain_failure(&data.get(1).as_string().unwrap_or_default()),
        ),
        _ => {}
    }
}

/// The worker cannot work: stopped, and the waiting request answered with why.
fn fail(rc: &Rc<RefCell<Inner>>, why: String) {
    let done = {
        let mut inner = rc.borrow_mut();
        if let Some(w) = inner.worker.take() {
            w.terminate();
        }
        inner.ready = false;
        inner.busy = false;
        inner.failed = Some(why.clone());
        inner.queued = None;
        inner._start_timeout = None;
        inner.done.take()
    };
    if let Some(done) = done {
        done.emit(Answer::Failed(why));
    }
}

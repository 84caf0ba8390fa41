//! Entry point of the Share panel's worker (built by Trunk for wasm32 with the `share-worker`
//! and `lazy-prose` features; index.html). Its own module, loaded when the Share panel opens:
//! redaction, the share link and the replies run here, off the page's thread, and their code is
//! not in the page's module (issue 13). Messages (arrays):
//!
//! - worker → page: `[0]` once ready; `[1, id, answer]` for each request (`answer`: the JSON
//!   of `trace_doctor::share::wire::answer`);
//! - page → worker: `[id, request]` (`request`: the JSON of a `wire::Request`);
//! - `[2, reason]` from the single file's loader when the module cannot start.

use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let reply_to = scope.clone();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let data = Array::from(&e.data());
        let request = data.get(1).as_string().unwrap_or_default();
        let answer = trace_doctor::share::wire::answer(&request);
        let _ = reply_to.post_message(&Array::of3(&1.into(), &data.get(0), &answer.into()));
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    let _ = scope.post_message(&Array::of1(&0.into()));
}

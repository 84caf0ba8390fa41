//! Loads rules' prose for the page (issue 13: the module carries only what matching needs).
//!
//! A rule's prose in a language ([`crate::rules::schema::RuleProse`]) is one JSON file beside
//! the module, `prose/<lang>/<id>.json` (`lang`: `en` or `zh`), written at build time by
//! `trace-doctor page-data` from the same rules the command line bundles. The page fetches the
//! files of the rules it is about to show (a diagnosis's findings, a catalog page), in
//! parallel, once each; the single offline file has them inlined as
//! `globalThis.__traceDoctorProse` (`{"<lang>/<id>": "<json>"}`, `scripts/inline.mjs`), which
//! is read first. The same code runs in the diagnosis worker, where relative URLs resolve
//! against `worker.js` (in the same folder as the page).

use crate::diagnose::Diagnosis;
use crate::lang::Lang;
use crate::rules::schema::RuleProse;
use crate::rules::{self, Rule};
use js_sys::{Promise, Reflect};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The folder name of `lang`'s prose files.
fn folder(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Zh => "zh",
    }
}

/// `<lang>/<id>`: where the prose file is under `prose/`, without `.json`, and its key in the
/// single file's table.
fn key(id: &str, lang: Lang) -> String {
    format!("{}/{id}", folder(lang))
}

thread_local! {
    /// The prose files loaded here, `(key, text)`: handed to each new diagnosis worker
    /// ([`kept`]), which would otherwise fetch them again for the same text being edited.
    static KEPT: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// The prose files loaded so far (`{"<lang>/<id>": "<json>"}`), for a new worker.
pub fn kept() -> js_sys::Object {
    let table = js_sys::Object::new();
    KEPT.with(|k| {
        for (key, text) in k.borrow().iter() {
            let _ = Reflect::set(&table, &key.as_str().into(), &text.as_str().into());
        }
    });
    table
}

/// The prose files loaded so far, `(key, json)` (the Share worker takes them:
/// [`crate::share::wire::Request::prose`]).
pub fn kept_files() -> Vec<(String, String)> {
    KEPT.with(|k| k.borrow().clone())
}

/// Gives `rule` its prose in `lang`, parsed from `text`, and keeps the text for the workers
/// ([`kept`]).
fn give(rule: &Rule, lang: Lang, prose: RuleProse, text: String) {
    if rule.set_prose(lang, prose) {
        KEPT.with(|k| k.borrow_mut().push((key(&rule.def.id, lang), text)));
    }
}

/// Takes in the prose files the page handed over ([`kept`]): each one parsed and given to its
/// rule, unless the rule has it already. Files that do not parse are passed over (the worker
/// fetches them when needed).
pub fn adopt(table: &JsValue) {
    if !table.is_object() {
        return;
    }
    // By the table's keys: going through the catalogue would compile every rule.
    for key in js_sys::Object::keys(table.unchecked_ref::<js_sys::Object>()).iter() {
        let Some(key) = key.as_string() else {
            continue;
        };
        let Some((lang, rule)) = [Lang::En, Lang::Zh].into_iter().find_map(|lang| {
            let id = key.strip_prefix(folder(lang))?.strip_prefix('/')?;
            Some((lang, rules::by_id(id)?))
        }) else {
            continue;
        };
        if rule.prose(lang).is_some() {
            continue;
        }
        let Some(text) = Reflect::get(table, &key.as_str().into())
            .ok()
            .and_then(|v| v.as_string())
        else {
            continue;
        };
        if let Ok(p) = serde_json::from_str::<RuleProse>(&text) {
            give(rule, lang, p, text);
        }
    }
}

/// The rules a diagnosis shows (every finding of every trace) whose prose in `lang` is not
/// loaded yet, each once.
pub fn missing(diagnosis: &Diagnosis, lang: Lang) -> Vec<&'static Rule> {
    diagnosis
        .finding_rules()
        .into_iter()
        .filter_map(rules::by_id)
        .filter(|r| r.prose(lang).is_none())
        .collect()
}

/// Every rule whose prose in `lang` is not loaded yet (the catalog's list shows them all).
pub fn missing_of_all(lang: Lang) -> Vec<&'static Rule> {
    rules::catalogue()
        .iter()
        .filter(|r| r.prose(lang).is_none())
        .copied()
        .collect()
}

/// Loads the prose of `rules` in `lang`, all requests at once. A rule whose file cannot be had
/// (offline, a missing file) keeps no prose: the page then shows its id as the title and says
/// that its explanation could not be loaded. Errors: the first failure, in words.
pub async fn load(rules: Vec<&'static Rule>, lang: Lang) -> Result<(), String> {
    // Every request is made before the first is awaited: they travel together.
    let pending: Vec<(&'static Rule, Result<Request, String>)> = rules
        .into_iter()
        .map(|r| (r, request(&r.def.id, lang)))
        .collect();
    let mut first_error = None;
    for (rule, request) in pending {
        let text = match request {
            Ok(request) => request.text().await,
            Err(e) => Err(e),
        };
        let parsed = text.and_then(|t| match serde_json::from_str::<RuleProse>(&t) {
            Ok(p) => Ok((p, t)),
            Err(e) => Err(format!("prose of {}: {e}", rule.def.id)),
        });
        match parsed {
            Ok((prose, text)) => give(rule, lang, prose, text),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// A prose file on its way.
enum Request {
    /// From the single file's table: the text, or `undefined` when it lacks the file.
    Inlined(JsValue),
    /// Fetched by `index.html` before the module ran: the text to come (a rejected promise is
    /// fetched again).
    Prefetched {
        /// The URL, to fetch it again.
        url: String,
        /// The text.
        text: Promise,
    },
    /// `fetch(url)` made.
    Fetched {
        /// The URL, for messages.
        url: String,
        /// The response to come.
        response: Promise,
    },
}

impl Request {
    /// The file's text. Errors: an HTTP status other than 2xx, a failed request, no such file.
    async fn text(self) -> Result<String, String> {
        match self {
            Request::Inlined(v) => v
                .as_string()
                .ok_or_else(|| "the page has no such prose".to_owned()),
            Request::Prefetched { url, text } => match JsFuture::from(text).await {
                Ok(v) => v.as_string().ok_or_else(|| format!("{url}: not text")),
                Err(_) => Box::pin(fetch(url)?.text()).await,
            },
            Request::Fetched { url, response } => {
                let response: web_sys::Response = JsFuture::from(response)
                    .await
                    .map_err(|e| describe(&e))?
                    .dyn_into()
                    .map_err(|e| describe(&e))?;
                if !response.ok() {
                    return Err(format!("{url}: HTTP {}", response.status()));
                }
                let text = response.text().map_err(|e| describe(&e))?;
                JsFuture::from(text)
                    .await
                    .map_err(|e| describe(&e))?
                    .as_string()
                    .ok_or_else(|| format!("{url}: not text"))
            }
        }
    }
}

/// Starts getting the text of `id`'s prose file: from the inlined table when the single file
/// has one, else `fetch`ed (relative to the page, or to `worker.js` in the worker).
fn request(id: &str, lang: Lang) -> Result<Request, String> {
    let key = key(id, lang);
    let global = js_sys::global();
    if let Ok(table) = Reflect::get(&global, &"__traceDoctorProse".into()) {
        if table.is_object() {
            let text = Reflect::get(&table, &key.as_str().into()).unwrap_or(JsValue::UNDEFINED);
            return Ok(Request::Inlined(text));
        }
    }
    let url = format!("prose/{key}.json");
    // Started by index.html while the module loaded (a link's or the kept text's rules).
    if let Ok(table) = Reflect::get(&global, &"__traceDoctorPrefetch".into()) {
        if let Ok(promise) = Reflect::get(&table, &key.as_str().into())
            .unwrap_or(JsValue::UNDEFINED)
            .dyn_into::<Promise>()
        {
            let _ = Reflect::delete_property(
                table.unchecked_ref::<js_sys::Object>(),
                &key.as_str().into(),
            );
            return Ok(Request::Prefetched { url, text: promise });
        }
    }
    fetch(url)
}

/// `fetch(url)`, started.
fn fetch(url: String) -> Result<Request, String> {
    let global = js_sys::global();
    let fetch = Reflect::get(&global, &"fetch".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| "this browser has no fetch".to_owned())?;
    let response = fetch
        .call1(&global, &url.as_str().into())
        .map_err(|e| describe(&e))?
        .dyn_into::<Promise>()
        .map_err(|e| describe(&e))?;
    Ok(Request::Fetched { url, response })
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            Reflect::get(e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "the request failed".to_owned())
}

/// Loads the prose of `rules` in `lang` in the background and calls `done` when it has come
/// (or could not: the page shows the ids then).
pub fn load_then(rules: Vec<&'static Rule>, lang: Lang, done: impl FnOnce() + 'static) {
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = load(rules, lang).await {
            web_sys::console::warn_1(&format!("Trace Doctor: {e}").into());
        }
        done();
    });
}

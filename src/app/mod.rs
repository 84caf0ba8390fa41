//! The Yew single-page app (feature `web`). Components render [`crate::view`] models; all
//! parsing and matching happens in the pure core.

mod catalog;
mod chain;
mod diagram;
mod explanation;
mod finding;
mod input;
mod keys;
mod near_view;
mod persist;
pub mod progress;
mod share;
mod share_worker;
mod state;
mod trace;
pub mod wire;
pub mod worker;

pub use crate::browser::prose;
use crate::lang::Lang;
use gloo::timers::callback::Timeout;
use state::{Action, State, Status};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

/// The page's routes, in the URL fragment (`#/rules/chained-copy-cme`), so that they work from
/// any sub-path of any static host and from `file://` with no server configuration.
#[derive(Clone, Debug, PartialEq, Routable)]
pub enum Route {
    /// `#/`: the diagnoser.
    #[at("/")]
    Home,
    /// `#/rules`: the rule catalog.
    #[at("/rules")]
    Rules,
    /// `#/rules/<id>`: one rule, with its example diagnosed live.
    #[at("/rules/:id")]
    Rule {
        /// Rule id.
        id: String,
    },
    /// `#/s/<payload>`: a share link (`crate::share`): the text and choices it carries are put
    /// in the diagnoser.
    #[at("/s/:payload")]
    Shared {
        /// The link's payload.
        payload: String,
    },
    /// Anything else.
    #[not_found]
    #[at("/404")]
    NotFound,
}

/// Markdown already rendered to HTML at build time from our own rule files.
fn raw(html: &str) -> Html {
    Html::from_html_unchecked(AttrValue::from(html.to_owned()))
}

/// A click handler that brings the element with DOM id `dom` into view (opening the `details`
/// that hold it), focuses it and flashes it, instead of following the link (the fragment holds
/// the route).
fn jump_to(dom: String) -> Callback<MouseEvent> {
    Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        let find = |dom: &str| {
            web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(dom))
        };
        if let Some(el) = find(&dom) {
            reveal(&el);
        } else if traces_pending() {
            // In a trace card not built yet: build them all, then go there.
            show_all_traces();
            let dom = dom.clone();
            Timeout::new(0, move || {
                if let Some(el) = find(&dom) {
                    reveal(&el);
                }
            })
            .forget();
        }
    })
}

/// Brings `el` into view: opens the `details` that hold it (and `el` itself when it is one, as a
/// throwable is), scrolls to it (to the middle of the window when it is small, like a frame; to
/// the top when it is tall, like a trace), focuses it (a `details` through its `summary`), and
/// flashes it (again, if it flashed before).
fn reveal(el: &web_sys::Element) {
    let is_details = el.tag_name().eq_ignore_ascii_case("details");
    if is_details {
        let _ = el.set_attribute("open", "");
    }
    let mut node = el.parent_element();
    while let Some(n) = node {
        if n.tag_name().eq_ignore_ascii_case("details") {
            let _ = n.set_attribute("open", "");
        }
        node = n.parent_element();
    }
    let window_height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(if f64::from(el.client_height()) * 2.0 < window_height {
        web_sys::ScrollLogicalPosition::Center
    } else {
        web_sys::ScrollLogicalPosition::Start
    });
    el.scroll_into_view_with_scroll_into_view_options(&options);
    let _ = el.class_list().remove_1("flash");
    let summary = is_details
        .then(|| el.query_selector(":scope > summary").ok().flatten())
        .flatten();
    if let Some(h) = summary
        .as_ref()
        .unwrap_or(el)
        .dyn_ref::<web_sys::HtmlElement>()
    {
        // Focused without scrolling again: the scroll above placed it.
        focus_without_scroll(h);
    }
    if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
        // Reading the layout restarts the animation when the class comes back.
        let _ = h.offset_width();
    }
    let _ = el.class_list().add_1("flash");
}

/// Milliseconds from `performance.now()`, when the page has a Performance object.
fn now_ms() -> Option<f64> {
    Some(web_sys::window()?.performance()?.now())
}

/// Inputs at least this big (bytes) are diagnosed in the worker; smaller ones on the main thread,
/// where they take a few milliseconds (less than a round trip to the worker).
pub const WORKER_MIN_BYTES: usize = crate::tell::html::MAX_BYTES;

/// Inputs at least this big (bytes) show "working" (painted before the work starts); smaller
/// ones are diagnosed at once (~10 ms or less in wasm).
const SHOW_WORKING_FROM_BYTES: usize = 64 * 1024;

/// How long after the page first renders its warm-up starts (ms): after the diagnosis of a text
/// the page opens with, before a person can paste.
const WARM_UP_AFTER_MS: u32 = 400;

thread_local! {
    /// The page's language (the header's switch; [`Lang::En`] until the page starts): read by
    /// the reducer and the worker client, which build the view model in it.
    static LANG: std::cell::Cell<Lang> = const { std::cell::Cell::new(Lang::En) };
}

/// The page's language now.
pub(crate) fn lang() -> Lang {
    LANG.with(std::cell::Cell::get)
}

/// The language the page starts in: the one chosen with the switch and kept in this browser,
/// else Chinese when the browser prefers it (`navigator.languages`, `navigator.language`).
fn initial_lang() -> Lang {
    persist::load_lang().unwrap_or_else(|| {
        let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
            return Lang::En;
        };
        let mut tags: Vec<String> = nav
            .languages()
            .iter()
            .filter_map(|v| v.as_string())
            .collect();
        tags.extend(nav.language());
        Lang::from_browser(tags.iter().map(String::as_str))
    })
}

/// Makes `lang` the page's language: for the view models built from now on, and in
/// `<html lang>` (screen readers, fonts, hyphenation).
fn apply_lang(lang: Lang) {
    LANG.with(|l| l.set(lang));
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", lang.html_lang());
    }
}

thread_local! {
    /// The element that last had the focus in the diagnoser (`main#diagnoser`), given the focus
    /// back when the person returns from the catalog.
    static LAST_DIAGNOSER_FOCUS: RefCell<Option<web_sys::HtmlElement>> = const { RefCell::new(None) };
}

/// Records, for the page's life, the element that last took the focus inside the diagnoser.
fn track_diagnoser_focus() {
    let Some(d) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let on_focus = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::FocusEvent)>::new(
        |e: web_sys::FocusEvent| {
            let el = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
                .filter(|el| el.closest("main#diagnoser").ok().flatten().is_some());
            if let Some(el) = el {
                LAST_DIAGNOSER_FOCUS.with(|f| *f.borrow_mut() = Some(el));
            }
        },
    );
    let _ = d.add_event_listener_with_callback("focusin", on_focus.as_ref().unchecked_ref());
    on_focus.forget();
}

/// The tab's title for a route.
pub(crate) fn page_title(route: &Route, lang: Lang) -> String {
    const SITE: &str = "Trace Doctor";
    let m = lang.msgs();
    match route {
        Route::Home | Route::Shared { .. } => lang.home_title(),
        Route::Rules => format!("{} — {SITE}", m.title_rules),
        Route::Rule { id } => match crate::rules::by_id(id) {
            Some(r) => format!("{} — {SITE}", crate::lang::rule_text(r, lang).title),
            None => format!("{} — {SITE}", m.title_unknown_rule),
        },
        Route::NotFound => format!("{} — {SITE}", m.title_not_found),
    }
}

/// After a route change, puts the focus (without scrolling to it) back where it was in the
/// diagnoser when the person returns to it and that element is still there (Tab goes on from
/// it); else on the first heading of the page shown.
fn focus_after_route_change(route: &Route, d: &web_sys::Document) {
    let back = matches!(route, Route::Home)
        .then(|| LAST_DIAGNOSER_FOCUS.with(|f| f.borrow().clone()))
        .flatten()
        .filter(|el| el.is_connected());
    let target = back.or_else(|| {
        let h = d
            .query_selector("main:not([hidden]) h2, main:not([hidden]) h1")
            .ok()
            .flatten()
            .and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok())?;
        if !h.has_attribute("tabindex") {
            let _ = h.set_attribute("tabindex", "-1");
        }
        Some(h)
    });
    if let Some(el) = target {
        focus_without_scroll(&el);
    }
}

/// Focuses `el` without scrolling the page to it (the caller has placed it, or it is where the
/// person left it).
fn focus_without_scroll(el: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}

/// Saves the text waiting in `unsaved` (for its save timer) when the page is hidden or left
/// (`visibilitychange`, `pagehide`): a reload or a closed tab right after typing loses nothing.
/// The listeners live as long as the page.
fn keep_on_hide(unsaved: Rc<RefCell<Option<String>>>) {
    on_page_hidden(move || {
        if let Some(text) = unsaved.borrow_mut().take() {
            let _ = persist::save(&text);
        }
    });
}

/// Calls `f` each time the page is hidden (`visibilitychange`) or left (`pagehide`), for the
/// page's life: the last moment to keep what the person typed.
pub(crate) fn on_page_hidden(f: impl Fn() + 'static) {
    let flush = wasm_bindgen::closure::Closure::<dyn Fn()>::new(f);
    if let Some(w) = web_sys::window() {
        let f = flush.as_ref().unchecked_ref();
        let _ = w.add_event_listener_with_callback("pagehide", f);
        if let Some(d) = w.document() {
            let _ = d.add_event_listener_with_callback("visibilitychange", f);
        }
    }
    flush.forget();
}

/// Sets a Performance API mark ([`crate::browser::mark`]), read by `scripts/budgets.mjs`.
/// The app's names: [`MARK_MOUNTED`], [`MARK_DIAGNOSIS_SHOWN`], and the steps of a diagnosis on
/// the page's thread between them (`td:diagnose-start`, `td:diagnosed`, `td:prose-loaded` when
/// the findings' prose had to be fetched, `td:model-built`); `td:main` is set by
/// `src/bin/web.rs`.
pub(crate) use crate::browser::mark;

/// Removes the first view (`index.html`'s `#first`, written by `crate::browser::first` before
/// this module loaded), which hides the app's elements while it has content. What the person did
/// there is kept: the sections they opened or closed (matched by DOM id, else by trace, finding
/// and class: [`details_key`]) and how far they scrolled (the app's page has the same layout).
fn leave_first_view() {
    let document = gloo::utils::document();
    let Some(first) = document.get_element_by_id(crate::browser::first::ROOT_ID) else {
        return;
    };
    let opened: std::collections::HashMap<String, bool> = details_in(&first)
        .into_iter()
        .map(|d| (details_key(&d), d.open()))
        .collect();
    let window = gloo::utils::window();
    let scroll = window.scroll_y().unwrap_or(0.0);
    // The element with the focus, as the app's own: the same DOM id, the same link, or the
    // summary of the same section.
    let focused = document
        .active_element()
        .filter(|el| first.contains(Some(el)))
        .and_then(|el| {
            if !el.id().is_empty() {
                return Some(format!("#{}", el.id()));
            }
            if let Some(href) = el.get_attribute("href").filter(|h| h.starts_with("#t")) {
                return Some(format!("a[href=\"{href}\"]"));
            }
            let details = el.parent_element()?.dyn_into().ok()?;
            (el.tag_name() == "SUMMARY").then(|| format!("summary {}", details_key(&details)))
        });
    let had_content = first.child_element_count() > 0;
    first.remove();
    if had_content {
        FIRST_VIEW_LEFT.with(|f| f.set(true));
    }
    let Some(app) = document.get_element_by_id("app") else {
        return;
    };
    let mut summaries = Vec::new();
    for d in details_in(&app) {
        let key = details_key(&d);
        if let Some(&open) = opened.get(&key) {
            d.set_open(open);
        }
        if focused.as_deref() == Some(format!("summary {key}").as_str()) {
            summaries.extend(d.first_element_child());
        }
    }
    if scroll > 0.0 {
        window.scroll_to_with_x_and_y(0.0, scroll);
    }
    let target = summaries.into_iter().next().or_else(|| {
        let selector = focused.filter(|f| !f.starts_with("summary "))?;
        // Ids and links of the diagnosis only: anything else is not a selector to run.
        let safe = selector
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "#-_[]=\"".contains(c))
            || selector.starts_with("a[href=");
        safe.then(|| app.query_selector(&selector).ok().flatten())
            .flatten()
    });
    if let Some(el) = target.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
        focus_without_scroll(&el);
    }
}

thread_local! {
    /// Whether the app took a first view's place (the diagnosis was on the screen before it):
    /// it then does not scroll a phone to the trace again.
    static FIRST_VIEW_LEFT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The `details` elements inside `root`, in document order.
fn details_in(root: &web_sys::Element) -> Vec<web_sys::HtmlDetailsElement> {
    let Ok(list) = root.query_selector_all("details") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlDetailsElement>().ok())
        .collect()
}

/// What a `details` of the diagnosis is, the same in the first view and in the app: its DOM id
/// (a throwable, a fold), else its trace card's id, its finding's rule and its class (a
/// finding's "Why it happens").
fn details_key(d: &web_sys::HtmlDetailsElement) -> String {
    if !d.id().is_empty() {
        return d.id();
    }
    let around = |selector: &str, attribute: &str| {
        d.closest(selector)
            .ok()
            .flatten()
            .and_then(|e| e.get_attribute(attribute))
            .unwrap_or_default()
    };
    format!(
        "{}|{}|{}",
        around("article.trace", "id"),
        around(".finding[data-rule]", "data-rule"),
        d.class_name()
    )
}

/// Mark set when the page's component first renders (the wasm is loaded and running).
pub const MARK_MOUNTED: &str = "td:mounted";
/// Mark set each time a diagnosis is on the screen (after the DOM holds it).
pub const MARK_DIAGNOSIS_SHOWN: &str = "td:diagnosis-shown";

/// Mark set when the last trace card of a big input's result is rendered (they come one per task
/// after the first: [`ResultsProps::progressive`]).
pub const MARK_ALL_TRACES_SHOWN: &str = "td:all-traces-shown";

/// Publishes timings for the end-to-end test and the budget script, and sets the
/// [`MARK_DIAGNOSIS_SHOWN`] mark.
fn publish_timings(t: state::Timings) {
    mark(MARK_DIAGNOSIS_SHOWN);
    let Some(window) = web_sys::window() else {
        return;
    };
    let obj = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&obj, &"diagnose_ms".into(), &t.diagnose_ms.into());
    let _ = js_sys::Reflect::set(&obj, &"bytes".into(), &(t.bytes as f64).into());
    let _ = js_sys::Reflect::set(&obj, &"worker".into(), &t.worker.into());
    let _ = js_sys::Reflect::set(&obj, &"wall_ms".into(), &t.wall_ms.into());
    let _ = js_sys::Reflect::set(&window, &"__traceDoctorTimings".into(), &obj);
}

/// In-page benchmark (exported to JavaScript as `window.wasmBindings.bench_diagnose`): parses
/// and diagnoses `text` and builds its view model `iterations` times, and returns
/// `[mean, median, min, max]` in milliseconds per run. The mean comes from the total elapsed
/// time, so it stays precise where the browser coarsens `performance.now()` (to 0.1 ms here).
/// The end-to-end run reports it.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_diagnose(text: &str, iterations: u32) -> Vec<f64> {
    let (Some(t0), n) = (now_ms(), iterations.max(1)) else {
        return Vec::new();
    };
    let mut times: Vec<f64> = (0..n)
        .filter_map(|_| {
            let start = now_ms()?;
            let diagnosis = crate::diagnose(text);
            let _ = std::hint::black_box(crate::view::build(text, &diagnosis));
            Some(now_ms()? - start)
        })
        .collect();
    let total = now_ms().map_or(0.0, |t1| t1 - t0);
    if times.is_empty() {
        return Vec::new();
    }
    times.sort_by(f64::total_cmp);
    vec![
        total / f64::from(n),
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
    ]
}

/// The page: the hash router around [`Page`].
#[function_component(App)]
pub fn app() -> Html {
    html! { <HashRouter><Page /></HashRouter> }
}

/// The diagnoser and the catalog. The diagnoser stays mounted (hidden) while a catalog page is
/// shown, so the text and its diagnosis are still there when the person comes back.
#[function_component(Page)]
fn page() -> Html {
    let routed = use_route::<Route>();
    let route = match routed {
        // A link the router cannot read (a damaged percent escape, `%zz`): still a share link,
        // whose decoder says where it is damaged and what it could restore.
        Some(Route::NotFound) | None if raw_share_payload().is_some() => Route::Shared {
            payload: raw_share_payload().unwrap_or_default(),
        },
        Some(r) => r,
        None => Route::Home,
    };
    // The language: chosen with the header's switch (kept in this browser), else the browser's.
    let lang = use_state(|| {
        let lang = initial_lang();
        apply_lang(lang);
        lang
    });
    let m = lang.msgs();
    // Before the input panel first renders: a tab opened on a share link keeps the text another
    // tab kept restorable (the link's text replaces it as the kept text).
    {
        let shared = matches!(route, Route::Shared { .. });
        use_state(move || {
            if shared {
                persist::keep_other_tabs_text_restorable();
            }
        });
    }
    let navigator = use_navigator();
    // A text to put into the input (the catalog's "Open this example"), numbered so that the
    // same text can be loaded twice.
    let load = use_state(|| None::<input::Load>);
    let on_open = {
        let load = load.clone();
        let navigator = navigator.clone();
        Callback::from(move |text: String| {
            let n = load.as_ref().map_or(1, |l| l.n + 1);
            load.set(Some(input::Load {
                n,
                text: Rc::from(text),
                own: false,
            }));
            if let Some(nav) = &navigator {
                nav.push(&Route::Home);
            }
        })
    };
    {
        // A new page starts at its top, says what it is in the tab's title, and (after the first
        // page) takes the focus on its heading, so keyboard and screen-reader users land on it.
        let route = route.clone();
        let first = use_mut_ref(|| true);
        use_effect_with(route, move |route| {
            if let Some(w) = web_sys::window() {
                // Not under a first view being read: it keeps its place until the app takes it.
                let reading = w
                    .document()
                    .and_then(|d| d.get_element_by_id(crate::browser::first::ROOT_ID))
                    .is_some_and(|f| f.child_element_count() > 0);
                if !reading {
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
                if let Some(d) = w.document() {
                    d.set_title(&page_title(route, self::lang()));
                    if !std::mem::replace(&mut *first.borrow_mut(), false)
                        && !matches!(route, Route::Shared { .. })
                    {
                        focus_after_route_change(route, &d);
                    }
                }
            }
        });
    }
    let state = use_reducer(State::default);
    // The keyboard shortcuts and their help (`?`).
    let help = use_state(|| false);
    keys::use_shortcuts(help.clone());
    // The pending debounce timer; replacing it cancels the previous one.
    let timer: Rc<RefCell<Option<Timeout>>> = use_mut_ref(|| None);

    // The diagnosis worker, started on the first big input.
    let client = {
        let dispatcher = state.dispatcher();
        use_memo((), move |_| worker::Client::new(dispatcher))
    };

    let schedule = {
        let state = state.clone();
        let timer = timer.clone();
        let client = client.clone();
        Callback::from(move |(generation, delay, text): (u64, u32, Rc<str>)| {
            let dispatcher = state.dispatcher();
            if delay == 0 && text.len() < SHOW_WORKING_FROM_BYTES {
                // A paste, a link or a kept text, done within a frame or two: diagnosed in this
                // task, so the page renders the result once, without a "Reading…" render first.
                *timer.borrow_mut() = None;
                dispatcher.dispatch(Action::Diagnose {
                    generation,
                    now: now_ms,
                    then: dispatcher.clone(),
                });
                return;
            }
            if delay == 0 && text.len() >= WORKER_MIN_BYTES {
                // A big paste, drop or link: handed to the worker now, not after a timer, so it
                // is diagnosed while the browser lays out the text area it fills (Chromium's
                // own style, layout and paint of a 1 MB text area: ~400 ms on two cores).
                *timer.borrow_mut() = None;
                dispatcher.dispatch(Action::Working(generation));
                if let worker::Submitted::Worker = client.submit(generation, &text) {
                    return;
                }
            }
            let client = client.clone();
            let t = Timeout::new(delay, move || {
                if text.len() < SHOW_WORKING_FROM_BYTES {
                    // Done within a frame or two: no "working" state to paint first.
                    dispatcher.dispatch(Action::Diagnose {
                        generation,
                        now: now_ms,
                        then: dispatcher.clone(),
                    });
                    return;
                }
                dispatcher.dispatch(Action::Working(generation));
                if text.len() >= WORKER_MIN_BYTES {
                    if let worker::Submitted::Worker = client.submit(generation, &text) {
                        return;
                    }
                }
                // Give the browser a frame to paint "working" before the work starts.
                let d2 = dispatcher.clone();
                Timeout::new(16, move || {
                    d2.dispatch(Action::Diagnose {
                        generation,
                        now: now_ms,
                        then: d2.clone(),
                    })
                })
                .forget();
            });
            *timer.borrow_mut() = Some(t);
        })
    };

    // The text is kept in this browser (localStorage) a moment after each change, and at once
    // when the page is hidden, reloaded or closed before that moment.
    let kept = use_state(|| None::<persist::Kept>);
    // Read once per text, not at each render (a 5 MB text is scanned for its line breaks).
    let long_line = use_memo(state.input.clone(), |text| input::long_line(text));
    let save_timer: Rc<RefCell<Option<Timeout>>> = use_mut_ref(|| None);
    let unsaved: Rc<RefCell<Option<String>>> = use_mut_ref(|| None);
    // The text the page opened with from this browser's storage: kept already, not saved again.
    let restored: Rc<RefCell<Option<String>>> = use_mut_ref(|| None);
    {
        let unsaved = unsaved.clone();
        use_effect_with((), move |_| {
            keep_on_hide(unsaved);
            track_diagnoser_focus();
        });
    }
    let on_input = {
        let state = state.clone();
        let schedule = schedule.clone();
        let kept = kept.clone();
        let client = client.clone();
        let restored = restored.clone();
        let navigator = navigator.clone();
        Callback::from(move |(text, immediate): (String, bool)| {
            let from_storage = restored.borrow_mut().take().is_some_and(|r| r == text);
            // The address keeps a link while the input holds its text as it came (it can be
            // bookmarked and forwarded); the person's own text is not the link's any more.
            if !from_storage && on_share_link() && !persist::is_borrowed(&text) {
                if let Some(nav) = &navigator {
                    nav.replace(&Route::Home);
                }
            }
            if from_storage {
                *unsaved.borrow_mut() = None;
                *save_timer.borrow_mut() = None;
                kept.set(Some(persist::Kept::Yes));
            } else {
                *unsaved.borrow_mut() = Some(text.clone());
                let unsaved = unsaved.clone();
                let kept = kept.clone();
                *save_timer.borrow_mut() = Some(Timeout::new(500, move || {
                    if let Some(text) = unsaved.borrow_mut().take() {
                        kept.set(Some(persist::save(&text)));
                    }
                }));
            }
            let bytes = text.len();
            let generation = state.generation + 1;
            let text: Rc<str> = Rc::from(text);
            // A busy worker holds an older input: stop it; start one early for a big input.
            client.new_input(bytes >= WORKER_MIN_BYTES);
            state.dispatch(Action::Input(text.clone()));
            schedule.emit((
                generation,
                if immediate {
                    0
                } else {
                    input::debounce_ms(bytes)
                },
                text,
            ));
        })
    };

    // The first keystroke after a pause: the diagnosis shown is of an older text, and a busy
    // worker holds it (the text itself is read when the person pauses).
    let on_edit = {
        let state = state.clone();
        let client = client.clone();
        let timer = timer.clone();
        Callback::from(move |()| {
            *timer.borrow_mut() = None;
            client.new_input(false);
            state.dispatch(Action::Edited);
        })
    };

    // A share link puts its text in the input (the text there before can be restored); on a
    // plain visit the text kept from the last one comes back.
    let notice = use_state(|| None::<LinkNotice>);
    // What a link chose, brought into view once its text is diagnosed.
    let focus = use_state(|| None::<Focus>);
    {
        let load = load.clone();
        let notice = notice.clone();
        let focus = focus.clone();
        let navigator = navigator.clone();
        let first = use_mut_ref(|| true);
        use_effect_with(route.clone(), move |route| {
            let first_visit = std::mem::replace(&mut *first.borrow_mut(), false);
            let next = load.as_ref().map_or(1, |l| l.n + 1);
            let mut plain_visit = first_visit;
            if let Route::Shared { payload } = route {
                let (text, shown) = open_link(payload);
                match text {
                    Some(text) => {
                        load.set(Some(input::Load {
                            n: next,
                            text: Rc::from(text),
                            own: false,
                        }));
                        plain_visit = false;
                    }
                    // Nothing could be read: a visit like any other (the text kept in this
                    // browser comes back), and the address no longer holds the broken link.
                    None => {
                        if let Some(nav) = &navigator {
                            nav.replace(&Route::Home);
                        }
                    }
                }
                focus.set(Some(shown.focus.clone()));
                notice.set(Some(shown));
            }
            if plain_visit {
                if let Some(text) = persist::load() {
                    *restored.borrow_mut() = Some(text.clone());
                    load.set(Some(input::Load {
                        n: next,
                        own: !persist::is_borrowed(&text),
                        text: Rc::from(text),
                    }));
                }
            }
        });
    }

    // Compile the rule catalogue and the context patterns while the page is idle after load, so
    // the first paste is diagnosed at warm speed (compiling costs ~50-100 ms in wasm), and start
    // the worker, so a big paste does not wait for it. A text the page opened with (a link, a
    // kept text) is diagnosed first: its diagnosis warms the same things.
    {
        let client = client.clone();
        let generation = state.generation;
        let latest = use_mut_ref(|| 0u64);
        *latest.borrow_mut() = generation;
        let diagnoser = matches!(route, Route::Home | Route::Shared { .. });
        use_effect_with((), move |_| {
            mark(MARK_MOUNTED);
            // A first view left on another route (the app opened there): the route's page shows.
            // An empty one (nothing to show first, or not yet shown) goes too.
            let empty = gloo::utils::document()
                .get_element_by_id(crate::browser::first::ROOT_ID)
                .is_some_and(|f| f.child_element_count() == 0);
            if !diagnoser || empty {
                leave_first_view();
            }
            // The static "starting" note of index.html has done its job.
            if let Some(note) = gloo::utils::document().get_element_by_id("loading") {
                note.remove();
            }
            Timeout::new(WARM_UP_AFTER_MS, move || {
                if *latest.borrow() == 0 {
                    // Nothing to diagnose here after all (the app read the kept text otherwise):
                    // a first view would never be taken over.
                    leave_first_view();
                    let _ = crate::rules::catalogue();
                    let _ = crate::diagnose(crate::FLAGSHIP_EXAMPLE);
                }
                client.warm();
            })
            .forget();
        });
    }

    // The first view gives way once this diagnosis is on the screen (or could not be made),
    // before anything looks up elements by their DOM ids (its elements have the same ids).
    {
        let status = state.status;
        use_effect_with((status, state.generation), move |_| {
            if matches!(status, Status::Done | Status::Error) {
                leave_first_view();
            }
        });
    }
    {
        let focus = focus.clone();
        let status = state.status;
        use_effect_with((status, state.generation), move |_| {
            if status == Status::Done {
                if let Some((trace, finding, options)) = (*focus).clone() {
                    apply_view_options(&options);
                    bring_into_view(trace, finding.as_deref());
                    focus.set(None);
                }
            }
        });
    }
    {
        let timings = state.timings;
        let status = state.status;
        let model = state.model.clone();
        use_effect_with((status, state.generation), move |_| {
            if status == Status::Done {
                publish_timings(timings);
                // The text is kept for the next visit: so are its rules, to fetch their prose early.
                if let Some(model) = model {
                    persist::save_prose_hint(&model);
                }
            }
        });
    }

    // The switch: the view model is built again in the new language (the text is read again).
    let on_lang = {
        let lang = lang.clone();
        let on_input = on_input.clone();
        let state = state.clone();
        move |to: Lang| {
            let lang = lang.clone();
            let on_input = on_input.clone();
            let state = state.clone();
            Callback::from(move |_: MouseEvent| {
                if *lang == to {
                    return;
                }
                apply_lang(to);
                persist::save_lang(to);
                lang.set(to);
                if let Some(d) = web_sys::window().and_then(|w| w.document()) {
                    d.set_title(&page_title(&route_now(), to));
                }
                if state.status != Status::Idle {
                    on_input.emit((state.input.to_string(), true));
                }
            })
        }
    };

    let l = *lang;
    let status_text = match state.status {
        Status::Idle => m.status_idle.to_owned(),
        Status::Pending => m.status_pending.to_owned(),
        Status::Working => working_text(state.input.len(), state.progress, l),
        Status::Error => l.could_not_diagnose(state.error.as_deref().unwrap_or(m.unknown_error)),
        Status::Done => match &state.model {
            Some(model) if model.traces.is_empty() => m.status_no_trace.to_owned(),
            Some(model) => {
                let n = model.total_traces;
                let ms = state.timings.diagnose_ms;
                let stacks = model
                    .index
                    .iter()
                    .filter(|r| r.what.starts_with("thread "))
                    .count();
                if model.threads > 0 && stacks == n {
                    l.done_thread_dump(model.threads, n, ms)
                } else {
                    l.done(n, model.diagnosed_traces, ms)
                }
            }
            None => String::new(),
        },
    };

    html! {
        <ContextProvider<Lang> context={l}>
        <header class="top">
            <h1><span class="logo" aria-hidden="true">{"⚕"}</span>{" Trace Doctor"}</h1>
            <nav class="site-nav" aria-label={m.nav_label}>
                <Link<Route> to={Route::Home} classes={classes!((route == Route::Home).then_some("current"))}>{ m.nav_diagnose }</Link<Route>>
                <Link<Route> to={Route::Rules} classes={classes!(matches!(route, Route::Rules | Route::Rule { .. }).then_some("current"))}>{ l.nav_rules(crate::rules::COUNT) }</Link<Route>>
            </nav>
            <keys::ShortcutsButton help={help.clone()} />
            <div class="lang-switch" role="group" aria-label={m.lang_switch_label}>
                <button type="button" id="lang-zh" lang="zh-CN" aria-pressed={(l == Lang::Zh).to_string()} onclick={on_lang(Lang::Zh)}>{"中文"}</button>
                <span aria-hidden="true">{" / "}</span>
                <button type="button" id="lang-en" lang="en" aria-pressed={(l == Lang::En).to_string()} onclick={on_lang(Lang::En)}>{"English"}</button>
            </div>
            <p class="tagline">{ m.tagline }</p>
        </header>
        if *help {
            <keys::ShortcutsHelp help={help.clone()} />
        }
        if !matches!(route, Route::Home | Route::Shared { .. }) {
            <main class="layout catalog-layout">
                { match &route {
                    Route::Rules => html! { <catalog::RuleList /> },
                    Route::Rule { id } => html! { <catalog::RulePageView id={AttrValue::from(id.clone())} on_open={on_open.clone()} /> },
                    // `#/s/` with nothing after it: a share link cut right after its route.
                    _ if web_sys::window().and_then(|w| w.location().hash().ok()).is_some_and(|h| h.starts_with("#/s")) => html! {
                        <section class="catalog" role="alert">
                            <h2>{ m.empty_link_heading }</h2>
                            <p>{ m.empty_link_body }<Link<Route> to={Route::Home}>{ m.go_to_diagnoser }</Link<Route>>{ m.own_text_kept }</p>
                        </section>
                    },
                    _ => html! {
                        <section class="catalog" role="alert">
                            <h2>{ m.not_found_heading }</h2>
                            <p>{ m.not_found_body }<Link<Route> to={Route::Home}>{ m.go_to_diagnoser }</Link<Route>>{ m.or }<Link<Route> to={Route::Rules}>{ m.browse_rules }</Link<Route>>{ m.full_stop }</p>
                        </section>
                    },
                } }
            </main>
        }
        <main id="diagnoser" class="layout" hidden={!matches!(route, Route::Home | Route::Shared { .. })}>
            <input::InputPanel on_input={on_input} {on_edit} has_text={!state.input.trim().is_empty()} long_line={*long_line} load={(*load).clone()} kept={*kept} on_example={{
                // Once diagnosed, the example's finding is brought into view (on a phone it is
                // below the input).
                let focus = focus.clone();
                Callback::from(move |()| focus.set(Some((None, None, crate::share::link::ViewOptions::default()))))
            }} />
            <section class="result" aria-label={m.result_label}>
                if let Some(n) = &*notice {
                    <div id="link-notice" class={classes!("link-notice", n.error.then_some("error"))} role={if n.error { "alert" } else { "status" }}>
                        <p>{ &n.message }</p>
                        <button type="button" onclick={{ let notice = notice.clone(); Callback::from(move |_: MouseEvent| notice.set(None)) }}>{ m.dismiss }</button>
                    </div>
                }
                <p id="status" class={classes!("status", state.status.as_str())} data-state={state.status.as_str()} role="status" aria-live="polite"
                    aria-busy={(state.status == Status::Working).then_some("true")}>{ status_text }</p>
                // A bar for the big inputs the worker reads (a small one is done before it shows).
                if state.status == Status::Working && state.input.len() >= WORKER_MIN_BYTES {
                    <progress id="progress" class="work" max="100" aria-label={m.progress_label}
                        value={percent(state.progress).map(|p| p.to_string())}></progress>
                }
                <div class={classes!("results", (state.status != Status::Done).then_some("stale"))}
                    aria-busy={(state.status != Status::Done && state.model.is_some()).then_some("true")}>
                    if let Some(model) = &state.model {
                        <ContextProvider<share::Stale> context={share::Stale(state.status != Status::Done)}>
                            <Results model={model.clone()} text={state.diagnosed.clone()}
                                progressive={(state.timings.worker && focus.is_none()).then_some(state.generation)}
                                grow={state.status == Status::Done} />
                        </ContextProvider<share::Stale>>
                    }
                </div>
            </section>
        </main>
        <footer class="foot">
            <p>{ m.footer }</p>
        </footer>
        </ContextProvider<Lang>>
    }
}

/// What the page says about a share link it opened.
#[derive(Clone, Debug, PartialEq)]
struct LinkNotice {
    /// One or two sentences.
    message: String,
    /// The link could not be read whole.
    error: bool,
    /// The trace (1-based number), finding (rule id) and opened/closed sections the link
    /// carries, applied once the text is diagnosed.
    focus: Focus,
}

/// What a share link chose: trace number, finding (rule id), opened/closed sections.
type Focus = (
    Option<usize>,
    Option<String>,
    crate::share::link::ViewOptions,
);

/// Opens and closes the sections (`details` by DOM id) as a share link says.
fn apply_view_options(options: &crate::share::link::ViewOptions) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for (ids, open) in [(&options.opened, true), (&options.closed, false)] {
        for id in ids {
            if let Some(el) = doc.get_element_by_id(id) {
                if el.has_attribute("data-default-open") {
                    let _ = if open {
                        el.set_attribute("open", "")
                    } else {
                        el.remove_attribute("open")
                    };
                }
            }
        }
    }
}

/// Brings the chosen finding (in the chosen trace, else the first trace that has it) or the
/// chosen trace into view, opening the finding's explanation. Unknown choices are ignored.
fn bring_into_view(trace: Option<usize>, finding: Option<&str>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let card = trace.map(|n| format!("#t{n}"));
    let selectors = [
        card.as_ref()
            .zip(finding)
            .map(|(c, f)| format!("{c} .finding[data-rule=\"{f}\"]")),
        finding.map(|f| format!(".finding[data-rule=\"{f}\"]")),
        card,
    ];
    // Rule ids and numbers only: anything else in a link is not a selector to run.
    let safe = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || " #.-[]=\"_".contains(c))
    };
    let el = selectors
        .into_iter()
        .flatten()
        .filter(|s| safe(s))
        .find_map(|s| doc.query_selector(&s).ok().flatten());
    if let Some(el) = el {
        if let Ok(Some(d)) = el.query_selector("details.explanation") {
            let _ = d.set_attribute("open", "");
        }
        reveal(&el);
    } else if stacked_layout() && !FIRST_VIEW_LEFT.with(std::cell::Cell::get) {
        // Nothing chosen, on a phone: the diagnosis is below the input, out of sight; a link
        // is opened to read it. (The first view did so already: the person may have read on.)
        if let Ok(Some(first)) = doc.query_selector("article.trace") {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Start);
            first.scroll_into_view_with_scroll_into_view_options(&options);
        }
    }
}

/// Whether the input and the result are stacked (narrow screens: `style/main.css` stacks them
/// below 900 px), so the result starts below the input.
fn stacked_layout() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w < 900.0)
}

/// Whether the person has a text of their own that a link's text will put behind "Restore
/// previous text": one kept from before, or one in the input now that is not a link's or an
/// example's left unedited, nor the example.
fn own_text_restorable() -> bool {
    let in_input = input::trace_input()
        .map(|t| t.value())
        .is_some_and(|v| input::worth_restoring(&v) && !persist::is_borrowed(&v));
    in_input || persist::load_previous().is_some()
}

/// Reads a share link's payload: the text to put in the input (all of it, or what could be
/// restored from a damaged link) and what to tell the person.
fn open_link(payload: &str) -> (Option<String>, LinkNotice) {
    let m = lang().msgs();
    match crate::share::link::decode(payload) {
        Ok(state) => {
            let message = if state.left_out.is_empty() {
                format!(
                    "{}{}",
                    m.link_opened,
                    if own_text_restorable() {
                        m.link_own_text
                    } else {
                        ""
                    }
                )
            } else {
                format!(
                    "{}{}{}",
                    m.link_shortened,
                    state.left_out.join("; "),
                    m.link_shortened_end
                )
            };
            (
                Some(state.text),
                LinkNotice {
                    message,
                    error: false,
                    focus: (state.trace, state.finding, state.options),
                },
            )
        }
        Err(e) => {
            let text = e.recovered().map(|r| r.state.text.clone());
            let kept = if text.is_some() && own_text_restorable() {
                m.link_partial_restorable
            } else if text.is_some() {
                m.link_partial
            } else {
                m.link_nothing
            };
            (
                text,
                LinkNotice {
                    message: format!("{e}{kept}"),
                    error: true,
                    focus: (None, None, crate::share::link::ViewOptions::default()),
                },
            )
        }
    }
}

/// The payload of a share link as the address holds it, not decoded (`#/s/<payload>`); `None`
/// when the address is no share link or the payload is empty.
fn raw_share_payload() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let payload = hash.strip_prefix("#/s/")?;
    (!payload.is_empty()).then(|| payload.to_owned())
}

/// Whether the address is a share link (`#/s/…`).
fn on_share_link() -> bool {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|h| h.starts_with("#/s/"))
}

/// How far the worker got, in percent, when it can say (matching rules, preparing the result).
fn percent(progress: Option<progress::Stage>) -> Option<usize> {
    match progress? {
        progress::Stage::Reading => None,
        progress::Stage::Matching { done, total } => {
            Some((done * 100).checked_div(total).unwrap_or(100))
        }
        progress::Stage::Building => Some(100),
    }
}

/// "Diagnosing 10.2 MB… 40%": the size, then what the worker reported (stages it cannot measure
/// are named, not given a made-up percentage).
fn working_text(bytes: usize, progress: Option<progress::Stage>, lang: Lang) -> String {
    let size = if bytes >= 1_000_000 {
        format!("{:.1} MB", bytes as f64 / 1_000_000.0)
    } else {
        format!("{} KB", bytes.div_ceil(1000))
    };
    match progress {
        None => lang.diagnosing(&size),
        Some(progress::Stage::Reading) => lang.diagnosing_reading(&size),
        Some(progress::Stage::Matching { done, total }) => {
            lang.diagnosing_matching(&size, percent(progress).unwrap_or(100), done, total)
        }
        Some(progress::Stage::Building) => lang.diagnosing_building(&size),
    }
}

/// The route in the address bar now (for the tab's title when the language changes).
fn route_now() -> Route {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    Route::recognize(hash.trim_start_matches('#')).unwrap_or(Route::Home)
}

/// Trace cards a big input's result shows at once ([`ResultsProps::progressive`]).
const FIRST_CARDS: usize = 1;

/// The window event that asks a progressive result for all its trace cards now
/// ([`show_all_traces`]): something on the page points into a card not built yet.
const SHOW_ALL_TRACES: &str = "td-show-all-traces";

/// Asks the result for all its trace cards now (a link or a key points into a card a progressive
/// result has not built yet); they are on the page when the current task's microtasks have run
/// (Yew renders in a microtask), so a `Timeout(0)` after this call finds them.
fn show_all_traces() {
    if let Some(w) = web_sys::window() {
        if let Ok(e) = web_sys::CustomEvent::new(SHOW_ALL_TRACES) {
            let _ = w.dispatch_event(&e);
        }
    }
}

/// Whether the page holds trace cards a progressive result has not built yet.
fn traces_pending() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("main:not([hidden]) .more-traces")
                .ok()
                .flatten()
        })
        .is_some()
}

/// Properties of [`Results`].
#[derive(Properties)]
struct ResultsProps {
    /// The page model.
    model: Rc<crate::view::PageModel>,
    /// The text the model is the result of (the Share panel shares it).
    text: Rc<str>,
    /// `Some(generation)`: the first trace card is built with the result, each further one when
    /// the end of the cards built comes within a window height of the window ([`near_view`]; a
    /// big input's result: ten cards of a log's traces are ~1,600 elements, and with the text
    /// area focused each card's frame is 50-80 ms of the page's thread on two cores, while the
    /// first card is the whole first screen), or all at once when something points into one not
    /// built ([`show_all_traces`]); the cards already built stay and are updated when a new
    /// result comes.
    /// `None`: all at once (a link brings a chosen trace into view; the first view, which the
    /// app takes over, shows them all).
    progressive: Option<u64>,
    /// Whether the progressive rendering may build its next card now: not while the person is
    /// editing the text (the keys come first).
    grow: bool,
}

/// By identity: a model is never changed once made, and comparing two big models field by field
/// on every keystroke would cost more than the render it saves.
impl PartialEq for ResultsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.model, &other.model)
            && Rc::ptr_eq(&self.text, &other.text)
            && self.progressive == other.progressive
            && self.grow == other.grow
    }
}

/// The result: the list of traces when there are several, then each trace (its diagnosis
/// first), with the Share panel after the first trace's findings so that it never pushes the
/// diagnosis down.
#[function_component(Results)]
fn results(props: &ResultsProps) -> Html {
    let model = &props.model;
    let lang = use_context::<Lang>().unwrap_or_default();
    let m = lang.msgs();
    let share = || html! { <share::Share text={props.text.clone()} /> };
    // How many trace cards a progressive render shows: they only grow (a new result of the same
    // text, as the person edits it, updates the cards in place instead of building them again).
    let cards = use_state(|| FIRST_CARDS);
    let count = if props.progressive.is_some() {
        *cards
    } else {
        usize::MAX
    };
    let total = model.traces.len();
    // After the last card built, while more are to come: its coming near the window builds the
    // next one.
    let more = use_node_ref();
    {
        let cards = cards.clone();
        let more = more.clone();
        use_effect_with(
            (props.progressive, count, total, props.grow),
            move |&(generation, count, total, grow)| {
                if generation.is_some() && count >= total {
                    mark(MARK_ALL_TRACES_SHOWN);
                }
                let next = (grow && generation.is_some() && count < total)
                    .then(|| more.cast::<web_sys::Element>())
                    .flatten()
                    .and_then(|el| near_view::NearView::watch(&el, move || cards.set(count + 1)));
                move || drop(next)
            },
        );
    }
    {
        let cards = cards.clone();
        let pending = props.progressive.is_some() && count < total;
        yew_hooks::use_event_with_window(SHOW_ALL_TRACES, move |_: Event| {
            if pending {
                cards.set(total);
            }
        });
    }
    if model.traces.is_empty() {
        return html! {
            <div class="no-trace" role="note">
                <h2>{ m.no_trace_heading }</h2>
                <p>{ m.no_trace_looks_for }<code>{"at org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)"}</code>{ m.no_trace_under }<code>{"java.io.IOException: …"}</code>{ m.full_stop }</p>
                <p>{ m.no_trace_paste }</p>
            </div>
        };
    }
    html! {
        <>
        <>{ for model.deadlocks.iter().map(|line| html! {
            <p class="deadlock" role="alert">{ lang.deadlock(*line) }</p>
        }) }</>
        if model.index.len() > 1 {
            <TraceIndex model={model.clone()} />
        }
        // A list of its own, keyed: `html!` puts the items of a `for` among their siblings, and
        // Yew matches the children of an unkeyed list from its end, so a card added there was
        // patched into the card before it, that one into the list of traces, and so on (every
        // card and the list built again, the Share panel in the first card closed).
        <>{ for model.traces.iter().take(count).enumerate().map(|(i, t)| html! {
            <trace::TraceCard key={t.dom_id.clone()} trace={t.clone()} has_share={i == 0}>{ if i == 0 { share() } else { html! {} } }</trace::TraceCard>
        }) }</>
        if count < total {
            <div class="more-traces" ref={more} aria-hidden="true"></div>
        }
        if !model.problems.is_empty() {
            <details class="problems">
                <summary>{ lang.problems(model.problems.len()) }</summary>
                <ul>{ for model.problems.iter().take(100).map(|(line, msg)| html! { <li>{ format!("line {line}: {msg}") }</li> }) }</ul>
            </details>
        }
        </>
    }
}

/// Properties of [`TraceIndex`].
#[derive(Properties)]
struct TraceIndexProps {
    /// The page model (its `index`, `total_traces`, `hidden_traces`).
    model: Rc<crate::view::PageModel>,
}

/// By identity, as [`ResultsProps`].
impl PartialEq for TraceIndexProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.model, &other.model)
    }
}

/// The list of a text's distinct traces: open when it is short (12 rows or fewer), closed
/// otherwise, and then its rows are built only once it is opened (a log's 137 rows are ~550
/// elements the first screen does not show).
#[function_component(TraceIndex)]
fn trace_index(props: &TraceIndexProps) -> Html {
    let model = &props.model;
    let lang = use_context::<Lang>().unwrap_or_default();
    // Whether it is open, for the model it was set for (a new model starts as its length says).
    let id = Rc::as_ptr(model) as usize;
    let state = use_state(|| (id, model.index.len() <= 12));
    let open = if state.0 == id {
        state.1
    } else {
        model.index.len() <= 12
    };
    let ontoggle = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            if let Some(d) = e.target_dyn_into::<web_sys::HtmlDetailsElement>() {
                if d.open() != open {
                    state.set((id, d.open()));
                }
            }
        })
    };
    html! {
        <details class="trace-index" {open} {ontoggle}>
                <summary>{
                    lang.index_summary(model.total_traces, model.index.iter().all(|r| r.what.starts_with("thread ")))
                }</summary>
                if open {
                <ol>
                    { for model.index.iter().map(|r| html! {
                        <li>
                            if r.shown {
                                <a href={format!("#t{}", r.number)} onclick={jump_to(format!("t{}", r.number))}><code>{ &r.what }</code></a>
                            } else {
                                <code>{ &r.what }</code>
                            }
                            <span class="line">{ lang.line_no(r.line) }</span>
                            if r.occurrences > 1 {
                                <span class="count">{ format!(" ×{}", r.occurrences) }</span>
                            }
                            { r.diagnosis.as_ref().map(|d| html! { <span class="row-diag">{ format!(" — {d}") }</span> }).unwrap_or_default() }
                        </li>
                    }) }
                </ol>
                }
                if model.total_traces > model.index.len() {
                    <p class="hidden-traces">{ lang.index_not_listed(model.total_traces - model.index.len()) }</p>
                }
                if model.hidden_traces > 0 {
                    <p class="hidden-traces">{ lang.index_first_shown(model.traces.len()) }</p>
                }
            </details>
    }
}

/// `text` with the `` `code` `` spans the rule files write shown as code (the pieces between
/// backticks), not as raw backticks.
pub(crate) fn code_spans(text: &str) -> Html {
    text.split('`')
        .enumerate()
        .map(|(i, piece)| {
            if i % 2 == 1 {
                html! { <code>{ piece }</code> }
            } else {
                html! { { piece } }
            }
        })
        .collect()
}

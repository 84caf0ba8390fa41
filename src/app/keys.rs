//! The keyboard shortcuts of [`crate::shortcuts`] on the page: one `keydown` listener on the
//! document ([`use_shortcuts`]), the help that lists them ([`ShortcutsHelp`]) and the discreet
//! button that opens it ([`ShortcutsButton`]).
//!
//! Shortcuts never fire while the focus is in something that takes text, nor with Ctrl, Alt or
//! Meta held. The help is a non-modal dialog: it takes the focus when it opens and gives it back
//! to where it was when it closes (Esc, `?`, or its Close button).

use crate::shortcuts::{self, key_label, Shortcut, BINDINGS};
use std::cell::RefCell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlElement, KeyboardEvent};
use yew::prelude::*;

thread_local! {
    /// What had the focus when the help opened, given the focus back when it closes.
    static OPENER: RefCell<Option<HtmlElement>> = const { RefCell::new(None) };
}

fn document() -> Option<Document> {
    web_sys::window()?.document()
}

/// Opens or closes the help, remembering what had the focus or giving it back.
fn set_help(help: &UseStateHandle<bool>, open: bool) {
    if open {
        let active = document()
            .and_then(|d| d.active_element())
            .and_then(|e| e.dyn_into::<HtmlElement>().ok());
        OPENER.with(|o| *o.borrow_mut() = active);
    } else if let Some(el) = OPENER.with(|o| o.borrow_mut().take()) {
        // Back to where the focus was, unless the person has moved on to a text field (Esc
        // pressed while typing): the caret stays there.
        let typing_elsewhere = document()
            .and_then(|d| d.active_element())
            .is_some_and(|a| {
                takes_text(&a) && a.closest("#shortcuts-help").ok().flatten().is_none()
            });
        if !typing_elsewhere {
            let _ = el.focus();
        }
    }
    help.set(open);
}

/// True when `el` takes text: every key typed there is the person's, not a shortcut.
fn takes_text(el: &Element) -> bool {
    match el.tag_name().to_ascii_lowercase().as_str() {
        "textarea" | "select" => true,
        "input" => !matches!(
            el.get_attribute("type")
                .unwrap_or_default()
                .to_ascii_lowercase()
                .as_str(),
            "checkbox" | "radio" | "button" | "submit" | "reset" | "range" | "color" | "file"
        ),
        _ => el
            .dyn_ref::<HtmlElement>()
            .is_some_and(|h| h.is_content_editable()),
    }
}

/// Registers the page's shortcuts on the document while the component lives. `help` is the
/// open state of the shortcuts help.
#[hook]
pub fn use_shortcuts(help: UseStateHandle<bool>) {
    use_effect_with(*help, move |&open| {
        let listener = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
            on_key(&e, &help, open);
        });
        let doc = document();
        if let Some(d) = &doc {
            let _ =
                d.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
        }
        move || {
            if let Some(d) = doc {
                let _ = d.remove_event_listener_with_callback(
                    "keydown",
                    listener.as_ref().unchecked_ref(),
                );
            }
            drop(listener);
        }
    });
}

fn on_key(e: &KeyboardEvent, help: &UseStateHandle<bool>, help_open: bool) {
    if e.default_prevented() || e.is_composing() {
        return;
    }
    let modified = e.ctrl_key() || e.alt_key() || e.meta_key();
    let typing = e
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .is_some_and(|el| takes_text(&el));
    let Some(action) = shortcuts::shortcut(&e.key(), modified, typing) else {
        return;
    };
    match action {
        Shortcut::FocusInput => {
            let field = document().and_then(|d| {
                d.query_selector("main:not([hidden]) #trace-input, main:not([hidden]) #rule-filter")
                    .ok()
                    .flatten()
            });
            if let Some(h) = field.and_then(|f| f.dyn_into::<HtmlElement>().ok()) {
                // Otherwise the "/" would be typed into the field that now has the focus.
                e.prevent_default();
                let _ = h.focus();
            }
        }
        Shortcut::NextFrame | Shortcut::PreviousFrame => {
            if step(action == Shortcut::NextFrame) {
                e.prevent_default();
            }
        }
        Shortcut::Toggle => {
            if toggle_focused() {
                e.prevent_default();
            }
        }
        Shortcut::Help => {
            e.prevent_default();
            set_help(help, !help_open);
        }
        Shortcut::Close => {
            if help_open {
                e.prevent_default();
                set_help(help, false);
            }
        }
    }
}

/// Moves the focus to the next (or previous) frame the diagnosis highlights on the page shown,
/// from the one that has the focus, else from wherever the focus is; wraps around at the ends.
/// False when the page shows no highlighted frame.
fn step(forward: bool) -> bool {
    let Some(doc) = document() else {
        return false;
    };
    let Ok(list) = doc.query_selector_all("main:not([hidden]) .frame.highlighted") else {
        return false;
    };
    let frames: Vec<Element> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect();
    let n = frames.len();
    if n == 0 {
        return false;
    }
    let active = doc.active_element().filter(|a| {
        doc.body()
            .is_none_or(|b| !b.is_same_node(Some(a.unchecked_ref())))
    });
    // `None`: past the last frame (forward) or before the first (backward): wraps around.
    let next = match &active {
        None => None,
        Some(a) => match frames.iter().position(|f| f.contains(Some(a))) {
            Some(i) if forward => (i + 1 < n).then_some(i + 1),
            Some(i) => i.checked_sub(1),
            None => {
                // Frames after (before) the focus, in document order.
                const PRECEDING: u16 = 2;
                const FOLLOWING: u16 = 4;
                let after = |f: &Element| a.compare_document_position(f) & FOLLOWING != 0;
                let before = |f: &Element| a.compare_document_position(f) & PRECEDING != 0;
                if forward {
                    frames.iter().position(after)
                } else {
                    frames.iter().rposition(before)
                }
            }
        },
    };
    let wraps = next.is_none() && active.is_some();
    if wraps && super::traces_pending() {
        // The next frame may be in a trace card not built yet: build them all, then step.
        super::show_all_traces();
        gloo::timers::callback::Timeout::new(0, move || {
            step(forward);
        })
        .forget();
        return true;
    }
    let next = next.unwrap_or(if forward { 0 } else { n - 1 });
    super::reveal(&frames[next]);
    true
}

/// Expands or collapses the `details` whose title has the focus, or that holds the focus (for a
/// frame: only a fold of frames); collapsing a group gives the focus to its title, so it stays
/// visible. False when the focus is in no group.
fn toggle_focused() -> bool {
    let Some(active) = document().and_then(|d| d.active_element()) else {
        return false;
    };
    let on_title = active.tag_name().eq_ignore_ascii_case("summary");
    // On a frame, the group is the fold of frames around it, if any: collapsing the whole
    // exception would hide the frame the person just moved to.
    let details = if on_title {
        active.parent_element()
    } else if active.class_list().contains("frame") {
        active.closest("li.fold > details").ok().flatten()
    } else {
        active.closest("details").ok().flatten()
    };
    let Some(d) = details.filter(|d| d.tag_name().eq_ignore_ascii_case("details")) else {
        return false;
    };
    let was_open = d.has_attribute("open");
    let _ = if was_open {
        d.remove_attribute("open")
    } else {
        d.set_attribute("open", "")
    };
    if was_open && !on_title {
        if let Some(title) = d
            .query_selector(":scope > summary")
            .ok()
            .flatten()
            .and_then(|s| s.dyn_into::<HtmlElement>().ok())
        {
            let _ = title.focus();
        }
    }
    true
}

/// Properties of [`ShortcutsHelp`] and [`ShortcutsButton`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Whether the help is open (a state of the page, also toggled by `?`).
    pub help: UseStateHandle<bool>,
}

/// The list of shortcuts: a non-modal dialog that takes the focus when it opens.
#[function_component(ShortcutsHelp)]
pub fn shortcuts_help(props: &Props) -> Html {
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((), move |_| {
            if let Some(el) = node.cast::<HtmlElement>() {
                let _ = el.focus();
            }
        });
    }
    let close = {
        let help = props.help.clone();
        Callback::from(move |_: MouseEvent| set_help(&help, false))
    };
    let keys = |b: &shortcuts::Binding| -> Html {
        b.keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                html! { <>{ if i > 0 { m.or } else { "" } }<kbd>{ key_label(k) }</kbd></> }
            })
            .collect()
    };
    html! {
        <section id="shortcuts-help" class="shortcuts-help" role="dialog" aria-labelledby="shortcuts-title" tabindex="-1" ref={node}>
            <h2 id="shortcuts-title">{ m.shortcuts_title }</h2>
            <dl class="keys">
                { for BINDINGS.iter().map(|b| html! {
                    <div class="key-row">
                        <dt>{ keys(b) }</dt>
                        <dd>{ b.what_in(lang) }</dd>
                    </div>
                }) }
            </dl>
            <p class="hint">{ m.shortcuts_hint }</p>
            <button type="button" id="close-shortcuts" onclick={close}>{ m.close }</button>
        </section>
    }
}

/// "Keyboard shortcuts (?)": opens and closes the help.
#[function_component(ShortcutsButton)]
pub fn shortcuts_button(props: &Props) -> Html {
    let m = use_context::<crate::lang::Lang>()
        .unwrap_or_default()
        .msgs();
    let onclick = {
        let help = props.help.clone();
        Callback::from(move |_: MouseEvent| set_help(&help, !*help))
    };
    html! {
        <button type="button" id="shortcuts-button" class="link-button" aria-haspopup="dialog"
            aria-expanded={props.help.to_string()} {onclick}>
            { m.shortcuts_title }{" "}<kbd>{"?"}</kbd>
        </button>
    }
}

//! The Share panel: redaction (on by default, with a preview), the share link with its length
//! (and past 2,000 characters a shorter link and the rule's page), and the replies for mail and
//! GitHub. It renders [`crate::sharing::SharePanel`], built when the panel is opened.

use crate::sharing::{self, SharePanel};
use crate::wording::plural;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;
use yew_hooks::use_clipboard;

/// Properties of [`Share`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The text diagnosed on the page (the one to share).
    pub text: Rc<str>,
}

/// Context for [`Share`]: true when the person changed the text since it was diagnosed. The
/// panel then stays in place (the page does not jump while they type) but its controls are off
/// until the new text is diagnosed. A context, so that only the panel renders again when it
/// changes, not the whole result around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stale(pub bool);

/// The sections of the page (`details[data-default-open]`: exceptions, frame folds) whose open
/// state the person changed, by DOM id.
fn view_options() -> crate::share::link::ViewOptions {
    let mut options = crate::share::link::ViewOptions::default();
    let Some(list) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector_all("main:not([hidden]) details[data-default-open][id]")
            .ok()
    }) else {
        return options;
    };
    for i in 0..list.length() {
        let Some(el) = list
            .item(i)
            .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        else {
            continue;
        };
        let default_open = el.get_attribute("data-default-open").as_deref() == Some("true");
        let open = el.has_attribute("open");
        match (default_open, open) {
            (false, true) => options.opened.push(el.id()),
            (true, false) => options.closed.push(el.id()),
            _ => {}
        }
    }
    options
}

/// The page's address without its fragment: where share links point. Empty for a page opened
/// from a file (the single-file build): a `file://` address names a folder on this machine
/// (often the user's name) and opens nowhere else, so the link is its `#/s/…` part alone.
fn base_url() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    if location.protocol().is_ok_and(|p| p == "file:") {
        return String::new();
    }
    let href = location.href().unwrap_or_default();
    match href.find('#') {
        Some(i) => href[..i].to_owned(),
        None => href,
    }
}

/// The Share panel.
#[function_component(Share)]
pub fn share(props: &Props) -> Html {
    let stale = use_context::<Stale>().is_some_and(|s| s.0);
    let open = use_state(|| false);
    let redact = use_state(|| true);
    let clipboard = use_clipboard();
    let panel = {
        let key = ((*open).then(|| props.text.clone()), *redact);
        use_memo(key, |(text, redact)| {
            text.as_ref()
                .map(|t| sharing::build(t, &base_url(), *redact, view_options()))
        })
    };
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            if let Some(d) = e.target_dyn_into::<web_sys::HtmlDetailsElement>() {
                open.set(d.open());
            }
        })
    };
    let on_redact = {
        let redact = redact.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                redact.set(i.checked());
            }
        })
    };
    // The text last asked to be copied, and whether a second has passed since: a copy the
    // browser refused (no permission, no clipboard) is then said, not left silent.
    let asked = use_state(|| None::<String>);
    let waited = use_state(|| false);
    let copy = |text: String| {
        let clipboard = clipboard.clone();
        let asked = asked.clone();
        let waited = waited.clone();
        Callback::from(move |_: MouseEvent| {
            asked.set(Some(text.clone()));
            waited.set(false);
            let waited = waited.clone();
            gloo::timers::callback::Timeout::new(1000, move || waited.set(true)).forget();
            clipboard.write_text(text.clone());
        })
    };
    let copied = |text: &str| -> Html {
        if clipboard.text.as_deref() == Some(text) {
            html! { <span class="copied" role="status">{" Copied."}</span> }
        } else if *waited && asked.as_deref() == Some(text) {
            html! { <span class="copy-failed" role="alert">{" The browser did not let the page copy: select the text and copy it by hand."}</span> }
        } else {
            html! {}
        }
    };
    let body = match panel.as_ref() {
        None => html! {},
        Some(Err(why)) => html! { <p class="share-note" role="note">{ why.to_string() }</p> },
        Some(Ok(p)) => panel_view(p, *redact, stale, on_redact, &copy, &copied),
    };
    html! {
        <details class="share" id="share" {ontoggle}>
            <summary>{"Share: a link, or a reply for the mailing list or GitHub"}</summary>
            { body }
        </details>
    }
}

fn panel_view(
    p: &SharePanel,
    redact: bool,
    stale: bool,
    on_redact: Callback<Event>,
    copy: &dyn Fn(String) -> Callback<MouseEvent>,
    copied: &dyn Fn(&str) -> Html,
) -> Html {
    let what = if p.summary.is_empty() {
        "Nothing to hide was found (host names, IP and e-mail addresses, home paths, ids, secrets)."
            .to_owned()
    } else {
        let kinds: Vec<String> = p
            .summary
            .iter()
            .map(|k| k.kind.count_label(k.count))
            .collect();
        format!(
            "{} {}: {}.",
            plural(p.redaction_count, "value", "values"),
            if redact {
                "replaced in the link and the replies"
            } else {
                "would be replaced"
            },
            kinds.join(", ")
        )
    };
    let o = &p.offer;
    html! {
        <fieldset class="share-body" disabled={stale}>
            if stale {
                <legend class="share-note">{"Updating for the text you changed…"}</legend>
            }
            <fieldset class="redaction">
                <legend>{"Before sharing"}</legend>
                <label><input type="checkbox" id="redact" checked={redact} onchange={on_redact} />
                    {" Hide host names, IP and e-mail addresses, home paths, ids, tokens and passwords"}</label>
                <p id="redaction-summary">{ what }</p>
                if !p.preview.is_empty() {
                    <details class="redaction-preview">
                        <summary>{"Preview what is replaced"}</summary>
                        <table>
                            <thead><tr><th scope="col">{"Line"}</th><th scope="col">{"What"}</th><th scope="col">{"In your text"}</th><th scope="col">{"In the link"}</th></tr></thead>
                            <tbody>
                                { for p.preview.iter().map(|r| html! {
                                    <tr><td>{ r.line }</td><td>{ r.label }</td><td><code>{ &r.original }</code></td><td><code>{ &r.replacement }</code></td></tr>
                                }) }
                            </tbody>
                        </table>
                        if p.redaction_count > p.preview.len() {
                            <p>{ format!("… and {} more.", p.redaction_count - p.preview.len()) }</p>
                        }
                    </details>
                }
            </fieldset>
            <div class="share-link">
                <label for="share-link">{"Link to this page with the trace in it (kept in the link's #fragment: no server sees it)"}</label>
                <div class="row">
                    <input id="share-link" type="text" readonly=true value={o.link.clone()} />
                    <button type="button" id="copy-link" onclick={copy(o.link.clone())}>{"Copy link"}</button>
                    { copied(&o.link) }
                </div>
                if !o.link.starts_with('#') && crate::share::link::local_only(&o.link) {
                    <p class="share-note warn" id="local-link-note">{"This page is served from this machine (or a private network), so the link opens only here: others cannot open it. Send the reply's text, or open the page from its public address to make a link for others."}</p>
                }
                if o.link.starts_with('#') {
                    <p class="share-note" id="file-link-note">{"This page was opened from a file, so the link is only the part from # on: your file's folder stays out of it. Add it to the address of a Trace Doctor page on the web, or to this file's address on a machine that has it."}</p>
                }
                <p id="link-length" class={classes!((o.length > crate::share::link::MAIL_SAFE_LENGTH).then_some("warn"))}>{
                    if o.length > crate::share::link::MAIL_SAFE_LENGTH {
                        format!("{} characters: mail clients often break links longer than 2,000.", o.length)
                    } else {
                        format!("{} characters.", o.length)
                    }
                }</p>
                if let Some(s) = &o.shorter {
                    <p>{ format!("A shorter link ({} characters) keeps only what matters; it leaves out {}.", s.length, s.left_out.join("; ")) }</p>
                    <div class="row">
                        <button type="button" id="copy-short-link" onclick={copy(s.link.clone())}>{"Copy the shorter link"}</button>
                        { copied(&s.link) }
                    </div>
                }
                if let Some(c) = &o.catalog {
                    <div class="row">
                        <button type="button" id="copy-catalog-link" onclick={copy(c.clone())}>{"Copy a link to the rule's page (no trace in it)"}</button>
                        { copied(c) }
                    </div>
                }
            </div>
            <div class="digests">
                <p>{"A short reply, as a committer writes it: the diagnosis, the decisive lines, the best fix, a question to confirm it, and the link:"}</p>
                <div class="row">
                    <button type="button" id="copy-plain" onclick={copy(p.plain_text.clone())}>{"Copy as plain text (mail)"}</button>
                    { copied(&p.plain_text) }
                    <button type="button" id="copy-markdown" onclick={copy(p.markdown.clone())}>{"Copy as Markdown (GitHub)"}</button>
                    { copied(&p.markdown) }
                    <button type="button" id="copy-jira" onclick={copy(p.jira.clone())}>{"Copy as JIRA markup"}</button>
                    { copied(&p.jira) }
                </div>
                <details>
                    <summary>{"Show the reply"}</summary>
                    <pre id="digest-plain" class="digest" tabindex="0">{ &p.plain_text }</pre>
                </details>
                <details id="long-reply">
                    <summary>{"The long reply: every trace, all fixes, what does not help"}</summary>
                    <div class="row">
                        <button type="button" id="copy-plain-long" onclick={copy(p.plain_text_long.clone())}>{"Copy the long reply (mail)"}</button>
                        { copied(&p.plain_text_long) }
                        <button type="button" id="copy-markdown-long" onclick={copy(p.markdown_long.clone())}>{"Copy the long reply as Markdown"}</button>
                        { copied(&p.markdown_long) }
                    </div>
                    <pre id="digest-plain-long" class="digest" tabindex="0">{ &p.plain_text_long }</pre>
                </details>
            </div>
        </fieldset>
    }
}

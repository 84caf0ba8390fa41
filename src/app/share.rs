//! The Share panel: redaction (on by default, with a preview), the share link with its length
//! (and past 2,000 characters a shorter link and the rule's page), and the replies for mail and
//! GitHub. It renders [`crate::sharing::SharePanel`], made when the panel is opened, in the
//! Share worker ([`super::share_worker`]: off the page's thread, and its code out of the page's
//! module).

use super::persist;
use super::share_worker::{self, Answer};
use crate::lang::Lang;
use crate::share::link::BaseRefusal;
use crate::share::wire::Request;
use crate::sharing::SharePanel;
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

/// Where share links point: the public address the person set in the Share panel (kept in
/// this browser), else the one the deployment set in `index.html`
/// (`<meta name="trace-doctor-public-base" content="https://…/">`), else the page's own address.
fn base_url() -> String {
    persist::load_public_base()
        .and_then(|b| crate::share::link::public_base(&b))
        .or_else(deployed_public_base)
        .unwrap_or_else(page_url)
}

/// The public address set where the page is deployed: `index.html`'s
/// `<meta name="trace-doctor-public-base">`, when it holds an http(s) address.
fn deployed_public_base() -> Option<String> {
    let meta = web_sys::window()?
        .document()?
        .query_selector("meta[name=\"trace-doctor-public-base\"]")
        .ok()??;
    crate::share::link::public_base(&meta.get_attribute("content")?)
}

/// The page's address without its fragment. Empty for a page opened from a file (the
/// single-file build): a `file://` address names a folder on this machine (often the user's
/// name) and opens nowhere else, so the link is its `#/s/…` part alone.
fn page_url() -> String {
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
    let lang = use_context::<Lang>().unwrap_or_default();
    let m = lang.msgs();
    let open = use_state(|| false);
    let redact = use_state(|| true);
    let clipboard = use_clipboard();
    // Bumped when the person sets the public address: the links are made again.
    let base_set = use_state(|| 0u32);
    // The panel is made in the Share worker (src/app/share_worker.rs), asked again when the
    // text, redaction, language or public address change; the last answer stays shown (its
    // controls off) until the new one comes.
    let answer = use_state(|| None::<Answer>);
    let pending = use_state(|| false);
    {
        let answer = answer.clone();
        let pending = pending.clone();
        let key = (
            (*open).then(|| props.text.clone()),
            *redact,
            lang,
            *base_set,
        );
        use_effect_with(key, move |(text, redact, lang, _)| {
            if let Some(text) = text {
                let request = Request {
                    text: text.to_string(),
                    base: base_url(),
                    redact: *redact,
                    options: view_options(),
                    zh: *lang == Lang::Zh,
                    prose: super::prose::kept_files(),
                };
                pending.set(true);
                share_worker::ask(
                    &request,
                    Callback::from(move |a: Answer| {
                        answer.set(Some(a));
                        pending.set(false);
                    }),
                );
            }
        });
    }
    let base_input = use_node_ref();
    let base_invalid = use_state(|| None::<BaseRefusal>);
    // What the person has typed into the address field since it was last saved: the field shows
    // it through every render (a Share worker's answer, a refusal), so nothing typed is lost.
    let base_typed = use_state(|| None::<String>);
    let on_base_input = {
        let base_typed = base_typed.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                base_typed.set(Some(i.value()));
            }
        })
    };
    let save_base = {
        let base_input = base_input.clone();
        let base_set = base_set.clone();
        let base_invalid = base_invalid.clone();
        let base_typed = base_typed.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(input) = base_input.cast::<HtmlInputElement>() else {
                return;
            };
            let raw = input.value();
            match crate::share::link::check_public_base(&raw) {
                Ok(b) => persist::save_public_base(&b),
                Err(_) if raw.trim().is_empty() => persist::save_public_base(""),
                Err(why) => {
                    base_invalid.set(Some(why));
                    base_typed.set(Some(raw));
                    return;
                }
            }
            base_invalid.set(None);
            base_typed.set(None);
            base_set.set(*base_set + 1);
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
            html! { <span class="copied" role="status">{ m.copied }</span> }
        } else if *waited && asked.as_deref() == Some(text) {
            html! { <span class="copy-failed" role="alert">{ m.copy_failed }</span> }
        } else {
            html! {}
        }
    };
    let body = match answer.as_ref() {
        None if *open => {
            html! { <p class="share-note" id="share-preparing" role="status">{ m.share_preparing }</p> }
        }
        None => html! {},
        Some(Answer::Failed(why)) => {
            html! { <p class="share-note warn" id="share-failed" role="alert">{ m.share_failed }{ why }</p> }
        }
        Some(Answer::Panel(Err(why))) => {
            html! { <p class="share-note" role="note">{ why.message(lang) }</p> }
        }
        Some(Answer::Panel(Ok(p))) => {
            let base = BaseForm {
                onsubmit: save_base,
                input: base_input,
                invalid: *base_invalid,
                typed: (*base_typed).clone(),
                oninput: on_base_input,
            };
            let busy = Busy {
                stale,
                pending: *pending,
            };
            panel_view(p, *redact, busy, on_redact, &copy, &copied, base, lang)
        }
    };
    html! {
        <details class="share" id="share" {ontoggle}>
            <summary onpointerenter={Callback::from(|_: PointerEvent| share_worker::warm())}
                onfocus={Callback::from(|_: FocusEvent| share_worker::warm())}>{ m.share_summary }</summary>
            { body }
        </details>
    }
}

/// Why the panel's controls are off: the text changed since it was diagnosed (`stale`), or the
/// Share worker is making the panel again (`pending`: redaction switched, a new address).
#[derive(Clone, Copy)]
struct Busy {
    stale: bool,
    pending: bool,
}

/// The public address form of the Share panel: what it calls on submit, its input, why the
/// last address given was refused, what was typed since the last save (shown instead of the
/// saved address), and what it calls as the person types.
struct BaseForm {
    onsubmit: Callback<SubmitEvent>,
    input: NodeRef,
    invalid: Option<BaseRefusal>,
    typed: Option<String>,
    oninput: Callback<InputEvent>,
}

/// What the Share panel says of a refused public address.
fn refusal_message(why: BaseRefusal, lang: Lang) -> &'static str {
    let m = lang.msgs();
    match why {
        BaseRefusal::NotHttp => m.public_base_invalid,
        BaseRefusal::Fragment => m.public_base_fragment,
        BaseRefusal::Credentials => m.public_base_credentials,
        BaseRefusal::NotOneUrl => m.public_base_not_one_url,
    }
}

#[allow(clippy::too_many_arguments)]
fn panel_view(
    p: &SharePanel,
    redact: bool,
    busy: Busy,
    on_redact: Callback<Event>,
    copy: &dyn Fn(String) -> Callback<MouseEvent>,
    copied: &dyn Fn(&str) -> Html,
    base: BaseForm,
    lang: Lang,
) -> Html {
    let m = lang.msgs();
    let BaseForm {
        onsubmit: save_base,
        input: base_input,
        invalid: base_invalid,
        typed: base_typed,
        oninput: on_base_input,
    } = base;
    let kept_base = persist::load_public_base();
    let kinds: Vec<String> = p
        .summary
        .iter()
        .map(|k| k.kind.count_label_in(k.count, lang))
        .collect();
    let what = if p.summary.is_empty() {
        m.nothing_to_hide.to_owned()
    } else if lang == Lang::Zh {
        format!(
            "{} 个值{}：{}。",
            p.redaction_count,
            if redact {
                "已在链接和回复中替换"
            } else {
                "将会被替换"
            },
            kinds.join("、")
        )
    } else {
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
        <fieldset class="share-body" disabled={busy.stale || busy.pending} aria-busy={(busy.stale || busy.pending).to_string()}>
            if busy.stale {
                <legend class="share-note">{ m.share_updating }</legend>
            } else if busy.pending {
                <legend class="share-note">{ m.share_preparing }</legend>
            }
            <fieldset class="redaction">
                <legend>{ m.before_sharing }</legend>
                <label><input type="checkbox" id="redact" checked={redact} onchange={on_redact} />
                    { m.hide_label }</label>
                <p id="redaction-summary">{ what }</p>
                if !p.preview.is_empty() {
                    <details class="redaction-preview">
                        <summary>{ m.preview_summary }</summary>
                        <table>
                            <thead><tr><th scope="col">{ m.col_line }</th><th scope="col">{ m.col_what }</th><th scope="col">{ m.col_in_text }</th><th scope="col">{ m.col_in_link }</th></tr></thead>
                            <tbody>
                                { for p.preview.iter().map(|r| html! {
                                    <tr><td>{ r.line }</td><td>{ r.kind.label_in(lang) }</td><td><code>{ &r.original }</code></td><td><code>{ &r.replacement }</code></td></tr>
                                }) }
                            </tbody>
                        </table>
                        if p.redaction_count > p.preview.len() {
                            <p>{ lang.and_more(p.redaction_count - p.preview.len()) }</p>
                        }
                    </details>
                }
            </fieldset>
            <div class="share-link">
                <label for="share-link">{ m.link_label }</label>
                <div class="row">
                    <input id="share-link" type="text" readonly=true value={o.link.clone()} />
                    <button type="button" id="copy-link" onclick={copy(o.link.clone())}>{ m.copy_link }</button>
                    { copied(&o.link) }
                </div>
                if !o.link.starts_with('#') && crate::share::link::local_only(&o.link) {
                    <p class="share-note warn" id="local-link-note">{ m.local_link_note }</p>
                }
                if o.link.starts_with('#') || crate::share::link::local_only(&o.link) || kept_base.is_some() {
                    <form class="row public-base" onsubmit={save_base}>
                        <label for="public-base">{ m.public_base_label }</label>
                        <input id="public-base" ref={base_input} type="url" placeholder="https://…/trace-doctor/"
                            oninput={on_base_input} value={base_typed.or_else(|| kept_base.clone()).unwrap_or_default()} />
                        <button type="submit" id="save-public-base">{ m.public_base_save }</button>
                    </form>
                    if let Some(why) = base_invalid {
                        <p class="share-note warn" id="public-base-invalid" role="alert">{ refusal_message(why, lang) }</p>
                    }
                }
                if o.link.starts_with('#') {
                    <p class="share-note" id="file-link-note">{ m.file_link_note }</p>
                }
                <p id="link-length" class={classes!((o.length > crate::share::link::MAIL_SAFE_LENGTH).then_some("warn"))}>{
                    lang.link_length(o.length, o.length > crate::share::link::MAIL_SAFE_LENGTH)
                }</p>
                if let Some(s) = &o.shorter {
                    <p>{ lang.shorter_link(s.length, &s.left_out.join("; ")) }</p>
                    <div class="row">
                        <button type="button" id="copy-short-link" onclick={copy(s.link.clone())}>{ m.copy_short_link }</button>
                        { copied(&s.link) }
                    </div>
                }
                if let Some(c) = &o.catalog {
                    <div class="row">
                        <button type="button" id="copy-catalog-link" onclick={copy(c.clone())}>{ m.copy_catalog_link }</button>
                        { copied(c) }
                    </div>
                }
            </div>
            <div class="digests">
                <p>{ m.short_reply_intro }</p>
                if p.digest_link.is_none() && (o.link.starts_with('#') || crate::share::link::local_only(&o.link)) {
                    <p class="share-note" id="reply-without-link">{ m.reply_without_link }</p>
                }
                <div class="row">
                    <button type="button" id="copy-plain" onclick={copy(p.plain_text.clone())}>{ m.copy_plain }</button>
                    { copied(&p.plain_text) }
                    <button type="button" id="copy-markdown" onclick={copy(p.markdown.clone())}>{ m.copy_markdown }</button>
                    { copied(&p.markdown) }
                    <button type="button" id="copy-jira" onclick={copy(p.jira.clone())}>{ m.copy_jira }</button>
                    { copied(&p.jira) }
                </div>
                <details>
                    <summary>{ m.show_reply }</summary>
                    <pre id="digest-plain" class="digest" tabindex="0">{ &p.plain_text }</pre>
                </details>
                <details id="long-reply">
                    <summary>{ m.long_reply_summary }</summary>
                    <div class="row">
                        <button type="button" id="copy-plain-long" onclick={copy(p.plain_text_long.clone())}>{ m.copy_plain_long }</button>
                        { copied(&p.plain_text_long) }
                        <button type="button" id="copy-markdown-long" onclick={copy(p.markdown_long.clone())}>{ m.copy_markdown_long }</button>
                        { copied(&p.markdown_long) }
                    </div>
                    <pre id="digest-plain-long" class="digest" tabindex="0">{ &p.plain_text_long }</pre>
                </details>
            </div>
        </fieldset>
    }
}

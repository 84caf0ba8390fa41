//! One distinct trace: its findings, the context facts, and the annotated cause chain.

use super::{chain::Chain, finding::FindingCard};
use crate::view::{strip_value, TraceView, STRIP_FACTS};
use yew::prelude::*;

/// Properties of [`TraceCard`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The trace to show.
    pub trace: TraceView,
    /// Shown right after the findings (the page's Share panel, on the first trace).
    #[prop_or_default]
    pub children: Html,
    /// Whether the children hold the Share panel: the first screen then has a button to it.
    #[prop_or_default]
    pub has_share: bool,
}

/// Opens the Share panel (`details#share`) and brings it into view.
fn open_share() {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("share"))
    else {
        return;
    };
    if let Ok(details) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlDetailsElement>(el.clone()) {
        details.set_open(true);
    }
    let scroll = web_sys::ScrollIntoViewOptions::new();
    scroll.set_block(web_sys::ScrollLogicalPosition::Start);
    el.scroll_into_view_with_scroll_into_view_options(&scroll);
}

/// A trace: the diagnosis first, then the facts read from the text (a compact card), then the
/// annotated trace.
#[function_component(TraceCard)]
pub fn trace_card(props: &Props) -> Html {
    let t = &props.trace;
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    let heading = t.heading(lang);
    html! {
        <article class="trace" id={t.dom_id.clone()} aria-label={lang.trace_label(t.number)}>
            <h2 class="trace-head">{ heading }</h2>
            // The first screen: the facts a committer checks first on one line (the full card
            // comes after the findings), and the way to the reply.
            if t.facts.iter().any(|f| STRIP_FACTS.contains(&f.key.as_str())) || props.has_share {
                <p class="facts-strip" aria-label={m.facts_label}>
                    { for t.facts.iter().filter(|f| STRIP_FACTS.contains(&f.key.as_str())).enumerate().map(|(k, f)| html! {
                        <span class="strip-fact" data-fact={f.key.clone()}>{ if k > 0 { "· " } else { "" } }{ &f.label }{ " " }<strong title={f.value.clone()}>{ strip_value(&f.value) }</strong></span>
                    }) }
                    if props.has_share {
                        <button type="button" id="to-share" class="to-share" onclick={Callback::from(|_: MouseEvent| open_share())}
                            onpointerenter={Callback::from(|_: PointerEvent| super::share_worker::warm())}
                            onfocus={Callback::from(|_: FocusEvent| super::share_worker::warm())}>{ m.to_share }</button>
                    }
                </p>
            }
            if let Some(cut) = &t.cut {
                <p class={classes!("cut-note", t.cut_certain.then_some("certain"))} role="note">{ bold_lead(cut) }</p>
            }
            if let Some((name, state)) = &t.thread {
                <section class="finding none thread">
                    <h3>{ lang.thread_heading(name) }</h3>
                    <p>{ lang.thread_state(state.as_deref()) }</p>
                    { no_rule_answer(t.answer.as_ref(), m.no_rule_answer_label) }
                </section>
            } else if t.findings.is_empty() {
                <section class="finding none" data-answer={t.answer.as_ref().map(|(id, _)| id.clone())}>
                    <h3>{ m.no_known_diagnosis }</h3>
                    <p>{ if t.cut_certain { m.last_printed_label } else { m.root_cause_label } }<code>{ &t.root_cause }</code></p>
                    { no_rule_answer(t.answer.as_ref(), m.no_rule_answer_label) }
                    if let Some(terms) = &t.search_terms {
                        <p class="search-terms">{ m.search_for }<code>{ terms }</code>{ m.search_in }
                            { for t.searches.iter().enumerate().map(|(k, (label, url))| html! {
                                <>{ if k > 0 { ", " } else { "" } }<a href={url.clone()} target="_blank" rel="noopener noreferrer">{ label }</a></>
                            }) }
                        </p>
                        <details class="what-to-send">
                            <summary>{ m.settles_summary }</summary>
                            <ul>
                                <li>{ m.settles_versions }</li>
                                <li>{ m.settles_logs }</li>
                                <li>{ m.settles_job }</li>
                            </ul>
                        </details>
                    }
                    if !t.flink && t.answer.is_none() {
                        <p>{ m.not_flink }</p>
                    }
                    if let Some(e) = t.flink_evidence.first() {
                        <p class="evidence">{ m.read_as_flink }{ crate::app::code_spans(e) }</p>
                    }
                </section>
            }
            // A list of its own (see `Results`): a result with more or fewer findings, as the
            // person edits, updates each finding in its place, and the Share panel after them
            // stays what it was.
            <>{ for t.findings.iter().enumerate().map(|(i, f)| html! { <FindingCard finding={f.clone()} primary={i == 0} dom={AttrValue::from(format!("{}-f{i}", t.dom_id))} /> }) }</>
            { props.children.clone() }
            if !t.facts.is_empty() {
                <section class="facts" aria-label={m.facts_label}>
                    <dl class="context">
                        { for t.facts.iter().map(|f| html! {
                            <div class="fact" data-fact={f.key.clone()}>
                                <dt>{ &f.label }</dt>
                                <dd>{ &f.value }</dd>
                            </div>
                        }) }
                    </dl>
                    if !t.version_reasons.is_empty() {
                        <details class="version-reasons">
                            <summary>{ m.version_how }</summary>
                            <ul>{ for t.version_reasons.iter().map(|r| html! { <li>{ r }</li> }) }</ul>
                        </details>
                    }
                </section>
            }
            <Chain chain={t.chain.clone()} last_line={t.lines.1} numbered={t.numbered} />
        </article>
    }
}

/// A paragraph `**Lead.** rest with `code``: the lead in bold, code spans in the rest.
fn bold_lead(s: &str) -> Html {
    match s.strip_prefix("**").and_then(|r| r.split_once("**")) {
        Some((lead, rest)) => {
            html! { <><strong>{ lead }</strong>{ crate::app::code_spans(rest) }</> }
        }
        None => crate::app::code_spans(s),
    }
}

/// The no-rule answer's paragraphs (`crate::answer::sentences`), under a thread's state or the
/// "No known diagnosis" root cause; nothing without an answer.
fn no_rule_answer(answer: Option<&(String, Vec<String>)>, label: &'static str) -> Html {
    let Some((_, sentences)) = answer else {
        return Html::default();
    };
    html! {
        <div class="no-rule-answer" aria-label={label}>
            { for sentences.iter().map(|s| html! { <p>{ crate::app::code_spans(&s.replace("**", "")) }</p> }) }
        </div>
    }
}

//! One distinct trace: its findings, the context facts, and the annotated cause chain.

use super::{chain::Chain, finding::FindingCard};
use crate::view::TraceView;
use yew::prelude::*;

/// Properties of [`TraceCard`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The trace to show.
    pub trace: TraceView,
    /// Shown right after the findings (the page's Share panel, on the first trace).
    #[prop_or_default]
    pub children: Html,
}

/// A trace: the diagnosis first, then the facts read from the text (a compact card), then the
/// annotated trace.
#[function_component(TraceCard)]
pub fn trace_card(props: &Props) -> Html {
    let t = &props.trace;
    let seen = match (t.occurrences, &t.thread) {
        (1, _) => String::new(),
        (n, Some(_)) => format!(" · {n} threads with this stack"),
        (n, None) => format!(" · seen {n} times"),
    };
    // A trace on one line of the input (REST JSON) says no line range: it would read "1–1".
    let lines = if t.numbered {
        format!(" · lines {}–{}", t.lines.0, t.lines.1)
    } else {
        String::new()
    };
    html! {
        <article class="trace" id={t.dom_id.clone()} aria-label={format!("Trace {}", t.number)}>
            <h2 class="trace-head">{ format!("{} {}{lines}{seen}", if t.thread.is_some() { "Stack" } else { "Trace" }, t.number) }</h2>
            if let Some(cut) = &t.cut {
                <p class={classes!("cut-note", t.cut_certain.then_some("certain"))} role="note">{ bold_lead(cut) }</p>
            }
            if let Some((name, state)) = &t.thread {
                <section class="finding none thread">
                    <h3>{ format!("Thread \"{name}\"") }</h3>
                    <p>{ format!("State: {}", state.as_deref().unwrap_or("not printed")) }</p>
                    { no_rule_answer(t.answer.as_ref()) }
                </section>
            } else if t.findings.is_empty() {
                <section class="finding none" data-answer={t.answer.as_ref().map(|(id, _)| id.clone())}>
                    <h3>{"No known diagnosis"}</h3>
                    <p>{ if t.cut_certain { "Last exception printed (the root cause is not in the text): " } else { "Root cause: " } }<code>{ &t.root_cause }</code></p>
                    { no_rule_answer(t.answer.as_ref()) }
                    if let Some(terms) = &t.search_terms {
                        <p class="search-terms">{"Search for "}<code>{ terms }</code>{" in: "}
                            { for t.searches.iter().enumerate().map(|(k, (label, url))| html! {
                                <>{ if k > 0 { ", " } else { "" } }<a href={url.clone()} target="_blank" rel="noopener noreferrer">{ label }</a></>
                            }) }
                        </p>
                        <details class="what-to-send">
                            <summary>{"What settles it: send these with your question"}</summary>
                            <ul>
                                <li>{"Your Flink version, and the versions of the connectors and libraries in the trace."}</li>
                                <li>{"The whole trace, down to its last \"Caused by:\", and the JobManager and TaskManager logs around the failure (the first error, not only the last)."}</li>
                                <li>{"What the job does at the operator that failed: the function or SQL, and what changed before it started failing."}</li>
                            </ul>
                        </details>
                    }
                    if !t.flink && t.answer.is_none() {
                        <p>{"This trace shows no Flink code, and no general JVM rule matches it. The root cause and where it was thrown are shown first below."}</p>
                    }
                    if let Some(e) = t.flink_evidence.first() {
                        <p class="evidence">{"Read as Flink's: "}{ crate::app::code_spans(e) }</p>
                    }
                </section>
            }
            { for t.findings.iter().enumerate().map(|(i, f)| html! { <FindingCard finding={f.clone()} primary={i == 0} dom={AttrValue::from(format!("{}-f{i}", t.dom_id))} /> }) }
            { props.children.clone() }
            if !t.facts.is_empty() {
                <section class="facts" aria-label="Read from the trace">
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
                            <summary>{"How the version was read"}</summary>
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
fn no_rule_answer(answer: Option<&(String, Vec<String>)>) -> Html {
    let Some((_, sentences)) = answer else {
        return Html::default();
    };
    html! {
        <div class="no-rule-answer" aria-label="What the frames show (not a rule)">
            { for sentences.iter().map(|s| html! { <p>{ crate::app::code_spans(&s.replace("**", "")) }</p> }) }
        </div>
    }
}

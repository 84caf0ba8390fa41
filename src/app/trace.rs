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
            if let Some((name, state)) = &t.thread {
                <section class="finding none thread">
                    <h3>{ format!("Thread \"{name}\"") }</h3>
                    <p>{ format!("State: {}", state.as_deref().unwrap_or("not printed")) }</p>
                </section>
            } else if t.findings.is_empty() {
                <section class="finding none">
                    <h3>{"No known diagnosis"}</h3>
                    <p>{"Root cause: "}<code>{ &t.root_cause }</code></p>
                    if let Some(terms) = &t.search_terms {
                        <p class="search-terms">{"Search the mailing-list archives and JIRA for: "}<code>{ terms }</code></p>
                    }
                    if t.flink {
                        <p>{"No rule in Trace Doctor's knowledge base matches this trace. The root cause and where it was thrown are shown first below; search the Flink mailing-list archives and JIRA for its class and, when the trace has one, the innermost frame of your own code (highlighted below)."}</p>
                    } else {
                        <p>{"This trace shows no Flink code, and no general JVM rule matches it. The root cause and where it was thrown are shown first below; your own code's frames are in green."}</p>
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

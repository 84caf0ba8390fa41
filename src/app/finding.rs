//! A finding: title, summary, the frames that matter, and the explanation from the rule file.

use crate::view::FindingView;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of [`FindingCard`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The finding.
    pub finding: FindingView,
    /// The most specific finding (shown open; others are "also consistent with").
    pub primary: bool,
}

/// Markdown already rendered to HTML at build time from our own rule files.
fn raw(html: &str) -> Html {
    Html::from_html_unchecked(AttrValue::from(html.to_owned()))
}

/// Renders one finding.
#[function_component(FindingCard)]
pub fn finding_card(props: &Props) -> Html {
    let f = &props.finding;
    let jump = |dom: String| {
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            let el = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&dom));
            if let Some(el) = el {
                // Open the exception that holds the frame, then bring it into view.
                let mut node = el.parent_element();
                while let Some(n) = node {
                    if n.tag_name().eq_ignore_ascii_case("details") {
                        let _ = n.set_attribute("open", "");
                    }
                    node = n.parent_element();
                }
                el.scroll_into_view();
                if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
                    let _ = h.focus();
                }
                let _ = el.class_list().add_1("flash");
            }
        })
    };
    html! {
        <section class={classes!("finding", f.severity.clone(), props.primary.then_some("primary"))} data-rule={f.rule.clone()}>
            if !props.primary {
                <p class="also">{"Also consistent with:"}</p>
            }
            <h3 class="finding-title">{ &f.title }</h3>
            <div class="summary">{ raw(&f.summary_html) }</div>
            <h4>{"The frames that matter"}</h4>
            <ol class="highlights">
                { for f.highlights.iter().map(|(role, name, line, dom)| html! {
                    <li>
                        <a href={format!("#{dom}")} onclick={jump(dom.clone())}><code>{ name }</code></a>
                        <span class="line">{ format!(" line {line}") }</span>
                        <span class="hl-role">{ format!(" — {role}") }</span>
                    </li>
                }) }
            </ol>
            <details class="explanation" open={props.primary}>
                <summary>{"Why it happens"}</summary>
                if !f.reading_html.is_empty() {
                    <h4>{"Reading the root cause bottom-up"}</h4>
                    <ul class="reading">{ for f.reading_html.iter().map(|x| html! { <li>{ raw(x) }</li> }) }</ul>
                    <h4>{"The race"}</h4>
                }
                { raw(&f.why_html) }
                { for f.sections.iter().map(|(h, body)| html! { <><h4>{ h }</h4>{ raw(body) }</> }) }
            </details>
            <h4>{"Fixes, best first"}</h4>
            <ol class="fixes">{ for f.fixes_html.iter().map(|x| html! { <li>{ raw(x) }</li> }) }</ol>
            if !f.not_fixes_html.is_empty() {
                <details class="not-fixes">
                    <summary>{"What does not help"}</summary>
                    <ul>{ for f.not_fixes_html.iter().map(|x| html! { <li>{ raw(x) }</li> }) }</ul>
                </details>
            }
            if let Some(fa) = &f.false_alarms_html {
                <details class="false-alarms">
                    <summary>{"When this diagnosis may be wrong"}</summary>
                    { raw(fa) }
                </details>
            }
            <details class="evidence">
                <summary>{ format!("Why this rule matched ({})", f.rule) }</summary>
                <ul>{ for f.evidence.iter().map(|x| html! { <li>{ x }</li> }) }</ul>
                <p>{ format!("Applies to Flink {}.", f.versions) }</p>
            </details>
            <h4>{"References"}</h4>
            <ul class="references">
                { for f.references.iter().map(|(title, url)| html! { <li><a href={url.clone()} rel="noopener noreferrer" target="_blank">{ title }</a></li> }) }
            </ul>
        </section>
    }
}

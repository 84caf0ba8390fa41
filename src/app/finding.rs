//! A finding: title, summary, the frames that matter, and the explanation from the rule file.

use super::diagram;
use super::explanation::Explanation;
use super::{code_spans, jump_to, raw, Route};
use crate::view::FindingView;
use yew::prelude::*;
use yew_router::prelude::Link;

/// Properties of [`FindingCard`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The finding.
    pub finding: FindingView,
    /// The most specific finding (shown open; others are "also consistent with").
    pub primary: bool,
    /// A DOM id prefix unique among the findings on the page (`t1-f0`, `ex-t1-f0`).
    #[prop_or_default]
    pub dom: AttrValue,
}

/// Renders one finding.
#[function_component(FindingCard)]
pub fn finding_card(props: &Props) -> Html {
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    let f = &props.finding;
    html! {
        <section class={classes!("finding", f.severity.clone(), props.primary.then_some("primary"))} data-rule={f.rule.clone()}>
            if !props.primary {
                <p class="also">{ m.also_consistent }</p>
            }
            <h3 class="finding-title">{ &f.title }</h3>
            if let Some(m) = &f.platform_assumed {
                <p class="platform-assumed" role="note">{ m }</p>
            }
            if let Some(m) = &f.version_mismatch {
                <p class="version-mismatch" role="note">{ m }</p>
            }
            <div class="summary">{ raw(&f.summary_html) }</div>
            if let Some(c) = &f.culprit {
                <p class="culprit">{ crate::app::code_spans(&c.replace("**", "")) }</p>
            }
            <h4>{ m.frames_that_matter }</h4>
            <ol class="highlights">
                { for f.highlights.iter().map(|(role, name, line, dom)| html! {
                    <li>
                        <a href={format!("#{dom}")} onclick={jump_to(dom.clone())}><code>{ name }</code></a>
                        <span class="line">{ lang.line_no(*line) }</span>
                        <span class="hl-role">{" — "}{ code_spans(role) }</span>
                    </li>
                }) }
            </ol>
            if let Some(d) = &f.diagram {
                <diagram::DiagramSvg diagram={d.clone()} id={AttrValue::from(format!("dg-{}", props.dom))} />
            }
            <Explanation explanation={f.explanation.clone()} reading_html={f.reading_html.clone()} open={props.primary} />
            <details class="evidence">
                <summary>{ lang.why_matched(&f.rule) }</summary>
                <ul>{ for f.evidence.iter().map(|x| html! { <li>{ x }</li> }) }</ul>
                <p>{ m.versions_label }{ code_spans(f.versions.trim_end_matches('.')) }{"."}</p>
            </details>
            <p class="rule-link"><Link<Route> to={Route::Rule { id: f.rule.clone() }}>{ lang.about_rule(&f.rule) }</Link<Route>></p>
        </section>
    }
}

//! A rule's explanation: why it happens (with the frames read bottom-up when a finding has
//! them), further sections, fixes best first, what does not help, false alarms, references.
//! Shared by a finding and the rule's catalog page.

use super::raw;
use crate::view::ExplanationView;
use yew::prelude::*;

/// Properties of [`Explanation`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The rule's explanation.
    pub explanation: ExplanationView,
    /// What each matched frame means, read bottom-up (HTML); empty on a rule page.
    #[prop_or_default]
    pub reading_html: Vec<String>,
    /// Open "Why it happens" at first.
    pub open: bool,
}

/// Renders an explanation.
#[function_component(Explanation)]
pub fn explanation(props: &Props) -> Html {
    let e = &props.explanation;
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    if e.missing {
        return html! { <p class="prose-missing" role="alert">{ m.prose_missing }</p> };
    }
    html! {
        <>
            <details class="explanation" open={props.open}>
                <summary>{ m.why_it_happens }</summary>
                if !props.reading_html.is_empty() {
                    <h4>{ m.reading_bottom_up }</h4>
                    <ul class="reading">{ for props.reading_html.iter().map(|x| html! { <li>{ raw(x) }</li> }) }</ul>
                    <h4>{ m.mechanism }</h4>
                }
                { raw(&e.why_html) }
                { for e.sections.iter().map(|(h, body)| html! { <><h4>{ h }</h4>{ raw(body) }</> }) }
            </details>
            <h4>{ m.fixes_best_first }</h4>
            <ol class="fixes">{ for e.fixes_html.iter().map(|x| html! { <li>{ raw(x) }</li> }) }</ol>
            if !e.not_fixes_html.is_empty() {
                <details class="not-fixes">
                    <summary>{ m.not_help }</summary>
                    <ul>{ for e.not_fixes_html.iter().map(|x| html! { <li>{ raw(x) }</li> }) }</ul>
                </details>
            }
            if let Some(fa) = &e.false_alarms_html {
                <details class="false-alarms">
                    <summary>{ m.may_be_wrong }</summary>
                    { raw(fa) }
                </details>
            }
            <h4>{ m.references }</h4>
            <ul class="references">
                { for e.references.iter().map(|(title, url)| html! { <li><a href={url.clone()} rel="noopener noreferrer" target="_blank">{ title }</a></li> }) }
            </ul>
        </>
    }
}

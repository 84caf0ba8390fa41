//! The annotated trace: the cause chain root cause first, each throwable collapsible, frames
//! grouped by who wrote them, the frames that matter highlighted with their role.

use crate::view::{ExceptionView, FrameBlock, FrameView};
use yew::prelude::*;

/// Properties of [`Chain`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Throwables, root cause first.
    pub chain: Vec<ExceptionView>,
}

/// The cause chain.
#[function_component(Chain)]
pub fn chain(props: &Props) -> Html {
    let thread = props.chain.first().is_some_and(|e| e.relation == "thread");
    let heading = if thread {
        "Stack"
    } else {
        "Cause chain, root cause first"
    };
    html! {
        <section class="chain" aria-label={heading}>
            <h3>{ heading }</h3>
            { for props.chain.iter().map(exception) }
        </section>
    }
}

fn exception(e: &ExceptionView) -> Html {
    let class = match (e.class.is_empty(), e.relation.as_str()) {
        (true, "thread") => "the thread's stack",
        (true, _) => "(frames without an exception line)",
        _ => e.class.as_str(),
    };
    let relation = match &e.parent {
        Some(p) => format!("suppressed in {p}"),
        None => e.relation.clone(),
    };
    // A one-line preview so a closed exception still says what it is about.
    let preview: String = e.message.split_whitespace().collect::<Vec<_>>().join(" ");
    let preview = if preview.chars().count() > 140 {
        format!("{}…", preview.chars().take(140).collect::<String>())
    } else {
        preview
    };
    html! {
        <details class={classes!("exception", (e.relation == "root cause").then_some("root"))} id={e.id.clone()} data-class={e.class.clone()} open={e.open}
            data-default-open={e.open.to_string()}
            style={(e.depth > 0).then(|| format!("margin-left: {}em", e.depth.min(8) * 2))}>
            <summary>
                <span class="relation">{ relation }</span>
                <span class="ex-class">{ class }</span>
                <span class="line">{ format!("line {}", e.line) }</span>
                { for e.roles.iter().map(|r| html! { <span class="role header-role">{ r }</span> }) }
                if !preview.is_empty() {
                    <span class="preview">{ preview }</span>
                }
            </summary>
            if !e.message.is_empty() {
                <pre class="message">{ &e.message }</pre>
            }
            <ol class="frames">
                { for e.blocks.iter().map(block) }
            </ol>
            if e.restored > 0 {
                <p class="restored-note">{ format!("{} frames restored from \"... {} more\" (shared with the enclosing exception, by Java's rule) are marked ↻.", e.restored, e.restored) }</p>
            }
        </details>
    }
}

fn block(b: &FrameBlock) -> Html {
    match b {
        FrameBlock::Shown(frames) => frames.iter().map(frame).collect::<Html>(),
        FrameBlock::Folded { label, frames } => html! {
            <li class="fold">
                <details id={format!("{}-fold", frames[0].id)} data-default-open="false">
                    <summary class={classes!("fold-label", format!("g-{:?}", frames[0].group).to_lowercase())}>{ label }</summary>
                    <ol class="frames">{ for frames.iter().map(frame) }</ol>
                </details>
            </li>
        },
    }
}

fn frame(f: &FrameView) -> Html {
    let highlighted = !f.roles.is_empty();
    html! {
        <li id={f.id.clone()} tabindex="-1" class={classes!("frame", highlighted.then_some("highlighted"), f.restored.then_some("restored"), format!("g-{:?}", f.group).to_lowercase())}>
            <span class="ln" title="line in your text">{ f.line }</span>
            <code class="frame-text">
                <span class="at">{"at "}</span>
                <span class="pkg">{ &f.package }</span>
                <span class="name">{ &f.name }</span>
                <span class="loc">{ format!("({})", f.location) }</span>
                if f.restored {
                    <span class="badge" title="restored from ... N more">{" ↻"}</span>
                }
            </code>
            { for f.roles.iter().map(|r| html! { <span class="role">{ r }</span> }) }
        </li>
    }
}

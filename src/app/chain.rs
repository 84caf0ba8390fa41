//! The annotated trace: the cause chain root cause first, each throwable collapsible, frames
//! grouped by who wrote them, the frames that matter highlighted with their role.
//!
//! A gutter gives each header, frame and folded group the line (or lines) of the pasted text it
//! comes from ([`crate::view::LineRange`], computed in the view model). The numbers are drawn from
//! `data-ln` by CSS (`.ln::before`), so selecting and copying the trace copies no number, and the
//! gutter is hidden from screen readers; headers and folds say their lines in words instead.

use crate::view::{ExceptionView, FrameBlock, FrameView, LineRange};
use yew::prelude::*;

/// Properties of [`Chain`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Throwables, root cause first.
    pub chain: Vec<ExceptionView>,
    /// The last input line of the trace: sizes the gutter.
    #[prop_or_default]
    pub last_line: usize,
}

/// The gutter cell: the line number(s), drawn by CSS from `data-ln`.
fn gutter(lines: LineRange) -> Html {
    html! { <span class="ln" aria-hidden="true" data-ln={lines.label()}></span> }
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
    // Wide enough for a range of two of the widest numbers ("1045–1062") in the gutter's 12 px
    // monospace (about 7.3 px a digit), in px so that every row lines up whatever its font.
    let digits = props.last_line.max(1).to_string().len();
    let width = (2 * digits + 1) * 73 / 10 + 1;
    html! {
        <section class="chain" aria-label={heading} style={format!("--ln-w: {width}px")}>
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
            style={(e.depth > 0).then(|| format!("--indent: {}em", e.depth.min(8) * 2))}>
            <summary>
                { gutter(e.header_lines) }
                <span class="head">
                    <span class="relation">{ relation }</span>
                    <span class="ex-class">{ breakable(class) }</span>
                    <span class="sr-only">{ format!(", {}", e.header_lines.spoken()) }</span>
                    { for e.roles.iter().map(|r| html! { <span class="role header-role">{ r }</span> }) }
                    if !preview.is_empty() {
                        <span class="preview">{ preview }</span>
                    }
                </span>
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

/// A qualified class name that may wrap after each dot on a narrow screen (`<wbr>` adds no
/// character to what is copied).
fn breakable(name: &str) -> Html {
    let mut parts = name.split_inclusive('.').peekable();
    let mut out = Vec::new();
    while let Some(p) = parts.next() {
        out.push(html! { { p.to_owned() } });
        if parts.peek().is_some() {
            out.push(html! { <wbr /> });
        }
    }
    out.into_iter().collect()
}

fn block(b: &FrameBlock) -> Html {
    match b {
        FrameBlock::Shown(frames) => frames.iter().map(frame).collect::<Html>(),
        FrameBlock::Folded {
            label,
            frames,
            lines,
        } => html! {
            <li class="fold">
                <details id={format!("{}-fold", frames[0].id)} data-default-open="false">
                    <summary class={classes!("fold-label", format!("g-{:?}", frames[0].group).to_lowercase())}>
                        { gutter(*lines) }
                        <span class="fold-text">{ label }</span>
                        <span class="sr-only">{ format!(", {}", lines.spoken()) }</span>
                    </summary>
                    <ol class="frames">{ for frames.iter().map(frame) }</ol>
                </details>
            </li>
        },
    }
}

fn frame(f: &FrameView) -> Html {
    let highlighted = !f.roles.is_empty();
    html! {
            <li id={f.id.clone()} tabindex="-1" class={classes!("frame", highlighted.then_some("highlighted"), f.restored.then_some("restored"), format!("g-{:?}", f.group).to_lowercase())}
    >
                { gutter(LineRange::new(f.line, f.line)) }
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

//! The annotated trace: the cause chain root cause first, each throwable collapsible, frames
//! grouped by who wrote them, the frames that matter highlighted with their role.
//!
//! A gutter gives each header, frame and folded group the line (or lines) of the pasted text it
//! comes from ([`crate::view::LineRange`], computed in the view model). The numbers are drawn from
//! `data-ln` by CSS (`.ln::before`), so selecting and copying the trace copies no number, and the
//! gutter is hidden from screen readers; headers and folds say their lines in words instead.
//! For a trace whose line numbers mean nothing (a trace on one line of the input, see
//! [`crate::view::TraceView::numbered`]) the gutter stays empty and takes no room.
//!
//! A folded group builds its frames only when it is opened ([`Fold`]), so a trace with
//! thousands of frames (or hundreds of nested causes, each repeating its enclosing frames) stays
//! a small page; a long trace lists the throwables it does not show in full the same way.

use crate::view::{ExceptionView, FrameBlock, FrameView, LineRange, SkippedCause, SkippedCauses};
use yew::prelude::*;

/// Properties of [`Chain`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Throwables, root cause first.
    pub chain: Vec<ExceptionView>,
    /// The last input line of the trace: sizes the gutter.
    #[prop_or_default]
    pub last_line: usize,
    /// Whether the input's line numbers mean something for this trace; when not, the gutter is
    /// empty and takes no room, and titles do not say their lines.
    #[prop_or(true)]
    pub numbered: bool,
}

/// The gutter cell: the line number(s), drawn by CSS from `data-ln` (nothing when the numbers
/// mean nothing).
fn gutter(lines: LineRange, numbered: bool) -> Html {
    let label = if numbered {
        lines.label()
    } else {
        String::new()
    };
    html! { <span class="ln" aria-hidden="true" data-ln={label}></span> }
}

/// What a title says of its lines to screen readers (`, lines 45 to 56`), when they mean
/// something.
fn spoken(lines: LineRange, numbered: bool, lang: crate::lang::Lang) -> Html {
    if numbered {
        html! { <span class="sr-only">{ lang.spoken_lines(lines.first, lines.last) }</span> }
    } else {
        html! {}
    }
}

/// The cause chain.
#[function_component(Chain)]
pub fn chain(props: &Props) -> Html {
    let thread = props.chain.first().is_some_and(|e| e.relation == "thread");
    let cut = props
        .chain
        .first()
        .is_some_and(|e| e.relation == "last printed");
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    let heading = if thread {
        m.chain_stack
    } else if cut {
        m.chain_cut
    } else {
        m.chain_root_first
    };
    // Wide enough for a range of two of the widest numbers ("1045–1062") in the gutter's 12 px
    // monospace (about 7.3 px a digit), in px so that every row lines up whatever its font.
    let digits = props.last_line.max(1).to_string().len();
    let width = if props.numbered {
        (2 * digits + 1) * 73 / 10 + 1
    } else {
        0
    };
    let numbered = props.numbered;
    html! {
        <section class="chain" aria-label={heading} style={format!("--ln-w: {width}px")}>
            <h3>{ heading }</h3>
            { for props.chain.iter().map(|e| html! {
                <>
                    { exception(e, numbered, lang) }
                    if let Some(more) = &e.skipped_after {
                        { skipped(more, numbered) }
                    }
                </>
            }) }
        </section>
    }
}

fn exception(e: &ExceptionView, numbered: bool, lang: crate::lang::Lang) -> Html {
    let m = lang.msgs();
    let (class, relation, preview) = e.header(lang);
    html! {
        <details class={classes!("exception", (e.relation == "root cause").then_some("root"))} id={e.id.clone()} data-class={e.class.clone()} open={e.open}
            data-default-open={e.open.to_string()}
            style={(e.depth > 0).then(|| format!("--indent: {}em", e.depth.min(8) * 2))}>
            <summary>
                { gutter(e.header_lines, numbered) }
                <span class="head">
                    <span class="relation">{ relation }</span>
                    <span class="ex-class">{ breakable(&class) }</span>
                    { spoken(e.header_lines, numbered, lang) }
                    { for e.roles.iter().map(|r| html! { <span class="role header-role">{ super::code_spans(r) }</span> }) }
                    if !preview.is_empty() {
                        <span class="preview">{ preview }</span>
                    }
                </span>
            </summary>
            if !e.message.is_empty() {
                <pre class="message">{ &e.message }</pre>
            }
            if let Some(more) = &e.message_more {
                <p class="message-more">
                    { more }
                    if let Some(lines) = e.message_more_lines.filter(|_| numbered) {
                        {" "}
                        <button type="button" class="link-button select-lines"
                            onclick={Callback::from(move |_: MouseEvent| super::input::select_lines(lines))}>
                            { if lines.first == lines.last { m.select_it } else { m.select_them } }
                        </button>
                    }
                </p>
            }
            if !e.message_tail.is_empty() {
                <pre class="message message-tail">{ &e.message_tail }</pre>
            }
            <ol class="frames">
                { for e.blocks.iter().map(|b| block(b, numbered, lang)) }
            </ol>
            if e.restored > 0 {
                <p class="restored-note">{ lang.restored_note(e.restored) }</p>
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

fn block(b: &FrameBlock, numbered: bool, lang: crate::lang::Lang) -> Html {
    match b {
        FrameBlock::Shown(frames) => frames
            .iter()
            .map(|f| frame(f, numbered, lang))
            .collect::<Html>(),
        FrameBlock::Folded {
            label,
            frames,
            lines,
        } => html! {
            <li class="fold">
                <Fold
                    key={format!("{}-fold", frames[0].id)}
                    id={format!("{}-fold", frames[0].id)}
                    group={format!("g-{:?}", frames[0].group).to_lowercase()}
                    label={label.clone()}
                    lines={*lines}
                    {numbered}
                    body={FoldBody::Frames(frames.clone())}
                />
            </li>
        },
    }
}

/// The throwables a long trace does not show in full: one line that counts them, which opens to
/// a list of one line each.
fn skipped(more: &SkippedCauses, numbered: bool) -> Html {
    html! {
        <div class="fold skipped-causes">
            <Fold
                key={more.id.clone()}
                id={more.id.clone()}
                label={more.label.clone()}
                lines={more.lines}
                {numbered}
                body={FoldBody::Causes(more.listed.clone(), more.count)}
            />
        </div>
    }
}

/// What a [`Fold`] shows when open.
#[derive(Clone, PartialEq)]
pub enum FoldBody {
    /// Frames of a folded group.
    Frames(Vec<FrameView>),
    /// Throwables left out of a long trace (the listed ones, and how many there are in all).
    Causes(Vec<SkippedCause>, usize),
}

/// Properties of [`Fold`].
#[derive(Properties, PartialEq)]
pub struct FoldProps {
    /// DOM id of the `details`.
    pub id: AttrValue,
    /// The title (`12 Flink runtime frames`).
    pub label: AttrValue,
    /// CSS class of the title (`g-flink`), if any.
    #[prop_or_default]
    pub group: Option<AttrValue>,
    /// Input lines of what it holds.
    pub lines: LineRange,
    /// Whether the line numbers mean something.
    pub numbered: bool,
    /// What it shows when open.
    pub body: FoldBody,
}

/// A folded group: a `details` closed by default whose content is built only while it is open,
/// so that closed groups cost a handful of elements. It follows the `open` attribute whoever
/// sets it (a click, the `o` key, a share link's view options), through the `toggle` event; it
/// keeps its DOM id and `data-default-open`, which share links record.
#[function_component(Fold)]
pub fn fold(props: &FoldProps) -> Html {
    let open = use_state(|| false);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            if let Some(d) = e.target_dyn_into::<web_sys::HtmlDetailsElement>() {
                open.set(d.open());
            }
        })
    };
    let numbered = props.numbered;
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let body = if !*open {
        html! {}
    } else {
        match &props.body {
            FoldBody::Frames(frames) => html! {
                <ol class="frames">{ for frames.iter().map(|f| frame(f, numbered, lang)) }</ol>
            },
            FoldBody::Causes(listed, count) => html! {
                <>
                    <ol class="causes">{ for listed.iter().map(|c| cause_line(c, numbered, lang)) }</ol>
                    if *count > listed.len() {
                        <p class="restored-note">{ lang.and_more_in_input(count - listed.len()) }</p>
                    }
                </>
            },
        }
    };
    html! {
        <details id={props.id.clone()} data-default-open="false" {ontoggle}>
            <summary class={classes!("fold-label", props.group.clone())}>
                { gutter(props.lines, numbered) }
                <span class="fold-text">{ &props.label }</span>
                { spoken(props.lines, numbered, lang) }
            </summary>
            { body }
        </details>
    }
}

/// One throwable left out of a long trace: `wrapped by java.lang.RuntimeException: level 12`.
fn cause_line(c: &SkippedCause, numbered: bool, lang: crate::lang::Lang) -> Html {
    html! {
        <li class="cause-line">
            { gutter(LineRange::new(c.line, c.line), numbered) }
            <span class="relation">{ lang.relation(&c.relation) }</span>
            <code>
                { &c.class }
                if !c.message.is_empty() {
                    { format!(": {}", c.message) }
                }
            </code>
        </li>
    }
}

fn frame(f: &FrameView, numbered: bool, lang: crate::lang::Lang) -> Html {
    let highlighted = !f.roles.is_empty();
    html! {
            <li id={f.id.clone()} tabindex="-1" class={classes!("frame", highlighted.then_some("highlighted"), f.restored.then_some("restored"), format!("g-{:?}", f.group).to_lowercase())}
    >
                { gutter(LineRange::new(f.line, f.line), numbered) }
                <code class="frame-text">
                    <span class="at">{"at "}</span>
                    <span class="pkg">{ &f.package }</span>
                    <span class="name">{ &f.name }</span>
                    <span class="loc">{ format!("({})", f.location) }</span>
                    if f.restored {
                        <span class="badge" title={lang.msgs().restored_badge}>{" ↻"}</span>
                    }
                </code>
                { for f.roles.iter().map(|r| html! { <span class="role">{ super::code_spans(r) }</span> }) }
            </li>
        }
}

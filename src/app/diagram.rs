//! A finding's diagram as an inline SVG: one band per thread, time running left to right, a box
//! per step, and the moment of the exception marked. Drawn from [`DiagramView`], which the core
//! filled in from the trace (checkpoint id, operator chain, collection class).

use crate::diagram::{label_baseline, DiagramView, BOX_W, COL_W, LABEL_W, LINE_H, PAD, TOP};
use yew::prelude::*;

/// Properties of [`DiagramSvg`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The diagram.
    pub diagram: DiagramView,
    /// A DOM id prefix, unique on the page.
    pub id: AttrValue,
}

/// Renders the diagram.
#[function_component(DiagramSvg)]
pub fn diagram_svg(props: &Props) -> Html {
    let d = &props.diagram;
    let crate::diagram::Layout {
        tops,
        heights,
        width,
        height,
    } = d.layout();
    let m = use_context::<crate::lang::Lang>()
        .unwrap_or_default()
        .msgs();
    let title_id = format!("{}-title", props.id);
    let desc_id = format!("{}-desc", props.id);
    // The column where some thread throws: a dashed line across all lanes marks the moment.
    let clash = d.lanes.iter().find_map(|l| l.throws_at);
    html! {
        <figure class="diagram">
            <h4 aria-hidden="true">{ &d.title }</h4>
            <p class="dg-hint" aria-hidden="true">{ m.diagram_scroll_hint }</p>
            <div class="dg-scroll" tabindex="0" aria-label={m.diagram_label}>
            <svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox={format!("0 0 {width} {height}")}
                aria-labelledby={title_id.clone()} aria-describedby={desc_id.clone()}
                preserveAspectRatio="xMinYMin meet">
                <title id={title_id}>{ &d.title }</title>
                <desc id={desc_id}>{ &d.description }</desc>
                <defs>
                    <marker id={format!("{}-arrow", props.id)} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="dg-arrowhead" />
                    </marker>
                </defs>
                <text x="4" y="16" class="dg-time">{ m.diagram_time }</text>
                if let Some(c) = clash {
                    <line class="dg-clash" x1={(LABEL_W + c as f64 * COL_W + BOX_W / 2.0).to_string()} y1={(TOP - 6.0).to_string()}
                        x2={(LABEL_W + c as f64 * COL_W + BOX_W / 2.0).to_string()} y2={(height - 4.0).to_string()} />
                }
                { for d.lanes.iter().enumerate().map(|(li, lane)| {
                    let top = tops[li];
                    let h = heights[li];
                    let mid = top + h / 2.0;
                    html! {
                        <g class="dg-lane">
                            <line class="dg-axis" x1={LABEL_W.to_string()} y1={mid.to_string()}
                                x2={(width - 6.0).to_string()} y2={mid.to_string()}
                                marker-end={format!("url(#{}-arrow)", props.id)} />
                            { label(&lane.thread_lines, top, h) }
                            { for lane.steps.iter().enumerate().filter(|(_, s)| !s.is_empty()).map(|(ci, lines)| {
                                let x = LABEL_W + ci as f64 * COL_W;
                                let throws = lane.throws_at == Some(ci);
                                html! {
                                    <g class={classes!("dg-step", throws.then_some("dg-throws"))}>
                                        <rect x={x.to_string()} y={top.to_string()} width={BOX_W.to_string()} height={h.to_string()} rx="6" />
                                        <text x={(x + PAD).to_string()} y={(top + PAD + LINE_H - 3.0).to_string()}>
                                            { for lines.iter().enumerate().map(|(k, line)| html! {
                                                <tspan x={(x + PAD).to_string()} dy={if k == 0 { "0".to_owned() } else { LINE_H.to_string() }}>{ line }</tspan>
                                            }) }
                                        </text>
                                    </g>
                                }
                            }) }
                        </g>
                    }
                }) }
            </svg>
            </div>
            <figcaption>{ &d.caption }</figcaption>
        </figure>
    }
}

/// The thread's label, in the lines the core wrapped it to, centred on its lane.
fn label(lines: &[String], top: f64, h: f64) -> Html {
    let first = label_baseline(lines.len(), top, h);
    html! {
        <text class="dg-thread" x="4" y={first.to_string()}>
            { for lines.iter().enumerate().map(|(k, l)| html! {
                <tspan x="4" dy={if k == 0 { "0".to_owned() } else { LINE_H.to_string() }}>{ l }</tspan>
            }) }
        </text>
    }
}

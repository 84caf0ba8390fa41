//! A rule's diagram (`[diagram]` in `rule.toml`) filled in for one trace: the threads over time,
//! with the moment of the exception, as a view model the page draws as an inline SVG. The texts
//! name what this trace shows (the checkpoint id, the operator chain, the collection class).

use crate::diagnose::TraceDiagnosis;
use crate::rules::schema::Diagram;
use serde::{Deserialize, Serialize};

/// Characters per line inside a step's box.
pub const WRAP: usize = 31;

/// Characters per line of a thread's label.
pub const LABEL_WRAP: usize = 16;

/// A diagram ready to draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiagramView {
    /// Heading.
    pub title: String,
    /// Threads, top to bottom.
    pub lanes: Vec<LaneView>,
    /// Columns (steps per lane).
    pub columns: usize,
    /// Caption under the picture.
    pub caption: String,
    /// The whole picture in words, for screen readers (`aria-describedby`).
    pub description: String,
}

/// One thread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneView {
    /// The thread's label.
    pub thread: String,
    /// The label in lines of at most [`LABEL_WRAP`] characters.
    pub thread_lines: Vec<String>,
    /// Per column, the step's text in lines of at most [`WRAP`] characters (empty: no step).
    pub steps: Vec<Vec<String>>,
    /// The column where this thread throws.
    pub throws_at: Option<usize>,
}

/// The diagram's geometry, in SVG user units (the page's component and the first view draw
/// from it): the thread labels' column, a step's column and box, a text line, the padding in a
/// box, the gap between lanes, and the room above the first lane.
pub const LABEL_W: f64 = 120.0;
/// See [`LABEL_W`].
pub const COL_W: f64 = 222.0;
/// See [`LABEL_W`].
pub const BOX_W: f64 = 208.0;
/// See [`LABEL_W`].
pub const LINE_H: f64 = 15.0;
/// See [`LABEL_W`].
pub const PAD: f64 = 8.0;
/// See [`LABEL_W`].
pub const LANE_GAP: f64 = 26.0;
/// See [`LABEL_W`].
pub const TOP: f64 = 28.0;

/// Where a diagram's lanes go: each lane as tall as its tallest box.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Each lane's top (y).
    pub tops: Vec<f64>,
    /// Each lane's height.
    pub heights: Vec<f64>,
    /// The picture's width.
    pub width: f64,
    /// The picture's height.
    pub height: f64,
}

impl DiagramView {
    /// The lanes' places and the picture's size.
    pub fn layout(&self) -> Layout {
        let heights: Vec<f64> = self
            .lanes
            .iter()
            .map(|l| {
                let lines = l.steps.iter().map(Vec::len).max().unwrap_or(1).max(1);
                lines as f64 * LINE_H + 2.0 * PAD
            })
            .collect();
        let mut tops = Vec::with_capacity(heights.len());
        let mut y = TOP;
        for h in &heights {
            tops.push(y);
            y += h + LANE_GAP;
        }
        Layout {
            tops,
            heights,
            width: LABEL_W + self.columns as f64 * COL_W + 10.0,
            height: y + 6.0,
        }
    }
}

/// The baseline (y) of the first line of a thread's label of `lines` lines, centred on the lane
/// at `top` of height `h`.
pub fn label_baseline(lines: usize, top: f64, h: f64) -> f64 {
    top + h / 2.0 - (lines as f64 - 1.0) * LINE_H / 2.0 + 4.0
}

/// Fills `def`'s placeholders from `d`: `{checkpoint}` (the checkpoint id, else `N`), `{task}`
/// (the operator chain, else `the operator`), `{collection}` (the `java.util` class whose
/// iterator threw, e.g. `HashMap`, else `collection`).
pub fn build(def: &Diagram, d: &TraceDiagnosis) -> DiagramView {
    let checkpoint = d
        .context
        .checkpoint_id
        .map_or_else(|| "N".to_owned(), |c| c.to_string());
    let task = d.context.task.as_ref().map_or_else(
        || "the operator".to_owned(),
        |t| {
            let name = if t.operators.is_empty() {
                t.name.clone()
            } else {
                t.operators.join(" → ")
            };
            crate::wording::cap_name(&name, crate::wording::MAX_NAME_CHARS)
        },
    );
    let collection = d
        .trace
        .throwables
        .get(d.root_cause)
        .and_then(|t| t.frames.first())
        .filter(|f| f.class.starts_with("java.util."))
        .map(|f| {
            let simple = f.simple_class();
            simple.split('$').next().unwrap_or(simple).to_owned()
        })
        .unwrap_or_else(|| "collection".to_owned());
    let fill = |s: &str| {
        s.replace("{checkpoint}", &checkpoint)
            .replace("{task}", &task)
            .replace("{collection}", &collection)
    };
    let columns = def.lanes.first().map_or(0, |l| l.steps.len());
    let lanes: Vec<LaneView> = def
        .lanes
        .iter()
        .map(|l| LaneView {
            thread: fill(&l.thread),
            thread_lines: wrap(&fill(&l.thread), LABEL_WRAP),
            steps: l.steps.iter().map(|s| wrap(&fill(s), WRAP)).collect(),
            throws_at: l.throws_at,
        })
        .collect();
    let mut description = String::new();
    for (i, l) in def.lanes.iter().enumerate() {
        if i > 0 {
            description.push(' ');
        }
        description.push_str(&format!("{}:", fill(&l.thread)));
        for (c, s) in l.steps.iter().enumerate() {
            if s.is_empty() {
                continue;
            }
            description.push_str(&format!(" ({}) {}", c + 1, fill(s)));
            if l.throws_at == Some(c) {
                description.push_str(" — the exception is thrown here");
            }
            description.push(';');
        }
    }
    DiagramView {
        title: fill(&def.title),
        lanes,
        columns,
        caption: fill(&def.caption),
        description,
    }
}

/// Splits `text` into lines of at most `width` columns at spaces (a CJK character takes two);
/// a longer word (an operator name, a run of Chinese) is cut into pieces of `width` columns.
fn wrap(text: &str, width: usize) -> Vec<String> {
    use crate::digest::display_width;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let width = width.max(2);
    let pieces = text.split_whitespace().flat_map(|w| {
        let mut out = vec![String::new()];
        for c in w.chars() {
            let last = out.last_mut().expect("one piece at least");
            let mut buf = [0; 4];
            if !last.is_empty()
                && display_width(last) + display_width(c.encode_utf8(&mut buf)) > width
            {
                out.push(String::new());
            }
            out.last_mut().expect("one piece at least").push(c);
        }
        out
    });
    for word in pieces {
        let word = word.as_str();
        if !line.is_empty() && display_width(&line) + 1 + display_width(word) > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flagship_diagram_names_this_traces_checkpoint_chain_and_map() {
        let d = crate::diagnose(include_str!("../../tests/cases/seed.txt"));
        let t = &d.traces[0];
        let rule = crate::rules::by_id("async-wait-inflight-cme").expect("flagship");
        let def = rule
            .def
            .diagram
            .as_ref()
            .expect("the flagship has a diagram");
        let v = build(def, t);
        assert_eq!(v.lanes.len(), 2);
        let all = format!("{} {} {}", v.title, v.caption, v.description);
        assert!(all.contains("575"), "{all}");
        assert!(all.contains("HashMap"), "{all}");
        assert!(
            all.contains("ual_transform_UserLogBlackUidJudger → ual_transform_IpLabel"),
            "{all}"
        );
        assert!(v.lanes.iter().any(|l| l.throws_at.is_some()));
        for l in &v.lanes {
            assert_eq!(l.steps.len(), v.columns);
            for line in l.steps.iter().flatten() {
                assert!(line.chars().count() <= WRAP, "{line}");
            }
        }
    }

    #[test]
    fn placeholders_without_facts_read_generically() {
        let d = crate::diagnose(
            "java.util.ConcurrentModificationException\n\tat com.acme.A.b(A.java:1)\n",
        );
        let def = Diagram {
            title: "{collection} at {checkpoint} in {task}".into(),
            lanes: vec![],
            caption: String::new(),
        };
        let v = build(&def, &d.traces[0]);
        assert_eq!(v.title, "collection at N in the operator");
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert!(wrap("", 4).is_empty());
    }
}

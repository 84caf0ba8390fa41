//! Markdown to plain text, for the `text` of a rule's `Prose` (the mail reply digest wraps it
//! at 72 columns at run time). Used by `build.rs` and checked by `tests/prose_text.rs`, both of
//! which include this file by path: the library itself does not depend on pulldown-cmark.
//!
//! The shape of the result is documented on `Prose::text` (`src/know/rules/schema.rs`): blocks
//! separated by a blank line, a paragraph on one line, list items as `- ` / `1. ` lines indented
//! by the markers above them, code block lines as indentation plus a tab, emphasis and HTML
//! dropped, code spans as their text, links as `text (url)`.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// One open list: the next number of an ordered list (`None` for a bullet list), and the
/// width of the marker of its current item (the indentation of the item's further lines).
struct List {
    next: Option<u64>,
    marker_width: usize,
}

/// Renders `md` (CommonMark) as plain text.
pub fn to_text(md: &str) -> String {
    let mut out = String::new();
    let mut lists: Vec<List> = Vec::new();
    // Open links and images: (destination, where their text starts in `out`).
    let mut links: Vec<(String, usize)> = Vec::new();
    let mut in_code_block = false;
    // Just after an item's marker: the item's first paragraph goes on the marker's line.
    let mut after_marker = false;
    let indent = |lists: &[List]| " ".repeat(lists.iter().map(|l| l.marker_width).sum());
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::Paragraph | Tag::Heading { .. }) => {
                if after_marker {
                    after_marker = false;
                } else {
                    block_break(&mut out, true);
                    out.push_str(&indent(&lists));
                }
            }
            Event::Start(Tag::CodeBlock(_)) => {
                block_break(&mut out, !after_marker);
                after_marker = false;
                in_code_block = true;
            }
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Start(Tag::List(start)) => {
                if lists.is_empty() {
                    block_break(&mut out, true);
                }
                after_marker = false;
                lists.push(List {
                    next: start,
                    marker_width: 0,
                });
            }
            Event::End(TagEnd::List(_)) => {
                lists.pop();
                after_marker = false;
            }
            Event::Start(Tag::Item) => {
                block_break(&mut out, false);
                let outer = indent(&lists[..lists.len().saturating_sub(1)]);
                let marker = match lists.last_mut() {
                    Some(list) => {
                        let marker = match &mut list.next {
                            Some(n) => {
                                let m = format!("{n}. ");
                                *n += 1;
                                m
                            }
                            None => "- ".to_owned(),
                        };
                        list.marker_width = marker.len();
                        marker
                    }
                    None => "- ".to_owned(),
                };
                out.push_str(&outer);
                out.push_str(&marker);
                after_marker = true;
            }
            Event::End(TagEnd::Item) => after_marker = false,
            Event::Text(t) if in_code_block => {
                let pad = indent(&lists);
                for line in t.lines() {
                    out.push_str(&pad);
                    out.push('\t');
                    out.push_str(line);
                    out.push('\n');
                }
            }
            Event::Text(t) | Event::Code(t) => {
                // A tight list item's text comes without a paragraph.
                after_marker = false;
                out.push_str(&t);
            }
            Event::SoftBreak => out.push(' '),
            Event::HardBreak => {
                out.push('\n');
                out.push_str(&indent(&lists));
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push((dest_url.to_string(), out.len()));
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some((url, start)) = links.pop() {
                    let text = out.get(start..).unwrap_or_default();
                    if !url.is_empty() && !url.starts_with('#') && text != url {
                        out.push_str(&format!(" ({url})"));
                    }
                }
            }
            Event::Rule => {
                block_break(&mut out, true);
                out.push_str("----");
            }
            Event::TaskListMarker(done) => out.push_str(if done { "[x] " } else { "[ ] " }),
            // Emphasis, strong, block quotes, HTML, footnotes: their text stays, the markup goes.
            _ => {}
        }
    }
    out.trim_end().to_owned()
}

/// Ends the current line (trailing spaces dropped) and, when `blank`, makes sure an empty line
/// follows; an empty line already there is kept. Nothing at the very start.
fn block_break(out: &mut String, blank: bool) {
    let kept = out.trim_end_matches(' ').len();
    out.truncate(kept);
    if out.is_empty() {
        return;
    }
    let newlines = out.len() - out.trim_end_matches('\n').len();
    for _ in newlines..if blank { 2 } else { 1 } {
        out.push('\n');
    }
}

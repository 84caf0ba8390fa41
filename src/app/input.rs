//! The input panel: the text area, "Try the example", "Clear", and "Open a file…" (or a file
//! dropped on the panel).

use super::persist::{self, Kept};
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// Properties of [`InputPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Called with the new text and whether to diagnose at once (no debounce). Typing is
    /// debounced here: the text is read once the person pauses, and sent with `true`.
    pub on_input: Callback<(String, bool)>,
    /// Called on the first keystroke after a pause: the text shown is no longer the one
    /// diagnosed (cheap: the text is not read).
    pub on_edit: Callback<()>,
    /// Whether the text area holds anything (enables "Clear").
    pub has_text: bool,
    /// A text to put into the text area ([`Load`]: a share link's, a rule's example, or the
    /// text kept from an earlier visit). The replaced text can be restored.
    pub load: Option<Load>,
    /// Whether the text was kept in this browser for the next visit (`None`: not yet saved).
    #[prop_or_default]
    pub kept: Option<Kept>,
    /// Called when "Try the example" is pressed (the page brings its diagnosis into view on a
    /// phone).
    #[prop_or_default]
    pub on_example: Callback<()>,
    /// The length in characters of the text's longest line when it is longer than the text
    /// area can draw ([`long_line`]); the panel then says so under it.
    #[prop_or_default]
    pub long_line: Option<usize>,
}

/// Lines longer than this many bytes are said to be too long to draw: Chromium lays out no
/// wider than 2^25 CSS pixels (`LayoutUnit`'s range), about 4.3 million characters of the text
/// area's 13 px monospace font, and draws nothing of a longer line, wrapped or not (a 5 MB line
/// seen in Chromium 156); a quarter of that leaves room for larger fonts.
pub const LONG_LINE: usize = 1_000_000;

/// The length in characters of the longest line of `text` when it is over [`LONG_LINE`] bytes;
/// `None` otherwise (at once for a text no longer than that).
pub fn long_line(text: &str) -> Option<usize> {
    if text.len() <= LONG_LINE {
        return None;
    }
    text.split('\n')
        .filter(|l| l.len() > LONG_LINE)
        .map(|l| l.chars().count())
        .max()
}

/// A text for the input to show: from a share link, a rule's example (`own: false`), or the
/// person's own text kept from an earlier visit (`own: true`). `n` numbers the loads, so that
/// the same text can be loaded twice.
#[derive(Clone, PartialEq)]
pub struct Load {
    pub n: u64,
    pub text: Rc<str>,
    pub own: bool,
}

/// The largest file the page reads, in bytes (decimal MB): the same order as the largest text
/// the pathological tests read whole (100 MB of log), beyond which a text area is unusable.
pub const MAX_FILE_BYTES: f64 = 100e6;

/// A file's bytes as text, and what to tell the person about how it was read. UTF-8 and UTF-16
/// as the command line reads them ([`crate::decode::bytes_to_text`]); a file that is not UTF-8
/// (bytes replaced by U+FFFD) is tried as GB18030, the superset of GBK that Chinese Windows
/// saves (the browser's `TextDecoder`), and kept so when it decodes without an error into runs
/// of Chinese; otherwise the note says how many characters were replaced and what to do.
fn decode_file(bytes: &[u8], lang: crate::lang::Lang) -> (String, Option<String>) {
    let text = crate::decode::bytes_to_text(bytes);
    let replaced = text.chars().filter(|&c| c == '\u{fffd}').count();
    if replaced == 0 {
        return (text, None);
    }
    if let Some(gbk) = gb18030(bytes).filter(|t| chinese_runs(t)) {
        return (gbk, Some(lang.msgs().file_read_as_gbk.to_owned()));
    }
    (text, Some(lang.file_not_utf8(replaced)))
}

/// `bytes` decoded as GB18030, `None` on any invalid sequence.
fn gb18030(bytes: &[u8]) -> Option<String> {
    let options = web_sys::TextDecoderOptions::new();
    options.set_fatal(true);
    let decoder = web_sys::TextDecoder::new_with_label_and_options("gb18030", &options).ok()?;
    decoder.decode_with_u8_array(bytes).ok()
}

/// Whether `text` holds Chinese words, not single stray ideographs (Latin-1's `ü` before a
/// letter also decodes as GB18030, into one ideograph between Latin letters): most of its
/// ideographs stand next to another.
fn chinese_runs(text: &str) -> bool {
    let cjk = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    let chars: Vec<char> = text.chars().take(200_000).collect();
    let (mut all, mut paired) = (0usize, 0usize);
    for (i, &c) in chars.iter().enumerate() {
        if cjk(c) {
            all += 1;
            let before = i > 0 && cjk(chars[i - 1]);
            let after = chars.get(i + 1).is_some_and(|&n| cjk(n));
            paired += usize::from(before || after);
        }
    }
    all >= 2 && paired * 4 >= all * 3
}

/// Whether a file's decoded text is text at all: in its first 64 K characters no NUL (binary
/// files; UTF-16, with or without a byte-order mark, is decoded before) and at most 20 % replacement characters (bytes that
/// are not UTF-8: a random binary file has far more; a GBK or Latin-1 log, mostly ASCII, passes
/// and is read with its other characters replaced).
pub fn looks_like_text(text: &str) -> bool {
    let (mut n, mut bad) = (0usize, 0usize);
    for c in text.chars().take(65_536) {
        n += 1;
        match c {
            '\0' => return false,
            '\u{fffd}' => bad += 1,
            _ => {}
        }
    }
    bad * 5 <= n
}

/// How long typing waits for a pause before the text is read and diagnosed, by its size in
/// bytes (UTF-16 units, as the text area counts them): reading a big text area costs the page
/// a copy of its whole text, so it is not read on every key.
pub fn debounce_ms(len: usize) -> u32 {
    match len {
        0..=20_000 => 150,
        20_001..=1_000_000 => 300,
        _ => 600,
    }
}

/// Typing waiting for a pause: its timer, dropped (cancelled) when the text is read sooner.
type Pending = Rc<RefCell<Option<gloo::timers::callback::Timeout>>>;

/// Puts `text` into the text area, keeping the text it replaces in `stash`, and reports the
/// new text to `cb` for an immediate diagnosis. The replaced text is not kept when it is empty,
/// the example, or `borrowed`: a link's or an example's text left unedited (it can be opened
/// again; keeping it would push out the person's own text). `own` says whether `text` is the
/// person's; `borrowed` is updated to match.
fn put(
    pending: &Pending,
    area: &NodeRef,
    stash: &UseStateHandle<Option<String>>,
    borrowed: &RefCell<Option<Rc<str>>>,
    cb: &Callback<(String, bool)>,
    text: &str,
    own: bool,
) {
    // Typing not yet read is part of the text replaced (and kept).
    pending.borrow_mut().take();
    if let Some(t) = area.cast::<HtmlTextAreaElement>() {
        let old = t.value();
        if old == text {
            return;
        }
        let was_empty = old.is_empty();
        let unedited = borrowed.borrow().as_deref() == Some(old.as_str());
        if worth_restoring(&old) && !unedited {
            persist::save_previous(Some(&old));
            stash.set(Some(old));
        }
        *borrowed.borrow_mut() = (!own).then(|| Rc::from(text));
        persist::mark_borrowed((!own).then_some(text));
        t.set_value(text);
        // Back to the top of the new text (an empty area is there already, and setting it would
        // force a layout while the page opens with a text).
        if !was_empty {
            t.set_scroll_top(0);
        }
        if text.is_empty() {
            // "Clear" disables itself: move focus where the person will type next.
            let _ = t.focus();
        }
    }
    cb.emit((text.to_owned(), true));
}

/// When the page is hidden or left with typing not yet read: reads the text, keeps it in this
/// browser at once (the page may not run again), and hands it on.
fn flush_on_hide(pending: Pending, latest: Rc<RefCell<Callback<(String, bool)>>>, area: NodeRef) {
    super::on_page_hidden(move || {
        if pending.borrow_mut().take().is_none() {
            return;
        }
        if let Some(t) = area.cast::<HtmlTextAreaElement>() {
            let text = t.value();
            let _ = persist::save(&text);
            latest.borrow().emit((text, true));
        }
    });
}

/// The text area is uncontrolled: the page never rewrites what the person typed; it only reads
/// it on `input`, and writes it when the person asks for the example or to clear.
#[function_component(InputPanel)]
pub fn input_panel(props: &Props) -> Html {
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    let area = use_node_ref();
    // The parent's callback as of the last render: a timer set at a keystroke fires after the
    // page has re-rendered, and must not call a callback that holds an older state.
    let latest = use_mut_ref(|| props.on_input.clone());
    *latest.borrow_mut() = props.on_input.clone();
    let pending: Pending = use_mut_ref(|| None);
    let oninput = {
        let cb = props.on_input.clone();
        let on_edit = props.on_edit.clone();
        let pending = pending.clone();
        let latest = latest.clone();
        let area = area.clone();
        Callback::from(move |e: InputEvent| {
            // A paste or a drop is a whole change: diagnose it now. Typing waits for a pause.
            // Read defensively: an `input` event made by a script may be a plain `Event`, with
            // no `inputType` (web-sys' getter would throw).
            let kind = js_sys::Reflect::get(&e, &"inputType".into())
                .ok()
                .and_then(|v| v.as_string());
            let whole = matches!(kind.as_deref(), Some("insertFromPaste" | "insertFromDrop"));
            let Some(t) = e.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            if whole || kind.is_none() {
                pending.borrow_mut().take();
                cb.emit((t.value(), whole));
                return;
            }
            // Typing: the text is read once, when the person pauses (reading a 1 MB text area
            // on every key cost the page ~40 ms a key).
            if pending.borrow().is_none() {
                on_edit.emit(());
            }
            let len = usize::try_from(t.text_length()).unwrap_or(usize::MAX);
            let timer = {
                let pending = pending.clone();
                let latest = latest.clone();
                let area = area.clone();
                gloo::timers::callback::Timeout::new(debounce_ms(len), move || {
                    pending.borrow_mut().take();
                    if let Some(t) = area.cast::<HtmlTextAreaElement>() {
                        latest.borrow().emit((t.value(), true));
                    }
                })
            };
            *pending.borrow_mut() = Some(timer);
        })
    };
    // Typing not yet read when the page is hidden or left: read and keep it now.
    {
        let pending = pending.clone();
        let latest = latest.clone();
        let area = area.clone();
        use_effect_with((), move |_| {
            flush_on_hide(pending, latest, area);
        });
    }
    // Text replaced by "Try the example" or "Clear", kept so one click brings it back;
    // restoring swaps, so the text it replaces is kept in turn (nothing is ever lost).
    // Kept in the browser too, so a reload after a replaced text does not lose it.
    let stash = use_state(persist::load_previous);
    // The text put in from a link or an example, while it is in the area unedited.
    let borrowed: Rc<RefCell<Option<Rc<str>>>> = use_mut_ref(|| None);
    let replace_with = |text: &'static str| {
        let area = area.clone();
        let cb = props.on_input.clone();
        let stash = stash.clone();
        let borrowed = borrowed.clone();
        let pending = pending.clone();
        Callback::from(move |_: MouseEvent| {
            put(&pending, &area, &stash, &borrowed, &cb, text, true)
        })
    };
    {
        let area = area.clone();
        let cb = props.on_input.clone();
        let stash = stash.clone();
        let borrowed = borrowed.clone();
        let pending = pending.clone();
        use_effect_with(props.load.as_ref().map(|l| l.n), {
            let load = props.load.clone();
            move |_| {
                if let Some(l) = load {
                    put(&pending, &area, &stash, &borrowed, &cb, &l.text, l.own);
                }
            }
        });
    }
    let restore = {
        let area = area.clone();
        let cb = props.on_input.clone();
        let stash = stash.clone();
        let borrowed = borrowed.clone();
        let pending = pending.clone();
        Callback::from(move |_: MouseEvent| {
            pending.borrow_mut().take();
            if let (Some(old), Some(t)) = ((*stash).clone(), area.cast::<HtmlTextAreaElement>()) {
                let current = t.value();
                t.set_value(&old);
                *borrowed.borrow_mut() = None;
                persist::mark_borrowed(None);
                let next = worth_restoring(&current).then_some(current);
                persist::save_previous(next.as_deref());
                stash.set(next);
                cb.emit((old, true));
            }
        })
    };
    // A file opened with "Open a file…" or dropped on the panel: read as bytes and decoded as the
    // CLI decodes a file (BOM, UTF-16, lossy UTF-8; GBK tried first when it is not UTF-8:
    // `decode_file`), then put in the text area as if pasted.
    let file_note = use_state(|| None::<String>);
    let reading = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let open_file = {
        let area = area.clone();
        let cb = props.on_input.clone();
        let stash = stash.clone();
        let borrowed = borrowed.clone();
        let pending = pending.clone();
        let file_note = file_note.clone();
        let reading = reading.clone();
        Rc::new(move |file: web_sys::File| {
            if file.size() > MAX_FILE_BYTES {
                file_note.set(Some(
                    lang.file_too_large(file.size(), (MAX_FILE_BYTES / 1e6) as usize),
                ));
                return;
            }
            file_note.set(None);
            let (area, cb, stash, borrowed, pending, file_note) = (
                area.clone(),
                cb.clone(),
                stash.clone(),
                borrowed.clone(),
                pending.clone(),
                file_note.clone(),
            );
            let task =
                gloo::file::callbacks::read_as_bytes(&gloo::file::Blob::from(file), move |read| {
                    match read {
                        Ok(bytes) => {
                            let (text, note) = decode_file(&bytes, lang);
                            if text.trim().is_empty() {
                                file_note.set(Some(m.file_empty.to_owned()));
                            } else if !looks_like_text(&text) {
                                file_note.set(Some(m.file_not_text.to_owned()));
                            } else {
                                file_note.set(note);
                                put(&pending, &area, &stash, &borrowed, &cb, &text, true);
                            }
                        }
                        Err(_) => file_note.set(Some(m.file_read_error.to_owned())),
                    }
                });
            *reading.borrow_mut() = Some(task);
        })
    };
    let file_input = use_node_ref();
    let onchange_file = {
        let open_file = open_file.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                open_file(file);
            }
            // The same file can be opened again.
            input.set_value("");
        })
    };
    let pick_file = {
        let file_input = file_input.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = file_input.cast::<web_sys::HtmlInputElement>() {
                input.click();
            }
        })
    };
    let has_files = |e: &DragEvent| {
        e.data_transfer().is_some_and(|d| {
            d.types()
                .iter()
                .any(|t| t.as_string().as_deref() == Some("Files"))
        })
    };
    // A file dragged over the panel: allow the drop (the browser would otherwise open the
    // file in place of the page, and the text typed would be gone).
    let ondragover = Callback::from(move |e: DragEvent| {
        if has_files(&e) {
            e.prevent_default();
        }
    });
    let ondrop = {
        let open_file = open_file.clone();
        Callback::from(move |e: DragEvent| {
            let Some(file) = e
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|f| f.get(0))
            else {
                return;
            };
            e.prevent_default();
            open_file(file);
        })
    };
    html! {
        <section class="input" aria-label={m.input_section} {ondragover} {ondrop}>
            <label for="trace-input" class="input-label">{ m.input_label }</label>
            <div class="input-area">
                <textarea id="trace-input" ref={area.clone()} {oninput} spellcheck="false" autocomplete="off"
                    placeholder={m.input_placeholder} />
            </div>
            <div class="actions">
                <button id="try-example" type="button" class="primary" onclick={{
                    let load_example = replace_with(crate::FLAGSHIP_EXAMPLE);
                    let on_example = props.on_example.clone();
                    Callback::from(move |e: MouseEvent| {
                        on_example.emit(());
                        load_example.emit(e);
                    })
                }}>{ m.try_example }</button>
                <button id="clear" type="button" disabled={!props.has_text} onclick={replace_with("")}>{ m.clear }</button>
                if stash.is_some() {
                    <button id="restore" type="button" onclick={restore} title={m.restore_title}>{ m.restore }</button>
                }
                <button id="open-file" type="button" onclick={pick_file} title={m.open_file_title}>{ m.open_file }</button>
                <input id="open-file-input" ref={file_input} type="file" hidden=true tabindex="-1" aria-label={m.open_file}
                    accept=".log,.txt,.out,.err,.json,text/*,application/json" onchange={onchange_file} />
                <span class="hint">{ m.example_hint }</span>
            </div>
            if let Some(note) = &*file_note {
                <p class="file-note" id="file-note" role="alert">{ crate::app::code_spans(note) }</p>
            }
            if let Some(chars) = props.long_line {
                <p class="hint long-line" id="long-line">{ lang.line_too_long(chars) }</p>
            }
            { match props.kept {
                Some(Kept::Yes) => html! { <p class="kept hint" id="kept" data-kept="yes">{ m.kept_yes }</p> },
                Some(Kept::TooLarge(n)) => html! { <p class="kept hint" id="kept" data-kept="too-large">{ lang.kept_too_large(n) }</p> },
                Some(Kept::Refused) => html! { <p class="kept hint" id="kept" data-kept="refused">{ m.kept_refused }</p> },
                _ => html! {},
            } }
        </section>
    }
}

/// Selects input lines `lines` (1-based, inclusive) in the text area, focuses it and scrolls the
/// first of them into view: where to read what the page left out of a long message. Lines past
/// the end select up to the end. The text area counts UTF-16 code units; the lines are found in
/// its current value.
pub fn select_lines(lines: crate::view::LineRange) {
    let Some(area) = trace_input() else {
        return;
    };
    let value = area.value();
    let (mut start, mut end, mut line, mut units) = (None, None, 1usize, 0u32);
    for c in value.chars() {
        if start.is_none() && line == lines.first {
            start = Some(units);
        }
        if c == '\n' {
            if line == lines.last {
                end = Some(units);
                break;
            }
            line += 1;
        }
        units += c.len_utf16() as u32;
    }
    let start = start.unwrap_or(units);
    let end = end.unwrap_or(units);
    // Backward, so that the browser scrolls to the selection's start.
    let _ = area.set_selection_range_with_direction(start, end, "backward");
    super::focus_without_scroll(&area);
    // The text area's own scroll: the first line near the top (its line height, read from the
    // layout, over the lines above).
    let line_height = area.scroll_height() as f64 / (value.matches('\n').count() + 1) as f64;
    area.set_scroll_top(((lines.first.saturating_sub(2)) as f64 * line_height) as i32);
    let scroll = web_sys::ScrollIntoViewOptions::new();
    scroll.set_block(web_sys::ScrollLogicalPosition::Nearest);
    area.scroll_into_view_with_scroll_into_view_options(&scroll);
}

/// The trace input (`#trace-input`), when the page has it.
pub(super) fn trace_input() -> Option<HtmlTextAreaElement> {
    let el = web_sys::window()?
        .document()?
        .get_element_by_id("trace-input")?;
    wasm_bindgen::JsCast::dyn_into::<HtmlTextAreaElement>(el).ok()
}

/// Whether a text replaced in the input is worth bringing back with "Restore previous text":
/// not empty, and not the example (one click brings that back).
pub(super) fn worth_restoring(text: &str) -> bool {
    !text.trim().is_empty() && text != crate::FLAGSHIP_EXAMPLE
}

//! Share links: the page's whole state in the URL fragment, compressed, never sent anywhere.
//!
//! A link is `<page URL>#/s/<payload>`; browsers do not send the fragment (`#…`) to the server,
//! so the trace never leaves the person's machine unless they send the link themselves.
//!
//! The payload is the format version, a dot, then base64url without padding (RFC 4648 §5) of a
//! zlib stream (deflate at the best level, with its Adler-32 checksum: a changed character is
//! detected instead of restoring wrong text) of
//!
//! ```text
//! {"n":5321,"f":"async-wait-inflight-cme","t":1}   one line of JSON: everything but the text
//! 2021-08-18 06:18:37                             then the text, as pasted
//! java.io.IOException: Could not perform checkpoint 575 …
//! ```
//!
//! The header comes first, so a link that was cut short (mail clients cut links past about
//! 2,000 characters) still yields the header and a prefix of the text, which [`decode`] restores
//! and reports in a [`LinkError`]. [`shorten`] makes the text of a shorter link (only the frames
//! that matter) and [`catalog_link`] a link to a rule's page.

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, URL_SAFE_NO_PAD};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use miniz_oxide::inflate::TINFLStatus;
use serde::{Deserialize, Serialize};
use std::fmt;

pub use super::shorten::{shorten, shorten_trace, Shortened};

/// The payload format this code writes (`1.` starts every payload).
pub const FORMAT_VERSION: &str = "1";
/// What follows the page URL: the hash route of a shared state (`#/s/<payload>`).
pub const ROUTE: &str = "#/s/";
/// The largest text a link may restore (bytes of UTF-8, 20 MiB): a guard against links that
/// inflate to gigabytes (a "zip bomb"). Longer texts are cut there, with [`LinkError::TooLarge`].
pub const MAX_TEXT_BYTES: usize = 20 * 1024 * 1024;
/// Links longer than this many characters get broken by some mail clients; past it the page
/// offers a shorter link.
pub const MAIL_SAFE_LENGTH: usize = 2000;
/// Room for the JSON header on top of [`MAX_TEXT_BYTES`] when inflating (bytes).
const MAX_HEADER_BYTES: usize = 64 * 1024;
/// The best compression level of `miniz_oxide` (0–10).
const LEVEL: u8 = 10;

/// Everything a share link carries: the page restores exactly this.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedState {
    /// The pasted text, exactly as pasted (any UTF-8, CRLF and NUL included).
    pub text: String,
    /// The rule id of the finding the person chose (`async-wait-inflight-cme`); `None`: the
    /// page's default (the first finding).
    pub finding: Option<String>,
    /// The chosen trace: its 1-based input-order number (`TraceView::number`, the `3` of the
    /// card id `t3`); `None`: none chosen.
    pub trace: Option<usize>,
    /// How the page was laid out.
    pub options: ViewOptions,
    /// For the text of a shorter link: what [`shorten`] left out, one phrase each
    /// (`41 of 58 frames of the root cause`), so the page can say so. Empty otherwise.
    pub left_out: Vec<String>,
    /// The rules of the findings the page showed for this text (ids): a hint that lets the
    /// opening page fetch their prose while its module starts (`index.html` reads it; issue 13).
    /// The page diagnoses the text itself; nothing else reads this. Filled by [`offer`].
    pub rules: Vec<String>,
}

/// View options carried by a link. Every field has a default and old links lack new fields:
/// add fields with `#[serde(default)]` semantics only, so that old links keep opening.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewOptions {
    /// DOM ids (`t1-e2`, a frame fold's id) of the sections the person opened that are closed
    /// by default.
    #[serde(rename = "o", skip_serializing_if = "Vec::is_empty")]
    pub opened: Vec<String>,
    /// DOM ids of the sections open by default that the person closed.
    #[serde(rename = "c", skip_serializing_if = "Vec::is_empty")]
    pub closed: Vec<String>,
    /// Every trace shown in full, not only the first 20.
    #[serde(rename = "a", skip_serializing_if = "is_false")]
    pub all_traces: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl ViewOptions {
    /// True when nothing differs from the page's defaults.
    pub fn is_default(&self) -> bool {
        *self == ViewOptions::default()
    }
}

/// The first line of the inflated payload. Short keys: it travels in every link.
#[derive(Default, Serialize, Deserialize)]
#[serde(default)]
struct Header {
    /// Length of the text in bytes, to say how much of a cut link was restored.
    n: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<usize>,
    #[serde(skip_serializing_if = "ViewOptions::is_default")]
    o: ViewOptions,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    l: Vec<String>,
    /// [`SharedState::rules`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    r: Vec<String>,
    /// A 16-bit checksum of each [`CHUNK`] bytes of the text, base64url: what a cut link
    /// restores is checked chunk by chunk (the zlib checksum covers only the whole).
    #[serde(skip_serializing_if = "String::is_empty")]
    s: String,
}

/// Bytes of text per checksum in the header: a cut link restores whole chunks only.
const CHUNK: usize = 1024;

/// FNV-1a of `chunk`, folded to 16 bits.
fn chunk_sum(chunk: &[u8]) -> [u8; 2] {
    let h = chunk.iter().fold(0x811c_9dc5_u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    (((h >> 16) ^ h) as u16).to_be_bytes()
}

fn chunk_sums(text: &[u8]) -> String {
    let sums: Vec<u8> = text.chunks(CHUNK).flat_map(chunk_sum).collect();
    URL_SAFE_NO_PAD.encode(sums)
}

/// What could be restored from a damaged link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Recovered {
    /// The state as far as it was read: the header's settings and a prefix of the text (cut at
    /// a `char` boundary, possibly in the middle of a line).
    pub state: SharedState,
    /// Bytes of text restored (`state.text.len()`).
    pub bytes: usize,
    /// Length of the whole text in bytes, as the link's header says.
    pub total_bytes: usize,
    /// Lines restored (a last partial line counts).
    pub lines: usize,
}

/// Why a link could not be read whole. Each variant's `Display` is one sentence for the page;
/// [`LinkError::recovered`] gives what could be restored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LinkError {
    /// Nothing was given.
    Empty,
    /// The text is no share link (no `#/s/`, and no `<version>.` payload).
    NotALink,
    /// A payload of another format version (a newer Trace Doctor made it).
    UnknownVersion {
        /// The version as written in the link.
        version: String,
    },
    /// The link ends before its data does: it was cut.
    Truncated {
        /// The header and a prefix of the text, when the cut falls after the header.
        recovered: Option<Box<Recovered>>,
    },
    /// A character that cannot be in a link, or data that fails its checksum.
    Corrupted {
        /// 1-based position, in characters, of the first bad character in what was given to
        /// [`decode`]; `None` when every character is valid but the data does not check out
        /// (a character was changed somewhere, position unknown).
        position: Option<usize>,
        /// The bad character, when known.
        found: Option<char>,
        /// What was read before the bad character (nothing when the position is unknown: the
        /// damage may be anywhere).
        recovered: Option<Box<Recovered>>,
    },
    /// The data inflates to more than [`MAX_TEXT_BYTES`].
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
        /// The header and the first `limit` bytes or so of the text.
        recovered: Option<Box<Recovered>>,
    },
    /// The data is intact but its header cannot be read.
    BadHeader {
        /// What is wrong with it.
        detail: String,
        /// The text with default settings, when the header line ends.
        recovered: Option<Box<Recovered>>,
    },
}

impl LinkError {
    /// What could be restored, if anything.
    pub fn recovered(&self) -> Option<&Recovered> {
        match self {
            LinkError::Truncated { recovered }
            | LinkError::Corrupted { recovered, .. }
            | LinkError::TooLarge { recovered, .. }
            | LinkError::BadHeader { recovered, .. } => recovered.as_deref(),
            _ => None,
        }
    }

    /// Takes what could be restored, if anything.
    pub fn into_recovered(self) -> Option<Recovered> {
        match self {
            LinkError::Truncated { recovered }
            | LinkError::Corrupted { recovered, .. }
            | LinkError::TooLarge { recovered, .. }
            | LinkError::BadHeader { recovered, .. } => recovered.map(|r| *r),
            _ => None,
        }
    }
}

/// `; restored the first 40 lines (1234 of 5678 bytes) of the text`, `, but the whole text was
/// restored (40 lines, 5678 bytes)` or `; nothing could be restored`.
fn restored(r: Option<&Recovered>) -> String {
    match r {
        Some(r) if r.bytes == 0 => "; only its settings were restored, none of the text".to_owned(),
        // Cut after the text's last checked piece: only the stream's end was lost.
        Some(r) if r.bytes == r.total_bytes => format!(
            ", but the whole text was restored ({} line{}, {} bytes)",
            r.lines,
            if r.lines == 1 { "" } else { "s" },
            r.bytes
        ),
        Some(r) => format!(
            "; restored the first {} line{} ({} of {} bytes) of the text",
            r.lines,
            if r.lines == 1 { "" } else { "s" },
            r.bytes,
            r.total_bytes
        ),
        None => "; nothing could be restored".to_owned(),
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Empty => write!(f, "The link is empty."),
            LinkError::NotALink => write!(
                f,
                "This is not a Trace Doctor share link (those end in \"{ROUTE}\" followed by the shared trace)."
            ),
            LinkError::UnknownVersion { version } => write!(
                f,
                "This share link is in format {version}, which this Trace Doctor cannot read (a newer version made it; format {FORMAT_VERSION} is known)."
            ),
            LinkError::Truncated { recovered } => write!(
                f,
                "The link is cut short (mail clients cut long links){}.",
                restored(recovered.as_deref())
            ),
            LinkError::Corrupted {
                position: Some(p),
                found,
                recovered,
            } => {
                let what = found.map_or(String::new(), |c| format!(" (an unexpected {c:?})"));
                write!(
                    f,
                    "The link is damaged at character {p}{what}{}.",
                    restored(recovered.as_deref())
                )
            }
            LinkError::Corrupted {
                position: None,
                recovered,
                ..
            } => write!(
                f,
                "The link was changed somewhere (its checksum does not match){}; ask for the link again.",
                restored(recovered.as_deref())
            ),
            LinkError::TooLarge { limit, recovered } => write!(
                f,
                "The shared text is larger than the {} MB a link may hold{}.",
                limit / (1024 * 1024),
                restored(recovered.as_deref())
            ),
            LinkError::BadHeader { detail, recovered } => write!(
                f,
                "The link's settings cannot be read ({detail}){}.",
                match recovered {
                    Some(_) => "; the text was restored with the default settings",
                    None => "; nothing could be restored",
                }
            ),
        }
    }
}

impl std::error::Error for LinkError {}

/// The payload of a link to `state`: `1.` then base64url (no padding) of the zlib stream.
/// Deterministic; about a quarter of the text's length for stack traces.
pub fn encode(state: &SharedState) -> String {
    let header = Header {
        n: state.text.len(),
        f: state.finding.clone(),
        t: state.trace,
        o: state.options.clone(),
        l: state.left_out.clone(),
        r: state.rules.clone(),
        s: chunk_sums(state.text.as_bytes()),
    };
    // A struct of strings and numbers always serialises; the fallback is never used.
    let json = serde_json::to_string(&header).unwrap_or_else(|_| String::from("{}"));
    let mut raw = header_line(&json);
    raw.extend_from_slice(state.text.as_bytes());
    let zipped = miniz_oxide::deflate::compress_to_vec_zlib(&raw, LEVEL);
    format!("{FORMAT_VERSION}.{}", URL_SAFE_NO_PAD.encode(zipped))
}

/// The rules of a diagnosis's findings, each once, in the order the page shows them (at most
/// eight: a hint, kept short).
pub fn rules_shown(diagnosis: &crate::Diagnosis) -> Vec<String> {
    let rules = diagnosis.finding_rules();
    rules.iter().take(8).map(|r| (*r).to_owned()).collect()
}

/// `base` without its fragment, then `#/s/` and the payload of `state`.
pub fn link(base: &str, state: &SharedState) -> String {
    format!("{}{ROUTE}{}", page_url(base), encode(state))
}

/// The link to a rule's page in the catalog: `base` without its fragment, then `#/rules/<id>`.
pub fn catalog_link(base: &str, rule_id: &str) -> String {
    format!("{}#/rules/{rule_id}", page_url(base))
}

/// What the page offers to share: the link, and past [`MAIL_SAFE_LENGTH`] a shorter one and the
/// rule's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkOffer {
    /// The link to the whole state.
    pub link: String,
    /// Its length in characters.
    pub length: usize,
    /// Past [`MAIL_SAFE_LENGTH`]: a link to the text [`shorten`] keeps, when that is shorter.
    pub shorter: Option<ShorterLink>,
    /// Past [`MAIL_SAFE_LENGTH`]: the chosen (or first) finding's page in the catalog.
    pub catalog: Option<String>,
}

/// A link to the shortened text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShorterLink {
    /// The link (its state names the kept trace as trace 1, and no view options: the page's
    /// section ids change with the text).
    pub link: String,
    /// Its length in characters.
    pub length: usize,
    /// What it leaves out, one phrase each (`41 of 58 frames of the root cause`).
    pub left_out: Vec<String>,
}

/// The link to `state`, and when it is longer than [`MAIL_SAFE_LENGTH`], a shorter link (the
/// chosen trace, `state.trace`, shortened by [`shorten_trace`]) and the catalog page of the
/// chosen finding. `diagnosis` is the diagnosis of `state.text`.
pub fn offer(base: &str, state: &SharedState, diagnosis: &crate::Diagnosis) -> LinkOffer {
    let mut with_rules;
    let state = if state.rules.is_empty() {
        with_rules = state.clone();
        with_rules.rules = rules_shown(diagnosis);
        &with_rules
    } else {
        state
    };
    let full = link(base, state);
    let length = full.chars().count();
    if length <= MAIL_SAFE_LENGTH {
        return LinkOffer {
            link: full,
            length,
            shorter: None,
            catalog: None,
        };
    }
    let chosen = state.trace.and_then(|n| n.checked_sub(1));
    let s = shorten_trace(&state.text, diagnosis, chosen);
    let finding = state.finding.clone().or(s.finding.clone());
    let shorter = (!s.left_out.is_empty()).then(|| {
        let short = link(
            base,
            &SharedState {
                finding: finding.clone(),
                trace: s.trace.map(|_| 1),
                options: ViewOptions::default(),
                left_out: s.left_out.clone(),
                rules: state.rules.clone(),
                text: s.text,
            },
        );
        ShorterLink {
            length: short.chars().count(),
            link: short,
            left_out: s.left_out,
        }
    });
    LinkOffer {
        link: full,
        length,
        shorter: shorter.filter(|x| x.length < length),
        catalog: finding.map(|f| catalog_link(base, &f)),
    }
}

/// `base` up to its fragment (`https://x/td/#/rules` → `https://x/td/`).
fn page_url(base: &str) -> &str {
    base.split('#').next().unwrap_or(base)
}

/// The decoder for damaged input: accepts trailing bits and any padding, so that a link cut in
/// the middle of a 4-character group still decodes its complete bytes.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Reads a share link: a whole URL (`https://…/#/s/1.eNq…`), its fragment, or the bare payload.
///
/// Spaces and line breaks inside the payload are skipped (mail clients wrap long links), as is
/// a `>` quote marker after a line break. Runs in time linear in the input and allocates at most
/// about [`MAX_TEXT_BYTES`] for the text.
///
/// # Errors
///
/// A [`LinkError`] says what is wrong; when the link was cut, damaged or too large, it carries
/// what could be restored (always a prefix of the shared text, never altered text).
pub fn decode(payload_or_url: &str) -> Result<SharedState, LinkError> {
    let trimmed = payload_or_url.trim_start();
    if trimmed.trim_end().is_empty() {
        return Err(LinkError::Empty);
    }
    let lead = payload_or_url.len() - trimmed.len();
    let (start, payload) = match trimmed.find(ROUTE) {
        Some(i) => (lead + i + ROUTE.len(), &trimmed[i + ROUTE.len()..]),
        None if trimmed.contains(['#', '/', ':']) => return Err(LinkError::NotALink),
        None => (lead, trimmed),
    };
    let payload = payload.trim_end();
    if payload.is_empty() || payload.bytes().all(|b| b.is_ascii_digit()) {
        // Cut right after `#/s/` or inside the version.
        return Err(LinkError::Truncated { recovered: None });
    }
    let Some(dot) = payload.find('.') else {
        return Err(LinkError::NotALink);
    };
    let version = &payload[..dot];
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LinkError::NotALink);
    }
    if version != FORMAT_VERSION {
        return Err(LinkError::UnknownVersion {
            version: version.to_owned(),
        });
    }
    let data_start = start + dot + 1;
    let (chars, bad) = base64_chars(&payload[dot + 1..]);
    let bad = bad.map(|(offset, c)| {
        // 1-based character position in what was given.
        let position = payload_or_url[..data_start + offset].chars().count() + 1;
        (position, c)
    });
    // Four characters make three bytes; a single character left over carries no whole byte.
    let usable = if chars.len() % 4 == 1 {
        &chars[..chars.len() - 1]
    } else {
        &chars[..]
    };
    let bytes = match LENIENT.decode(usable) {
        Ok(b) => b,
        // Every character is of the alphabet and the length is valid: not expected to happen.
        Err(_) => {
            return Err(LinkError::Corrupted {
                position: None,
                found: None,
                recovered: None,
            })
        }
    };
    let limit = MAX_TEXT_BYTES + MAX_HEADER_BYTES;
    let (status, raw) = inflate(&bytes, limit);
    if status == TINFLStatus::Done {
        return whole(raw);
    }
    let (recovered, altered) = partial(&raw);
    match status {
        // Too large whatever else is wrong with it (a hand-made "zip bomb" has no valid
        // checksums): say so first, and keep a prefix only when it checks out.
        TINFLStatus::HasMoreOutput => Err(LinkError::TooLarge {
            limit: MAX_TEXT_BYTES,
            recovered: if altered { None } else { recovered },
        }),
        // A character that cannot be in a link is named wherever the data went wrong (a link
        // typed or pasted with junk in it fails its header or a checksum before its end).
        _ if altered => Err(LinkError::Corrupted {
            position: bad.map(|(p, _)| p),
            found: bad.map(|(_, c)| c),
            recovered,
        }),
        // The data ended early: the link was cut (or a bad character cut it).
        TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => match bad {
            Some((position, c)) => Err(LinkError::Corrupted {
                position: Some(position),
                found: Some(c),
                recovered,
            }),
            None => Err(LinkError::Truncated { recovered }),
        },
        // Invalid deflate data or a checksum mismatch: a character was changed; what was
        // inflated before the failure may already be wrong.
        _ => Err(LinkError::Corrupted {
            position: bad.map(|(p, _)| p),
            found: bad.map(|(_, c)| c),
            recovered: None,
        }),
    }
}

/// Inflates the zlib stream `input` to at most `limit` bytes: the status (`Done` when complete
/// and its checksum matches) and everything inflated, which for a stream cut short is a prefix
/// of the whole.
fn inflate(mut input: &[u8], limit: usize) -> (TINFLStatus, Vec<u8>) {
    use miniz_oxide::inflate::core::inflate_flags::{
        TINFL_FLAG_PARSE_ZLIB_HEADER, TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
    };
    use miniz_oxide::inflate::core::{decompress, DecompressorOxide};
    let flags = TINFL_FLAG_PARSE_ZLIB_HEADER | TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut out = vec![0; input.len().saturating_mul(4).max(4096).min(limit)];
    let mut state = Box::<DecompressorOxide>::default();
    let mut pos = 0;
    loop {
        let (status, used, wrote) = decompress(&mut state, input, &mut out, pos, flags);
        pos += wrote;
        input = input.get(used..).unwrap_or(&[]);
        match status {
            TINFLStatus::HasMoreOutput if out.len() < limit => {
                out.resize(out.len().saturating_mul(2).min(limit), 0);
            }
            _ => {
                out.truncate(pos);
                return (status, out);
            }
        }
    }
}

/// The base64url characters of `data`, skipping spaces, line breaks and quote markers after a
/// line break, up to the first other character: `(chars, Some((byte offset in data, char)))`.
fn base64_chars(data: &str) -> (Vec<u8>, Option<(usize, char)>) {
    let mut out = Vec::with_capacity(data.len());
    let mut line_start = false;
    for (i, c) in data.char_indices() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '-' | '_' => {
                out.push(c as u8);
                line_start = false;
            }
            '\n' | '\r' => line_start = true,
            ' ' | '\t' => {}
            '>' if line_start => {}
            _ => return (out, Some((i, c))),
        }
    }
    (out, None)
}

/// `<json>\t<checksum>\n`: the header with its own checksum, so that a link cut inside the
/// text restores a checked header.
fn header_line(json: &str) -> Vec<u8> {
    let mut line = json.as_bytes().to_vec();
    line.push(b'\t');
    line.extend_from_slice(
        URL_SAFE_NO_PAD
            .encode(chunk_sum(json.as_bytes()))
            .as_bytes(),
    );
    line.push(b'\n');
    line
}

/// The header of a header line (`<json>\t<checksum>`); `None` when the checksum fails.
fn read_header(line: &[u8]) -> Option<Result<Header, serde_json::Error>> {
    let tab = line.iter().rposition(|&b| b == b'\t')?;
    let sum = LENIENT.decode(&line[tab + 1..]).ok()?;
    (sum == chunk_sum(&line[..tab])).then(|| serde_json::from_slice(&line[..tab]))
}

/// The state from a complete, checksum-verified payload.
fn whole(raw: Vec<u8>) -> Result<SharedState, LinkError> {
    let Some(nl) = raw.iter().position(|&b| b == b'\n') else {
        return Err(LinkError::BadHeader {
            detail: "it has no end".to_owned(),
            recovered: None,
        });
    };
    let text = match String::from_utf8(raw[nl + 1..].to_vec()) {
        Ok(t) => t,
        Err(e) => {
            return Err(LinkError::BadHeader {
                detail: "the text is not UTF-8".to_owned(),
                recovered: partial(&raw[..nl + 1 + e.utf8_error().valid_up_to()]).0,
            })
        }
    };
    let detail = match read_header(&raw[..nl]) {
        Some(Ok(h)) => return Ok(state_of(h, text)),
        Some(Err(e)) => e.to_string(),
        None => "its checksum does not match".to_owned(),
    };
    let total = text.len();
    Err(LinkError::BadHeader {
        detail,
        recovered: Some(recovered_of(
            SharedState {
                text,
                ..SharedState::default()
            },
            total,
        )),
    })
}

fn state_of(h: Header, text: String) -> SharedState {
    SharedState {
        text,
        finding: h.f,
        trace: h.t,
        options: h.o,
        left_out: h.l,
        rules: h.r,
    }
}

fn recovered_of(state: SharedState, total_bytes: usize) -> Box<Recovered> {
    let bytes = state.text.len();
    let lines = if bytes == 0 {
        0
    } else {
        crate::span::LineIndex::new(&state.text).line_count()
            - usize::from(state.text.ends_with('\n') || state.text.ends_with('\r'))
    };
    Box::new(Recovered {
        state,
        bytes,
        total_bytes: total_bytes.max(bytes),
        lines,
    })
}

/// What a prefix of the inflated payload yields: the header (when its line is complete) and the
/// text up to the first chunk that is incomplete or fails its checksum (then cut to whole
/// `char`s), and whether a chunk failed (the link was altered, not only cut).
fn partial(raw: &[u8]) -> (Option<Box<Recovered>>, bool) {
    let Some(nl) = raw.iter().position(|&b| b == b'\n') else {
        return (None, false);
    };
    let h = match read_header(&raw[..nl]) {
        Some(Ok(h)) => h,
        Some(Err(_)) => return (None, false),
        None => return (None, true),
    };
    let text = &raw[nl + 1..];
    let sums = LENIENT.decode(h.s.as_bytes()).unwrap_or_default();
    let mut good = 0;
    let mut altered = false;
    for (i, chunk) in text.chunks(CHUNK).enumerate() {
        let complete = chunk.len() == CHUNK || good + chunk.len() == h.n;
        if !complete {
            break;
        }
        if sums.get(2 * i..2 * i + 2) != Some(&chunk_sum(chunk)[..]) {
            altered = true;
            break;
        }
        good += chunk.len();
    }
    let text = &text[..good];
    let valid = match std::str::from_utf8(text) {
        Ok(_) => text.len(),
        Err(e) => e.valid_up_to(),
    };
    let total = h.n;
    let text = String::from_utf8_lossy(&text[..valid]).into_owned();
    (Some(recovered_of(state_of(h, text), total)), altered)
}

/// Why [`check_public_base`] refused an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseRefusal {
    /// Not an `http://` or `https://` URL with a host (`file:`, `javascript:`, `https://`).
    NotHttp,
    /// It ends in a fragment (`#…`): the link's own `#/s/…` would follow it and not open.
    Fragment,
    /// It names a user or a password (`https://me:pw@host/`): every link and reply would carry
    /// them to whoever reads it.
    Credentials,
    /// It has spaces, quotes or angle brackets: not one URL.
    NotOneUrl,
}

/// A public base address as a person or a deployment writes it, checked: an `http(s)://` URL
/// with a host, no user or password and no fragment, with a trailing `/` added to its path when
/// the path does not end in a folder or a file (`https://example.org/td` →
/// `https://example.org/td/`, `https://example.org/td?v=2` → `https://example.org/td/?v=2`),
/// since links add `#/s/…` after it. Surrounding spaces are trimmed.
///
/// # Errors
/// Why the address cannot be the base of links ([`BaseRefusal`]).
pub fn check_public_base(raw: &str) -> Result<String, BaseRefusal> {
    let b = raw.trim();
    if b.contains([' ', '"', '<', '>', '\t', '\n']) {
        return Err(BaseRefusal::NotOneUrl);
    }
    let scheme = if b.len() >= 8 && b[..8].eq_ignore_ascii_case("https://") {
        8
    } else if b.len() >= 7 && b[..7].eq_ignore_ascii_case("http://") {
        7
    } else {
        return Err(BaseRefusal::NotHttp);
    };
    let rest = &b[scheme..];
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err(BaseRefusal::Credentials);
    }
    if authority.is_empty() || authority.starts_with(':') {
        return Err(BaseRefusal::NotHttp);
    }
    if b.contains('#') {
        return Err(BaseRefusal::Fragment);
    }
    let (path, query) = match b.find('?') {
        Some(q) => b.split_at(q),
        None => (b, ""),
    };
    let after_host = &path[scheme + authority.len()..];
    let last = after_host.rsplit('/').next().unwrap_or("");
    if !after_host.is_empty() && (last.is_empty() || last.contains('.')) {
        Ok(b.to_owned())
    } else {
        Ok(format!("{path}/{query}"))
    }
}

/// [`check_public_base`] without the reason: `None` for a refused address.
pub fn public_base(raw: &str) -> Option<String> {
    check_public_base(raw).ok()
}

/// True when a link on `base` (a URL) opens only on this machine or network: `file:`, loopback,
/// private and link-local IPv4 addresses, `localhost`, `[::1]`. A link made there opens for no
/// one else (issue 14).
pub fn local_only(base: &str) -> bool {
    let lower = base.to_ascii_lowercase();
    if lower.starts_with("file:") {
        return true;
    }
    let host = lower
        .split_once("://")
        .map_or("", |(_, rest)| rest)
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    if host == "localhost" || host.ends_with(".localhost") || host == "::1" {
        return true;
    }
    match host.parse::<std::net::Ipv4Addr>() {
        Ok(ip) => ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    /// A link names the rules its text's findings showed (the opening page fetches their prose
    /// early); it comes back from the link; a link without them opens as before.
    #[test]
    fn a_link_names_the_rules_shown_and_old_links_lack_them() {
        use super::*;
        let text = &format!(
            "{}\n{}",
            crate::FLAGSHIP_EXAMPLE,
            include_str!("../../tests/cases/seed-log4j.txt")
        );
        let diagnosis = crate::diagnose(text);
        let state = SharedState {
            text: text.to_owned(),
            ..SharedState::default()
        };
        let offer = offer("", &state, &diagnosis);
        let back = decode(&offer.link).expect("decodes");
        assert_eq!(back.rules, ["async-wait-inflight-cme"]);
        assert_eq!(&back.text, text);
        let shorter = offer.shorter.expect("the flagship's link is long");
        assert_eq!(decode(&shorter.link).expect("decodes").rules, back.rules);
        // Made without the hint (an older page): the same text and settings, no rules.
        let plain = decode(&link("", &state)).expect("decodes");
        assert!(plain.rules.is_empty());
        assert_eq!(&plain.text, text);
        // The hint costs a few dozen characters, not more.
        let extra = offer.link.len() - link("", &state).len();
        assert!(extra < 60, "{extra}");
    }

    #[test]
    fn public_bases_are_http_urls_ending_in_a_folder_or_a_file() {
        use super::public_base;
        assert_eq!(
            public_base(" https://example.org/td "),
            Some("https://example.org/td/".into())
        );
        assert_eq!(
            public_base("https://example.org/td/"),
            Some("https://example.org/td/".into())
        );
        assert_eq!(
            public_base("https://example.org/td/index.html"),
            Some("https://example.org/td/index.html".into())
        );
        assert_eq!(
            public_base("http://example.org"),
            Some("http://example.org/".into())
        );
        assert_eq!(public_base("file:///home/me/td/"), None);
        assert_eq!(public_base("javascript:alert(1)"), None);
        assert_eq!(public_base("https://example.org/#/s/x"), None);
        assert_eq!(public_base("https://"), None);
        // A query stays after the path, which gets its folder's slash.
        assert_eq!(
            public_base("https://example.org/td?v=2"),
            Some("https://example.org/td/?v=2".into())
        );
        assert_eq!(
            public_base("HTTPS://example.org:8443"),
            Some("HTTPS://example.org:8443/".into())
        );
    }

    /// Each refused address says why (the Share panel shows it): credentials would go into
    /// every link, a fragment would break it (found by the stop-23 try-out helper).
    #[test]
    fn refused_public_bases_say_why() {
        use super::{check_public_base, BaseRefusal::*};
        for (raw, why) in [
            ("https://me:secret@example.org/td/", Credentials),
            ("https://me@example.org/", Credentials),
            ("https://example.org/td/?q=1#frag", Fragment),
            ("https://example.org/#", Fragment),
            ("ftp://example.org/", NotHttp),
            ("example.org/td/", NotHttp),
            ("https://:80/", NotHttp),
            ("https:///path", NotHttp),
            ("https://example.org/a b/", NotOneUrl),
            ("https://example.org/<x>", NotOneUrl),
        ] {
            assert_eq!(check_public_base(raw), Err(why), "{raw}");
        }
        // A user name after the host (in the path or the query) is no credential.
        assert!(check_public_base("https://example.org/~me/td/?by=me@x").is_ok());
    }

    use super::*;

    #[test]
    fn links_that_open_only_here_are_told_apart() {
        for local in [
            "http://127.0.0.1:8080/#/s/1.x",
            "http://localhost:8080/",
            "http://10.1.2.3/td/",
            "http://192.168.0.5/",
            "http://[::1]:8080/",
            "file:///home/me/dist/index.html",
        ] {
            assert!(local_only(local), "{local}");
        }
        for public in [
            "https://example.org/td/#/s/1.x",
            "https://flink.example.com:8443/",
        ] {
            assert!(!local_only(public), "{public}");
        }
    }

    fn state(text: &str) -> SharedState {
        SharedState {
            text: text.to_owned(),
            finding: Some("async-wait-inflight-cme".to_owned()),
            trace: Some(2),
            options: ViewOptions {
                opened: vec!["t2-e1".to_owned()],
                closed: vec![],
                all_traces: true,
            },
            left_out: vec![],
            rules: vec!["async-wait-inflight-cme".to_owned()],
        }
    }

    #[test]
    fn round_trips_payload_url_and_fragment() {
        let s = state(crate::FLAGSHIP_EXAMPLE);
        let url = link("https://example.org/trace-doctor/#/rules", &s);
        assert!(url.starts_with("https://example.org/trace-doctor/#/s/1."));
        assert_eq!(decode(&url), Ok(s.clone()));
        assert_eq!(decode(&encode(&s)), Ok(s.clone()));
        let fragment = &url[url.find('#').unwrap()..];
        assert_eq!(decode(fragment), Ok(s.clone()));
        assert!(
            url.len() * 3 < crate::FLAGSHIP_EXAMPLE.len(),
            "compressed: {} vs {}",
            url.len(),
            crate::FLAGSHIP_EXAMPLE.len()
        );
    }

    #[test]
    fn wrapped_and_quoted_links_still_open() {
        let s = state("java.lang.RuntimeException: boom\n\tat a.B.c(B.java:1)\n");
        let url = link("https://example.org/td/", &s);
        let (a, b) = url.split_at(url.len() / 2);
        assert_eq!(decode(&format!("{a}\n> {b}\n")), Ok(s.clone()));
        assert_eq!(decode(&format!("  {a}\r\n  {b}")), Ok(s));
    }

    #[test]
    fn old_links_without_new_fields_and_links_with_unknown_fields_open() {
        let mut raw = header_line(r#"{"n":3,"f":"x","future":[1,2],"o":{"z":true}}"#);
        raw.extend_from_slice(b"abc");
        let payload = format!(
            "1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6))
        );
        let s = decode(&payload).unwrap();
        assert_eq!(s.text, "abc");
        assert_eq!(s.finding.as_deref(), Some("x"));
        assert!(s.options.is_default());
    }

    #[test]
    fn says_what_is_wrong() {
        assert_eq!(decode("  "), Err(LinkError::Empty));
        assert_eq!(
            decode("https://example.org/td/#/rules/x"),
            Err(LinkError::NotALink)
        );
        assert_eq!(decode("hello world"), Err(LinkError::NotALink));
        assert_eq!(
            decode("https://x/#/s/"),
            Err(LinkError::Truncated { recovered: None })
        );
        let e = decode("https://x/#/s/7.eNqrVg").unwrap_err();
        assert_eq!(
            e,
            LinkError::UnknownVersion {
                version: "7".to_owned()
            }
        );
        assert!(e.to_string().contains("format 7"), "{e}");
    }

    #[test]
    fn a_cut_link_restores_the_header_and_a_prefix() {
        let s = state(crate::FLAGSHIP_EXAMPLE);
        let url = link("https://x/", &s);
        let cut = &url[..url.len() * 2 / 3];
        let e = decode(cut).unwrap_err();
        let LinkError::Truncated { recovered: Some(r) } = &e else {
            panic!("{e:?}")
        };
        assert!(s.text.starts_with(&r.state.text));
        assert!(r.bytes > 1000, "{}", r.bytes);
        assert_eq!(r.total_bytes, s.text.len());
        assert_eq!(r.state.finding, s.finding);
        assert_eq!(r.state.options, s.options);
        let msg = e.to_string();
        assert!(msg.starts_with("The link is cut short"), "{msg}");
        assert!(msg.contains(&format!("of {} bytes", s.text.len())), "{msg}");
    }

    #[test]
    fn a_bad_character_is_located_and_what_precedes_it_restored() {
        let s = state(crate::FLAGSHIP_EXAMPLE);
        let url = link("https://x/", &s);
        let at = url.len() * 3 / 4;
        let damaged = format!("{}%{}", &url[..at], &url[at..]);
        let e = decode(&damaged).unwrap_err();
        let LinkError::Corrupted {
            position: Some(p),
            found: Some('%'),
            recovered: Some(r),
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(*p, at + 1);
        assert!(s.text.starts_with(&r.state.text) && r.bytes > 1000);
        assert!(
            e.to_string()
                .starts_with(&format!("The link is damaged at character {}", at + 1)),
            "{e}"
        );
    }

    #[test]
    fn a_link_cut_after_its_text_says_the_whole_text_is_back() {
        // A helper's try-out: five characters cut off the end read "restored the first 61
        // lines (6038 of 6038 bytes)", a cut link that has it all.
        let s = state(crate::FLAGSHIP_EXAMPLE);
        let url = link("https://x/", &s);
        let e = decode(&url[..url.len() - 5]).unwrap_err();
        let LinkError::Truncated { recovered: Some(r) } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(r.state.text, s.text);
        let msg = e.to_string();
        assert!(msg.contains(", but the whole text was restored ("), "{msg}");
        assert!(!msg.contains("the first"), "{msg}");
    }

    #[test]
    fn junk_that_fails_before_its_bad_character_is_named_by_it() {
        // A helper's try-out: `#/s/1.notbase64!!` was "changed somewhere (its checksum does
        // not match)"; the `!` is what cannot be in a link.
        let e = decode("https://x/#/s/1.notbase64!!").unwrap_err();
        assert!(
            matches!(
                e,
                LinkError::Corrupted {
                    position: Some(26),
                    found: Some('!'),
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("The link is damaged at character 26"),
            "{e}"
        );
    }

    #[test]
    fn trailing_punctuation_after_a_whole_link_is_ignored() {
        let s = state("x");
        let url = link("https://x/", &s);
        assert_eq!(decode(&format!("{url})")), Ok(s.clone()));
        assert_eq!(decode(&format!("<{url}>.")).map(|x| x.text), Ok(s.text));
    }

    #[test]
    fn a_changed_character_is_detected_not_restored() {
        let s = state(crate::FLAGSHIP_EXAMPLE);
        let payload = encode(&s);
        let mut detected = 0;
        for at in (10..payload.len()).step_by(97).chain([payload.len() - 1]) {
            let mut b = payload.clone().into_bytes();
            b[at] = if b[at] == b'A' { b'B' } else { b'A' };
            let changed = String::from_utf8(b).unwrap();
            match decode(&changed) {
                // Only the unused low bits of the last character can change unnoticed.
                Ok(got) => assert_eq!(got, s, "changed at {at} of {}", payload.len()),
                Err(e) => {
                    if let Some(r) = e.recovered() {
                        assert!(s.text.starts_with(&r.state.text), "{e}");
                    }
                    detected += 1;
                }
            }
        }
        assert!(detected > 10);
    }

    #[test]
    fn a_zip_bomb_is_cut_at_the_limit() {
        let big = "a".repeat(MAX_TEXT_BYTES + 2 * MAX_HEADER_BYTES);
        let payload = encode(&SharedState {
            text: big,
            ..SharedState::default()
        });
        assert!(payload.len() < 100_000, "{}", payload.len());
        let e = decode(&payload).unwrap_err();
        let LinkError::TooLarge {
            limit,
            recovered: Some(r),
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(*limit, MAX_TEXT_BYTES);
        assert!(r.bytes >= MAX_TEXT_BYTES && r.state.text.bytes().all(|b| b == b'a'));
        assert!(e.to_string().contains("20 MB"), "{e}");
    }

    #[test]
    fn a_hand_made_bomb_without_checksums_is_still_too_large() {
        let mut raw = b"{\"n\":1}\t\n".to_vec();
        raw.resize(raw.len() + MAX_TEXT_BYTES + 2 * MAX_HEADER_BYTES, b'a');
        let zlib = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6);
        let payload = format!("{FORMAT_VERSION}.{}", URL_SAFE_NO_PAD.encode(zlib));
        let e = decode(&payload).unwrap_err();
        assert!(
            matches!(
                e,
                LinkError::TooLarge {
                    recovered: None,
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn a_long_link_comes_with_a_shorter_one_and_the_rule_page() {
        let text = format!(
            "{}\n{}",
            crate::FLAGSHIP_EXAMPLE,
            include_str!("../../tests/cases/seed-log4j.txt")
        );
        let d = crate::diagnose(&text);
        let s = SharedState {
            text,
            ..SharedState::default()
        };
        let o = offer("https://x/", &s, &d);
        assert!(o.length > MAIL_SAFE_LENGTH, "{}", o.length);
        // (with the rules the page showed, a hint for the page that opens it)
        let with_rules = SharedState {
            rules: rules_shown(&d),
            ..s.clone()
        };
        assert_eq!(decode(&o.link), Ok(with_rules));
        let short = o.shorter.expect("a shorter link");
        assert!(short.length <= MAIL_SAFE_LENGTH, "{}", short.length);
        assert!(
            short
                .left_out
                .iter()
                .any(|l| l == "the log lines around the trace" || l.ends_with("other trace")),
            "{:?}",
            short.left_out
        );
        let back = decode(&short.link).unwrap();
        assert_eq!(back.left_out, short.left_out);
        assert_eq!(back.finding.as_deref(), Some("async-wait-inflight-cme"));
        assert_eq!(
            o.catalog.as_deref(),
            Some("https://x/#/rules/async-wait-inflight-cme")
        );

        let small = SharedState {
            text: "x".to_owned(),
            ..SharedState::default()
        };
        let o = offer("https://x/", &small, &crate::diagnose("x"));
        assert_eq!((o.shorter, o.catalog), (None, None));
    }

    #[test]
    fn catalog_links_point_at_the_rule_page() {
        assert_eq!(
            catalog_link("https://x/td/#/s/1.abc", "user-code-cme"),
            "https://x/td/#/rules/user-code-cme"
        );
    }
}

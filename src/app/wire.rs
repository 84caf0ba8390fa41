//! A compact binary encoding of the page model ([`PageModel`]), so the diagnosis worker can hand
//! it to the page in one transferable `Uint8Array`.
//!
//! Both ends run the same wasm module, so the format needs no versioning: it is whatever this
//! file writes. Structs are written field by field through exhaustive destructuring, so adding a
//! field to a view struct breaks the build here instead of silently dropping data. Lengths and
//! numbers are LEB128 varints; strings are length-prefixed UTF-8. The `&'static str` fields of
//! the view model (fact keys and labels, relations) come back interned: each distinct value is
//! leaked once, and there are only a handful of them (they are literals in `view.rs`).

use crate::frames::FrameGroup;
use crate::view::{ExceptionView, Fact, FindingView, FrameBlock, FrameView, PageModel, TraceView};
use std::cell::RefCell;

/// Encodes `model`.
pub fn encode(model: &PageModel) -> Vec<u8> {
    let mut out = Vec::with_capacity(4096);
    model.put(&mut out);
    out
}

/// Decodes what [`encode`] wrote; `None` when the bytes are not a whole model.
pub fn decode(bytes: &[u8]) -> Option<PageModel> {
    let mut r = Reader { bytes, at: 0 };
    let model = PageModel::get(&mut r)?;
    (r.at == bytes.len()).then_some(model)
}

/// Reads what [`Wire::put`] wrote.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
}

/// A value that can be written to and read back from the wire.
pub trait Wire: Sized {
    /// Appends the value.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads a value; `None` on malformed input.
    fn get(r: &mut Reader<'_>) -> Option<Self>;
}

impl Wire for usize {
    fn put(&self, out: &mut Vec<u8>) {
        let mut v = *self as u64;
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(low);
                return;
            }
            out.push(low | 0x80);
        }
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = r.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return usize::try_from(v).ok();
            }
        }
        None
    }
}

impl Wire for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        match r.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        out.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        let n = usize::get(r)?;
        String::from_utf8(r.take(n)?.to_vec()).ok()
    }
}

impl Wire for &'static str {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        out.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        let n = usize::get(r)?;
        let s = std::str::from_utf8(r.take(n)?).ok()?;
        Some(intern(s))
    }
}

/// The one `&'static str` for `s` (leaked the first time it is seen).
fn intern(s: &str) -> &'static str {
    thread_local! {
        static SEEN: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    }
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if let Some(&known) = seen.iter().find(|&&k| k == s) {
            return known;
        }
        let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
        seen.push(leaked);
        leaked
    })
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(v) => {
                out.push(1);
                v.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        match r.byte()? {
            0 => Some(None),
            1 => Some(Some(T::get(r)?)),
            _ => None,
        }
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        for v in self {
            v.put(out);
        }
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        let n = usize::get(r)?;
        // Every element takes at least one byte: a corrupt length cannot reserve much.
        let mut v = Vec::with_capacity(n.min(r.bytes.len() - r.at));
        for _ in 0..n {
            v.push(T::get(r)?);
        }
        Some(v)
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        Some((A::get(r)?, B::get(r)?))
    }
}

impl<A: Wire, B: Wire, C: Wire, D: Wire> Wire for (A, B, C, D) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
        self.2.put(out);
        self.3.put(out);
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        Some((A::get(r)?, B::get(r)?, C::get(r)?, D::get(r)?))
    }
}

const GROUPS: [FrameGroup; 6] = [
    FrameGroup::Jdk,
    FrameGroup::Flink,
    FrameGroup::Serialization,
    FrameGroup::Scala,
    FrameGroup::Library,
    FrameGroup::User,
];

impl Wire for FrameGroup {
    fn put(&self, out: &mut Vec<u8>) {
        // Exhaustive: a new group breaks the build here (add it to GROUPS too).
        out.push(match self {
            FrameGroup::Jdk => 0,
            FrameGroup::Flink => 1,
            FrameGroup::Serialization => 2,
            FrameGroup::Scala => 3,
            FrameGroup::Library => 4,
            FrameGroup::User => 5,
        });
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        GROUPS.get(usize::from(r.byte()?)).copied()
    }
}

impl Wire for FrameBlock {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            FrameBlock::Shown(frames) => {
                out.push(0);
                frames.put(out);
            }
            FrameBlock::Folded { label, frames } => {
                out.push(1);
                label.put(out);
                frames.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Option<Self> {
        match r.byte()? {
            0 => Some(FrameBlock::Shown(Wire::get(r)?)),
            1 => Some(FrameBlock::Folded {
                label: Wire::get(r)?,
                frames: Wire::get(r)?,
            }),
            _ => None,
        }
    }
}

/// `Wire` for a struct, field by field in the order listed (which must name every field).
macro_rules! wire_struct {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                let $ty { $($field),* } = self;
                $( $field.put(out); )*
            }
            fn get(r: &mut Reader<'_>) -> Option<Self> {
                $( let $field = Wire::get(r)?; )*
                Some($ty { $($field),* })
            }
        }
    };
}

wire_struct!(PageModel {
    traces,
    hidden_traces,
    deadlocks,
    problems,
    input_bytes,
    total_traces,
    diagnosed_traces,
});
wire_struct!(TraceView {
    number,
    occurrences,
    lines,
    facts,
    version_reasons,
    findings,
    chain,
    flink,
    root_cause,
    thread,
});
wire_struct!(Fact { key, label, value });
wire_struct!(FindingView {
    rule,
    title,
    severity,
    summary_html,
    why_html,
    sections,
    fixes_html,
    not_fixes_html,
    false_alarms_html,
    references,
    evidence,
    reading_html,
    versions,
    highlights,
});
wire_struct!(ExceptionView {
    id,
    relation,
    parent,
    depth,
    class,
    message,
    line,
    roles,
    blocks,
    restored,
    open,
});
wire_struct!(FrameView {
    id,
    package,
    name,
    location,
    line,
    group,
    restored,
    roles,
});

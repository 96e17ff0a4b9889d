//! [`Document`]: a dynamic document in two flat buffers, and [`Node`], its
//! view of one node.

use crate::encode::CanonicalKey;
use crate::options::ValueMaps;
use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, Error, KeyStep, Kind,
    PathSegment, Read, Result, Scalar, Text, Time, Value, Write,
};
use std::fmt;

/// What a [`Slot`] holds. `Ext`, `Time` and `Tagged` take a second slot
/// (`Extra`); see [`Slot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Tag {
    Nil,
    Bool,
    Int,
    Uint,
    BigInt,
    F32,
    F64,
    Str,
    Bytes,
    Array,
    Map,
    Ext,
    Time,
    Tagged,
    Simple,
    /// The second slot of an `Ext` (its data, as `Bytes`), a `Time` (its
    /// offset) or a `Tagged` (the end of its subtree).
    Extra,
}

/// One node. By tag:
///
/// - `Bool`: `small` is 0 or 1. `Simple`: `small` is the value.
/// - `Int`, `Uint`, `F64`, `F32`: `big` holds the bits (`F32` in its low half).
/// - `BigInt`: `big` is the offset in `data` of its 16 little-endian bytes.
/// - `Str`, `Bytes`: `big` is the offset in `data`, `small` the length; a
///   length of `u32::MAX` or more is written as [`LONG`] and the length
///   itself as 8 little-endian bytes at the offset, before the content.
/// - `Array`, `Map`: `small` is the number of items (entries), [`LONG`] if
///   that does not fit (then counted when asked); `big` is the index of
///   the slot after the container's last descendant. A map's entries are
///   key, value, key, value.
/// - `Ext`: `big` is the tag number; the next slot is a `Bytes` (its data).
/// - `Time`: `big` is the Unix seconds, `small` the nanoseconds; the next
///   slot (`Extra`) has `small` 1 and `big` the offset in seconds, or
///   `small` 0 for none.
/// - `Tagged`: `big` is the tag number; the next slot (`Extra`) has `big`
///   the index after the tagged item, which follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    tag: Tag,
    small: u32,
    big: u64,
}

/// `small` when a length or count does not fit in it.
const LONG: u32 = u32::MAX;

impl Slot {
    const fn new(tag: Tag, small: u32, big: u64) -> Slot {
        Slot { tag, small, big }
    }
}

/// A dynamic document in two flat buffers, the fast way to
/// decode what has no Rust type.
///
/// A [`Value`] is a tree: every array, map and string longer than
/// [`Text`](crate::Text)'s inline size is its own allocation, and dropping
/// it visits every node. Decoding twitter.json into a `Value` makes some
/// 3,500 allocations, and allocating, freeing and dropping them take about
/// a third of its instructions. A `Document` holds the same content in two buffers:
/// its nodes in document order (each 16 bytes, a container's items right
/// after it) and the bytes of its strings, one after another. Decoding one
/// grows two `Vec`s; dropping it frees them.
///
/// Read it through [`Node`]: a `Copy` handle on one node, with the same
/// accessors as `Value` (`as_str`, `as_u64`, `get`, `items`, ...).
/// [`Node::to_value`] builds the owned tree when one is wanted; a
/// `Document` encodes in any format exactly as the `Value` would.
///
/// ```
/// use codec_core::{Document, Kind, Value};
///
/// let v = Value::Map(vec![
///     (Value::from("name"), Value::from("Ada")),
///     (Value::from("langs"), Value::Array(vec![Value::from("en"), Value::from("fr")])),
/// ]);
/// let doc = Document::from(&v);
/// let root = doc.root();
/// assert_eq!(root.kind(), Kind::Map);
/// assert_eq!(root.get("name").and_then(|n| n.as_str()), Some("Ada"));
/// let langs: Vec<&str> = root.get("langs").unwrap().items().filter_map(|n| n.as_str()).collect();
/// assert_eq!(langs, ["en", "fr"]);
/// assert_eq!(doc.to_value(), v);
/// ```
///
/// Maps keep every entry in document order, as `Value` does under
/// [`ValueMaps::Ordered`] (the default). Under another [`ValueMaps`] mode,
/// or a format that rejects duplicate keys, a `Document` is decoded through
/// a `Value` (which applies the mode) and copied: the same content, at a
/// `Value`'s speed.
///
/// A format may read a whole `Document` in one step
/// ([`DecodeFormat::read_document`]): JSON does, in one loop over the
/// input held in its reader's buffer, with the generic path (item by item)
/// for the rest and for every error.
///
/// Build one by decoding (`Document` implements [`Decode`] for every
/// format), from a [`Value`], or node by node ([`Document::build_with`]);
/// read it through [`Document::root`]. To decode many inputs one after
/// another, refill one document with [`from_slice_into`](crate::from_slice_into):
/// its two buffers are kept from one input to the next.
///
/// A document of 64 KiB to 4 MiB of buffers that is dropped leaves them
/// to the next document decoded on the same thread (one pair per thread,
/// kept until then or until the thread ends), so that a loop decoding
/// fresh documents does not take them from the allocator each time:
/// glibc's gave a large one back to the system at each drop in a process
/// holding little else, and took it again at the next decode, a page
/// fault per 4 KiB written (twitter.json, 470 KB: 170 faults and 334 us
/// a decode, against 194 us with the memory kept).
#[derive(Clone)]
pub struct Document {
    /// Never empty: the root is `slots[0]`.
    slots: Vec<Slot>,
    /// The bytes of strings, byte strings, extensions and big integers.
    ///
    /// The bytes of every `Str` slot are valid UTF-8, and `Node::as_str`
    /// relies on it: each way a `Str` slot is made (`Builder::push_str`,
    /// `Builder::push_text`, `Builder::push_value`,
    /// `DocumentBuilder::text_with`) appends text that is checked or known
    /// to be UTF-8, and bytes once appended are never changed, only cut
    /// off the end together with the slots that refer to them.
    data: Vec<u8>,
}

impl Default for Document {
    /// A document holding nil.
    fn default() -> Self {
        Document {
            slots: vec![Slot::new(Tag::Nil, 0, 0)],
            data: Vec::new(),
        }
    }
}

impl Drop for Document {
    fn drop(&mut self) {
        spare::keep(&mut self.slots, &mut self.data);
    }
}

/// The buffers of the last large document dropped on a thread, for the
/// next document decoded on it ([`Document`]'s docs say why).
mod spare {
    use super::Slot;
    use std::cell::Cell;

    /// Buffers smaller than this (in bytes of capacity, both together)
    /// are left to the allocator, which serves them quickly itself.
    pub(super) const MIN: usize = 64 * 1024;
    /// Buffers larger than this are not held past their document.
    pub(super) const MAX: usize = 4 << 20;

    thread_local! {
        static SPARE: Cell<Option<(Vec<Slot>, Vec<u8>)>> = const { Cell::new(None) };
    }

    /// Keeps `slots` and `data` (taking them) when their capacity is
    /// within `MIN..=MAX`, in place of any kept before.
    pub(super) fn keep(slots: &mut Vec<Slot>, data: &mut Vec<u8>) {
        let bytes = slots.capacity() * size_of::<Slot>() + data.capacity();
        if (MIN..=MAX).contains(&bytes) {
            let pair = (std::mem::take(slots), std::mem::take(data));
            // At the thread's end the slot may be gone: then they are
            // freed as usual.
            let _ = SPARE.try_with(|s| s.set(Some(pair)));
        }
    }

    /// The buffers kept, emptied, if any.
    pub(super) fn take() -> Option<(Vec<Slot>, Vec<u8>)> {
        let (mut slots, mut data) = SPARE.try_with(Cell::take).ok().flatten()?;
        slots.clear();
        data.clear();
        Some((slots, data))
    }
}

impl Document {
    /// The document `build` builds: exactly one item (a container and all
    /// it holds, or a scalar), with at most `max_depth` containers open
    /// at once. `None` when `build` answers false or builds anything else
    /// (no item, several, a container left open).
    ///
    /// ```
    /// use codec_core::{Document, Value};
    ///
    /// let doc = Document::build_with(8, |d| {
    ///     d.begin_map();
    ///     d.str("id");
    ///     d.uint(7);
    ///     d.end()
    /// })
    /// .unwrap();
    /// assert_eq!(doc.root().get("id").and_then(|n| n.as_u64()), Some(7));
    /// assert_eq!(doc, Value::Map(vec![(Value::from("id"), Value::Uint(7))]));
    /// ```
    pub fn build_with(
        max_depth: u32,
        build: impl FnOnce(&mut DocumentBuilder<'_>) -> bool,
    ) -> Option<Document> {
        let mut b = Builder::new(16);
        let mut sink = DocumentBuilder::new(&mut b, max_depth, false);
        (build(&mut sink) && sink.complete()).then(|| b.finish())
    }

    /// The root node.
    #[inline]
    pub fn root(&self) -> Node<'_> {
        Node { doc: self, at: 0 }
    }

    /// The document as an owned [`Value`] tree.
    pub fn to_value(&self) -> Value {
        self.root().to_value()
    }

    /// Nodes in the document (a map entry counts its key and its value;
    /// an extension, time or tagged item counts two).
    pub fn node_count(&self) -> usize {
        self.slots.len()
    }
}

/// Makes room in `v` for `n` more items. An empty `v` too small (a
/// recycled buffer) is replaced by a new one of that size, rather than
/// grown: growing would copy its whole old block, which the allocator
/// does not know to be unused.
fn reserve_more<T>(v: &mut Vec<T>, n: usize) {
    if v.is_empty() && v.capacity() < n {
        *v = Vec::with_capacity(n);
    } else {
        v.reserve(n);
    }
}

/// How many bytes of input [`DocumentBuilder::str_padded`] takes with a
/// string: one copy of this size appends any string up to this long.
pub const PADDED: usize = 32;

/// A [`Document`] under construction: nodes are appended in document
/// order, a container's count and end filled in when it closes.
pub(crate) struct Builder {
    slots: Vec<Slot>,
    data: Vec<u8>,
}

impl Builder {
    /// A builder with room for `nodes` nodes before it grows.
    pub(crate) fn new(nodes: usize) -> Builder {
        Builder {
            slots: Vec::with_capacity(nodes),
            data: Vec::new(),
        }
    }

    /// A builder with the buffers of the last large document dropped on
    /// this thread, if there is one, with room for `nodes` nodes.
    fn recycled(nodes: usize) -> Option<Builder> {
        let (mut slots, data) = spare::take()?;
        slots.reserve(nodes);
        Some(Builder { slots, data })
    }

    /// A builder appending to `doc`'s buffers, emptied: decoding into a
    /// document reuses their room. Until the [`Refill`] that holds it
    /// puts them back, `doc` is out of reach.
    fn reuse(doc: &mut Document) -> Builder {
        let mut slots = std::mem::take(&mut doc.slots);
        let mut data = std::mem::take(&mut doc.data);
        slots.clear();
        data.clear();
        Builder { slots, data }
    }

    /// The document built (nil if nothing was).
    pub(crate) fn finish(self) -> Document {
        if self.slots.is_empty() {
            return Document::default();
        }
        Document {
            slots: self.slots,
            data: self.data,
        }
    }

    /// Where the builder stands, for [`Builder::truncate`].
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.slots.len(), self.data.len())
    }

    /// Gives back room reserved and not used, where that is more than
    /// what is used (glibc shrinks a block in place, with no copy).
    pub(crate) fn trim(&mut self) {
        self.trim_over(2);
    }

    /// Gives back the room of a buffer holding more than `factor` times
    /// what it uses.
    fn trim_over(&mut self, factor: usize) {
        if self.slots.capacity() / factor > self.slots.len() {
            self.slots.shrink_to_fit();
        }
        if self.data.capacity() / factor > self.data.len() {
            self.data.shrink_to_fit();
        }
    }

    /// Drops everything appended since `mark`.
    pub(crate) fn truncate(&mut self, mark: (usize, usize)) {
        self.slots.truncate(mark.0);
        self.data.truncate(mark.1);
    }

    #[inline(always)]
    fn push(&mut self, tag: Tag, small: u32, big: u64) {
        self.slots.push(Slot::new(tag, small, big));
    }

    /// Appends `bytes` to `data`; returns their offset. A short piece is
    /// written in place, with no call to `memcpy` ([`Write::write_short`]).
    #[inline(always)]
    fn append(&mut self, bytes: &[u8]) -> usize {
        let at = self.data.len();
        // Writing to a `Vec` does not fail.
        let _ = self.data.write_short(bytes);
        at
    }

    /// Appends `bytes` as a `Str` or `Bytes` node.
    #[inline(always)]
    fn push_data(&mut self, tag: Tag, bytes: &[u8]) {
        match u32::try_from(bytes.len()) {
            Ok(n) if n != LONG => {
                let at = self.append(bytes);
                self.push(tag, n, at as u64);
            }
            _ => {
                let at = self.append(&(bytes.len() as u64).to_le_bytes());
                self.append(bytes);
                self.push(tag, LONG, at as u64);
            }
        }
    }

    /// Appends a text string.
    #[inline(always)]
    pub(crate) fn push_str(&mut self, s: &str) {
        self.push_data(Tag::Str, s.as_bytes());
    }

    /// Appends the text string `s` as [`Builder::push_str`] does, given
    /// `window`, the `PADDED` bytes that begin where `s` does (`s` and
    /// what follows it in the input): a string of up to `PADDED` bytes is
    /// copied as the whole window, one fixed-size copy, and the bytes past
    /// `s` are left beyond the buffer's length. The copy by `s`'s own
    /// length branches on it, a branch that string lengths keep
    /// mispredicting. Anything else, `s` not at the window's start
    /// included, is appended as `push_str` does.
    #[inline(always)]
    pub(crate) fn push_str_padded(&mut self, s: &str, window: &[u8; PADDED]) {
        let n = s.len();
        if n > PADDED || !std::ptr::eq(s.as_ptr(), window.as_ptr()) {
            return self.push_str(s);
        }
        // `window[..n]` is `s` itself, so the document's text stays UTF-8.
        let at = self.data.len();
        crate::write::append_in_place::<PADDED>(
            &mut self.data,
            #[inline(always)]
            |block| {
                *block = *window;
                n
            },
        );
        self.push(Tag::Str, n as u32, at as u64);
    }

    /// Appends a text string given as bytes, which the caller has checked
    /// are UTF-8 (`Document::data`'s invariant: [`Node::as_str`] does
    /// not check them again; debug builds assert it here).
    #[inline(always)]
    pub(crate) fn push_text(&mut self, s: &[u8]) {
        debug_assert!(std::str::from_utf8(s).is_ok());
        self.push_data(Tag::Str, s);
    }

    /// Appends a scalar from [`DecodeFormat::read_scalar`]. The common
    /// kinds are written here, with no call, and their `Value` forgotten
    /// rather than dropped: it owns nothing, and the drop would be a call
    /// per scalar to the out-of-line drop of `Value`.
    #[inline(always)]
    pub(crate) fn push_scalar(&mut self, s: Scalar<'_>) {
        let v = match s {
            Scalar::Str(s) => return self.push_str(s),
            Scalar::Other(v) => v,
        };
        let plain = match v {
            Value::Nil => (Tag::Nil, 0, 0),
            Value::Bool(b) => (Tag::Bool, u32::from(b), 0),
            Value::Int(n) => (Tag::Int, 0, n as u64),
            Value::Uint(n) => (Tag::Uint, 0, n),
            Value::F64(f) => (Tag::F64, 0, f.to_bits()),
            _ => return self.push_value(&v),
        };
        self.push(plain.0, plain.1, plain.2);
        std::mem::forget(v);
    }

    fn push_big(&mut self, v: i128) {
        let at = self.append(&v.to_le_bytes());
        self.push(Tag::BigInt, 0, at as u64);
    }

    fn push_time(&mut self, t: &Time) {
        self.push(Tag::Time, t.nanos(), t.unix_seconds() as u64);
        match t.offset() {
            Some(o) => self.push(Tag::Extra, 1, o as i64 as u64),
            None => self.push(Tag::Extra, 0, 0),
        }
    }

    /// Starts a container; returns its index for [`Builder::close`].
    #[inline]
    fn open(&mut self, tag: Tag) -> usize {
        let at = self.slots.len();
        self.push(tag, 0, 0);
        at
    }

    /// Ends the container opened at `at` with `count` items or entries.
    #[inline]
    fn close(&mut self, at: usize, count: usize) {
        let end = self.slots.len() as u64;
        if let Some(s) = self.slots.get_mut(at) {
            s.small = u32::try_from(count)
                .ok()
                .filter(|&n| n != LONG)
                .unwrap_or(LONG);
            s.big = end;
        }
    }

    /// Appends `v` and everything in it.
    fn push_value(&mut self, v: &Value) {
        match v {
            Value::Nil => self.push(Tag::Nil, 0, 0),
            Value::Bool(b) => self.push(Tag::Bool, u32::from(*b), 0),
            Value::Int(n) => self.push(Tag::Int, 0, *n as u64),
            Value::Uint(n) => self.push(Tag::Uint, 0, *n),
            Value::BigInt(n) => self.push_big(*n),
            Value::F32(f) => self.push(Tag::F32, 0, u64::from(f.to_bits())),
            Value::F64(f) => self.push(Tag::F64, 0, f.to_bits()),
            Value::Str(s) => self.push_data(Tag::Str, s.as_bytes()),
            Value::Bytes(b) => self.push_data(Tag::Bytes, b),
            Value::Array(items) => {
                let at = self.open(Tag::Array);
                for item in items {
                    self.push_value(item);
                }
                self.close(at, items.len());
            }
            Value::Map(entries) => {
                let at = self.open(Tag::Map);
                for (k, v) in entries {
                    self.push_value(k);
                    self.push_value(v);
                }
                self.close(at, entries.len());
            }
            Value::Ext(tag, data) => {
                self.push(Tag::Ext, 0, *tag);
                self.push_data(Tag::Bytes, data);
            }
            Value::Time(t) => self.push_time(t),
            Value::Tagged(tag, inner) => {
                self.push(Tag::Tagged, 0, *tag);
                let at = self.open(Tag::Extra);
                self.push_value(inner);
                self.close(at, 1);
            }
            Value::Simple(n) => self.push(Tag::Simple, u32::from(*n), 0),
        }
    }
}

impl From<&Value> for Document {
    fn from(v: &Value) -> Self {
        let mut b = Builder::new(16);
        b.push_value(v);
        b.finish()
    }
}

impl From<Value> for Document {
    fn from(v: Value) -> Self {
        Document::from(&v)
    }
}

impl From<&Document> for Value {
    fn from(d: &Document) -> Self {
        d.to_value()
    }
}

impl PartialEq for Document {
    /// Equal content (see [`Node`]'s equality).
    fn eq(&self, other: &Self) -> bool {
        self.root() == other.root()
    }
}

impl Eq for Document {}

impl PartialEq<Value> for Document {
    fn eq(&self, other: &Value) -> bool {
        self.root() == *other
    }
}

impl fmt::Debug for Document {
    /// As the [`Value`] it holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.root(), f)
    }
}

/// One node of a [`Document`]: a scalar, or an array or map whose items
/// follow it. `Copy`, and as cheap to pass as a reference.
#[derive(Clone, Copy)]
pub struct Node<'a> {
    doc: &'a Document,
    at: usize,
}

impl<'a> Node<'a> {
    #[inline]
    fn slot(&self) -> Slot {
        // `at` always indexes a slot: the root, or an index derived from
        // a well-formed document's structure.
        self.doc.slots[self.at]
    }

    /// The node at `at` of the same document.
    #[inline]
    fn at(&self, at: usize) -> Node<'a> {
        Node { doc: self.doc, at }
    }

    /// The index after this node's subtree.
    #[inline]
    fn end(&self) -> usize {
        let s = self.slot();
        match s.tag {
            Tag::Array | Tag::Map => s.big as usize,
            Tag::Ext | Tag::Time => self.at + 2,
            Tag::Tagged => self.doc.slots[self.at + 1].big as usize,
            _ => self.at + 1,
        }
    }

    /// The bytes of a `Str` or `Bytes` slot.
    #[inline]
    fn data(&self, s: Slot) -> &'a [u8] {
        bytes(&self.doc.data, s)
    }

    /// The kind of item this node encodes as.
    pub fn kind(&self) -> Kind {
        match self.slot().tag {
            Tag::Nil => Kind::Nil,
            Tag::Bool => Kind::Bool,
            Tag::Int => Kind::Int,
            Tag::Uint => Kind::Uint,
            Tag::BigInt => Kind::BigInt,
            Tag::F32 => Kind::Float32,
            Tag::F64 => Kind::Float64,
            Tag::Str => Kind::Str,
            Tag::Bytes => Kind::Bytes,
            Tag::Array => Kind::Array,
            Tag::Map => Kind::Map,
            Tag::Ext => Kind::Ext,
            Tag::Time => Kind::Time,
            Tag::Tagged => Kind::Tag,
            // `Extra` is never a node's own slot.
            Tag::Simple | Tag::Extra => Kind::Simple,
        }
    }

    /// Whether this is nil.
    pub fn is_nil(&self) -> bool {
        self.slot().tag == Tag::Nil
    }

    /// The bool, if this is a bool.
    pub fn as_bool(&self) -> Option<bool> {
        let s = self.slot();
        (s.tag == Tag::Bool).then_some(s.small != 0)
    }

    /// The integer as `i128`, if this is an integer.
    pub fn as_i128(&self) -> Option<i128> {
        let s = self.slot();
        match s.tag {
            Tag::Int => Some(i128::from(s.big as i64)),
            Tag::Uint => Some(i128::from(s.big)),
            Tag::BigInt => {
                let mut b = [0; 16];
                let at = s.big as usize;
                b.copy_from_slice(&self.doc.data[at..at + 16]);
                Some(i128::from_le_bytes(b))
            }
            _ => None,
        }
    }

    /// The integer as `i64`, if this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_i128().and_then(|n| i64::try_from(n).ok())
    }

    /// The integer as `u64`, if this is an integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_i128().and_then(|n| u64::try_from(n).ok())
    }

    /// The number as `f64`, if this is a number (as [`Value::as_f64`]: an
    /// `f32` widens exactly, an integer is rounded to the nearest `f64`).
    pub fn as_f64(&self) -> Option<f64> {
        let s = self.slot();
        match s.tag {
            Tag::F64 => Some(f64::from_bits(s.big)),
            Tag::F32 => Some(f64::from(f32::from_bits(s.big as u32))),
            Tag::Int => Some(s.big as i64 as f64),
            Tag::Uint => Some(s.big as f64),
            Tag::BigInt => self.as_i128().map(|n| n as f64),
            _ => None,
        }
    }

    /// The text, if this is a text string.
    #[inline]
    pub fn as_str(&self) -> Option<&'a str> {
        let s = self.slot();
        if s.tag != Tag::Str {
            return None;
        }
        Some(stored_text(self.data(s)))
    }

    /// The bytes, if this is a byte string.
    pub fn as_bytes(&self) -> Option<&'a [u8]> {
        let s = self.slot();
        (s.tag == Tag::Bytes).then(|| self.data(s))
    }

    /// Tag number and data, if this is an extension.
    pub fn as_ext(&self) -> Option<(u64, &'a [u8])> {
        let s = self.slot();
        (s.tag == Tag::Ext).then(|| (s.big, self.data(self.doc.slots[self.at + 1])))
    }

    /// The timestamp, if this is one.
    pub fn as_time(&self) -> Option<Time> {
        let s = self.slot();
        if s.tag != Tag::Time {
            return None;
        }
        let t = Time::from_unix(s.big as i64, s.small)?;
        let o = self.doc.slots[self.at + 1];
        Some(if o.small == 1 {
            t.with_offset(o.big as i64 as i32)
        } else {
            t
        })
    }

    /// Tag number and the tagged item, if this is a tagged item.
    pub fn as_tagged(&self) -> Option<(u64, Node<'a>)> {
        let s = self.slot();
        (s.tag == Tag::Tagged).then(|| (s.big, self.at(self.at + 2)))
    }

    /// The simple value, if this is one (other than false, true, null).
    pub fn as_simple(&self) -> Option<u8> {
        let s = self.slot();
        (s.tag == Tag::Simple).then_some(s.small as u8)
    }

    /// The number of items of an array or entries of a map; `0` for any
    /// other node.
    pub fn len(&self) -> usize {
        let s = self.slot();
        match s.tag {
            Tag::Array if s.small == LONG => self.items().count(),
            Tag::Map if s.small == LONG => self.entries().count(),
            Tag::Array | Tag::Map => s.small as usize,
            _ => 0,
        }
    }

    /// Whether this is an empty array or map, or not a container.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An array's items in order; nothing for any other node.
    pub fn items(&self) -> Items<'a> {
        let s = self.slot();
        let (next, end) = match s.tag {
            Tag::Array => (self.at + 1, s.big as usize),
            _ => (0, 0),
        };
        Items {
            doc: self.doc,
            next,
            end,
        }
    }

    /// A map's entries in document order; nothing for any other node.
    pub fn entries(&self) -> Entries<'a> {
        let s = self.slot();
        let (next, end) = match s.tag {
            Tag::Map => (self.at + 1, s.big as usize),
            _ => (0, 0),
        };
        Entries {
            items: Items {
                doc: self.doc,
                next,
                end,
            },
        }
    }

    /// Item `i` of an array.
    pub fn index(&self, i: usize) -> Option<Node<'a>> {
        self.items().nth(i)
    }

    /// The value of the first entry of a map whose key is the text `key`.
    pub fn get(&self, key: &str) -> Option<Node<'a>> {
        self.entries()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// This node and everything in it as an owned [`Value`].
    pub fn to_value(&self) -> Value {
        let s = self.slot();
        match s.tag {
            Tag::Nil | Tag::Extra => Value::Nil,
            Tag::Bool => Value::Bool(s.small != 0),
            Tag::Int => Value::Int(s.big as i64),
            Tag::Uint => Value::Uint(s.big),
            Tag::BigInt => Value::BigInt(self.as_i128().unwrap_or_default()),
            Tag::F32 => Value::F32(f32::from_bits(s.big as u32)),
            Tag::F64 => Value::F64(f64::from_bits(s.big)),
            Tag::Str => Value::Str(Text::from(self.as_str().unwrap_or_default())),
            Tag::Bytes => Value::Bytes(self.data(s).to_vec()),
            Tag::Array => Value::Array(self.items().map(|n| n.to_value()).collect()),
            Tag::Map => Value::Map(
                self.entries()
                    .map(|(k, v)| (k.to_value(), v.to_value()))
                    .collect(),
            ),
            Tag::Ext => {
                let (t, b) = self.as_ext().unwrap_or_default();
                Value::Ext(t, Box::from(b))
            }
            Tag::Time => self.as_time().map_or(Value::Nil, Value::Time),
            Tag::Tagged => Value::Tagged(s.big, Box::new(self.at(self.at + 2).to_value())),
            Tag::Simple => Value::Simple(s.small as u8),
        }
    }
}

/// The text of a `Str` slot, whose bytes `b` are.
#[inline(always)]
#[allow(unsafe_code)]
fn stored_text(b: &[u8]) -> &str {
    debug_assert!(std::str::from_utf8(b).is_ok());
    // SAFETY: the bytes of a `Str` slot are valid UTF-8 (the invariant of
    // `Document::data`, kept by every function that makes a `Str` slot,
    // each checking its text or taking a `&str`; `text_with`'s writer can
    // only append, through `TextTail`). Checking them again took a sixth
    // of the time of encoding twitter.json's `Document` as JSON (`perf`:
    // 18 % of the samples). Exercised by
    // every test that reads a document's text: the builder's tests below,
    // and the tests of every format that compare `Document` with `Value`
    // (random documents, conformance suites, fuzz targets), all in debug
    // builds that assert the invariant here.
    unsafe { std::str::from_utf8_unchecked(b) }
}

/// The bytes of a `Str` or `Bytes` slot in `data`.
#[inline]
fn bytes(data: &[u8], s: Slot) -> &[u8] {
    let at = s.big as usize;
    if s.small != LONG {
        return &data[at..at + s.small as usize];
    }
    let mut len = [0; 8];
    len.copy_from_slice(&data[at..at + 8]);
    let len = u64::from_le_bytes(len) as usize;
    &data[at + 8..at + 8 + len]
}

/// The path segment naming a map entry whose key is slot `s` (as
/// [`Decode::path_segment`] gives for a `Value` key).
fn key_segment(s: Slot, data: &[u8]) -> Option<PathSegment> {
    let literal = |n: &dyn fmt::Display| Some(PathSegment::KeyLiteral(n.to_string()));
    match s.tag {
        Tag::Str => Some(PathSegment::Key(stored_text(bytes(data, s)).to_string())),
        Tag::Bool => literal(&(s.small != 0)),
        Tag::Int => literal(&(s.big as i64)),
        Tag::Uint => literal(&s.big),
        Tag::BigInt => {
            let at = s.big as usize;
            let b: [u8; 16] = data.get(at..at + 16)?.try_into().ok()?;
            literal(&i128::from_le_bytes(b))
        }
        _ => None,
    }
}

impl PartialEq for Node<'_> {
    /// Equal content, as the [`Value`]s would compare (floats by bits).
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.slot(), other.slot());
        if a.tag != b.tag {
            return false;
        }
        match a.tag {
            Tag::Str | Tag::Bytes => self.data(a) == other.data(b),
            Tag::BigInt => self.as_i128() == other.as_i128(),
            Tag::Array => self.len() == other.len() && self.items().eq(other.items()),
            Tag::Map => self.len() == other.len() && self.entries().eq(other.entries()),
            Tag::Ext => self.as_ext() == other.as_ext(),
            Tag::Time => self.as_time() == other.as_time(),
            Tag::Tagged => self.as_tagged() == other.as_tagged(),
            _ => a.small == b.small && a.big == b.big,
        }
    }
}

impl Eq for Node<'_> {}

impl PartialEq<Value> for Node<'_> {
    fn eq(&self, v: &Value) -> bool {
        match v {
            Value::Array(items) => {
                self.slot().tag == Tag::Array
                    && self.len() == items.len()
                    && self.items().zip(items).all(|(a, b)| a == *b)
            }
            Value::Map(entries) => {
                self.slot().tag == Tag::Map
                    && self.len() == entries.len()
                    && self
                        .entries()
                        .zip(entries)
                        .all(|((k, v), (ek, ev))| k == *ek && v == *ev)
            }
            Value::Tagged(t, inner) => self
                .as_tagged()
                .is_some_and(|(u, n)| u == *t && n == **inner),
            // Scalars: a cheap conversion, then `Value`'s own equality.
            _ => self.to_value() == *v,
        }
    }
}

impl fmt::Debug for Node<'_> {
    /// As the [`Value`] it holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_value(), f)
    }
}

/// The items of an array [`Node`], in order.
#[derive(Clone)]
pub struct Items<'a> {
    doc: &'a Document,
    next: usize,
    end: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = Node<'a>;

    #[inline]
    fn next(&mut self) -> Option<Node<'a>> {
        if self.next >= self.end {
            return None;
        }
        let n = Node {
            doc: self.doc,
            at: self.next,
        };
        self.next = n.end();
        Some(n)
    }
}

/// The entries of a map [`Node`], in document order.
#[derive(Clone)]
pub struct Entries<'a> {
    items: Items<'a>,
}

impl<'a> Iterator for Entries<'a> {
    type Item = (Node<'a>, Node<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let k = self.items.next()?;
        let v = self.items.next()?;
        Some((k, v))
    }
}

impl Encode for Node<'_> {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        let s = self.slot();
        match s.tag {
            Tag::Nil | Tag::Extra => e.encode_nil(),
            Tag::Bool => e.encode_bool(s.small != 0),
            Tag::Int => e.encode_i64(s.big as i64),
            Tag::Uint => e.encode_u64(s.big),
            Tag::BigInt => e.encode_i128(self.as_i128().unwrap_or_default()),
            Tag::F32 => e.encode_f32(f32::from_bits(s.big as u32)),
            Tag::F64 => e.encode_f64(f64::from_bits(s.big)),
            Tag::Str => e.encode_str(self.as_str().unwrap_or_default()),
            Tag::Bytes => e.encode_bytes(self.data(s)),
            Tag::Array => {
                let len = self.len();
                e.array_start(len)?;
                // A cursor over the slots rather than `items()`, whose
                // `next`, left out of line in this recursive function,
                // returned each node through memory: with `entries()`,
                // the load right after that store took a fifth of the
                // samples of encoding twitter.json's document as JSON.
                let mut at = self.at + 1;
                for i in 0..len {
                    e.array_elem(i)?;
                    let item = self.at(at);
                    item.encode(e)?;
                    at = item.end();
                }
                e.array_end(len)
            }
            Tag::Map => {
                let len = self.len();
                if len > 1 && (e.options().canonical || e.format().sort_keys_by_encoding()) {
                    // Sorted as a `Value`'s entries are.
                    let entries: Vec<(Node<'_>, Node<'_>)> = self.entries().collect();
                    return e.encode_map_iter(len, entries.iter().map(|(k, v)| (k, v)), false);
                }
                e.map_start(len)?;
                // A cursor over the slots, as for an array.
                let mut at = self.at + 1;
                for i in 0..len {
                    e.map_key(i)?;
                    let k = self.at(at);
                    k.encode(e)?;
                    e.map_value()?;
                    let v = self.at(k.end());
                    v.encode(e)?;
                    at = v.end();
                }
                e.map_end(len)
            }
            Tag::Ext => {
                let (t, b) = self.as_ext().unwrap_or_default();
                e.encode_ext(t, b)
            }
            Tag::Time => match self.as_time() {
                Some(t) => e.encode_time(&t),
                None => e.encode_nil(),
            },
            Tag::Tagged => {
                e.encode_tag(s.big)?;
                self.at(self.at + 2).encode(e)
            }
            Tag::Simple => e.encode_simple(s.small as u8),
        }
    }

    fn is_empty_value(&self) -> bool {
        let s = self.slot();
        match s.tag {
            Tag::Nil => true,
            Tag::Bool => s.small == 0,
            Tag::Int | Tag::Uint | Tag::F64 | Tag::F32 => s.big == 0,
            Tag::BigInt => self.as_i128() == Some(0),
            Tag::Str | Tag::Bytes => self.data(s).is_empty(),
            Tag::Array | Tag::Map => self.is_empty(),
            _ => false,
        }
    }

    /// Dynamic keys sort by their encoded bytes, as `Value`'s do.
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Encoded
    }
}

impl Encode for Document {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        self.root().encode(e)
    }

    fn is_empty_value(&self) -> bool {
        self.root().is_empty_value()
    }
}

/// Builds a [`Document`] node by node: what a format driver's reader of
/// a whole item in one step ([`DecodeFormat::read_document`]) writes to.
///
/// It keeps the document well formed whatever it is asked: it counts the
/// items of each open container itself, refuses to open one deeper than
/// `max_depth` allows, and refuses to close a map that has a key without
/// its value. The driver never sees a half-built document: when it
/// answers `false`, the shared driver drops what it built.
///
/// A map's items alternate: key, value, key, value.
// In declaration order (`repr(C)`), so that `at` and `count` are not
// neighbours: were they, saving the innermost container on `begin` could
// be compiled to one 16-byte load of both, and that load stalls (a failed
// store-to-load forward) when it follows the 8-byte store of `count` by
// the item just appended, as a map's key before a nested container. In
// citm_catalog (21,000 containers in 64,000 nodes) the two instructions
// of that load and its store took 13 % of the JSON reader's `perf` samples.
#[repr(C)]
pub struct DocumentBuilder<'a> {
    b: &'a mut Builder,
    /// The containers open around the innermost one.
    outer: Vec<Frame>,
    /// The innermost open container's slot (at the top level, the roots:
    /// `usize::MAX`).
    at: usize,
    /// Whether the innermost open container is a map.
    map: bool,
    /// See [`DocumentBuilder::is_whole_input`].
    whole: bool,
    /// How many containers may be open at once.
    room: u32,
    /// Items appended to the innermost open container so far.
    count: usize,
}

/// An open container: its slot, its items so far, whether it is a map.
#[derive(Clone, Copy)]
struct Frame {
    at: usize,
    count: usize,
    map: bool,
}

impl<'a> DocumentBuilder<'a> {
    /// A builder appending to `b`, with room for `room` levels of nesting,
    /// for an item that is the whole input or not (`whole`).
    pub(crate) fn new(b: &'a mut Builder, room: u32, whole: bool) -> Self {
        DocumentBuilder {
            b,
            outer: Vec::new(),
            at: usize::MAX,
            map: false,
            whole,
            room,
            count: 0,
        }
    }

    /// Exactly one whole item was built.
    pub(crate) fn complete(&self) -> bool {
        self.outer.is_empty() && self.at == usize::MAX && self.count == 1
    }

    #[inline(always)]
    fn leaf(&mut self, tag: Tag, small: u32, big: u64) {
        self.b.push(tag, small, big);
        self.count += 1;
    }

    /// Appends nil.
    #[inline(always)]
    pub fn nil(&mut self) {
        self.leaf(Tag::Nil, 0, 0);
    }

    /// Appends a bool.
    #[inline(always)]
    pub fn bool(&mut self, v: bool) {
        self.leaf(Tag::Bool, u32::from(v), 0);
    }

    /// Appends a signed integer (`Value::Int`).
    #[inline(always)]
    pub fn int(&mut self, v: i64) {
        self.leaf(Tag::Int, 0, v as u64);
    }

    /// Appends an unsigned integer (`Value::Uint`).
    #[inline(always)]
    pub fn uint(&mut self, v: u64) {
        self.leaf(Tag::Uint, 0, v);
    }

    /// Appends a 64-bit float (`Value::F64`).
    #[inline(always)]
    pub fn f64(&mut self, v: f64) {
        self.leaf(Tag::F64, 0, v.to_bits());
    }

    /// Appends a 32-bit float (`Value::F32`).
    #[inline(always)]
    pub fn f32(&mut self, v: f32) {
        self.leaf(Tag::F32, 0, u64::from(v.to_bits()));
    }

    /// Appends a text string.
    #[inline(always)]
    pub fn str(&mut self, s: &str) {
        self.b.push_str(s);
        self.count += 1;
    }

    /// Appends the text string `s`, as [`str`](Self::str) does, given
    /// `window`: the [`PADDED`] bytes of the input that begin where `s`
    /// does. A string that short is copied as the whole window, in one
    /// fixed-size copy, instead of by its own length (which branches on
    /// it). When `s` does not begin at `window`, it is appended as `str`
    /// appends it.
    ///
    /// ```
    /// use codec_core::{Document, DocumentBuilder, PADDED, Value};
    ///
    /// let input = br#"["key", "and the rest of the input......"]"#;
    /// let doc = Document::build_with(1, |d| {
    ///     let s = std::str::from_utf8(&input[2..5]).unwrap();
    ///     d.str_padded(s, input[2..].first_chunk::<PADDED>().unwrap());
    ///     true
    /// })
    /// .unwrap();
    /// assert_eq!(doc.to_value(), Value::from("key"));
    /// ```
    #[inline(always)]
    pub fn str_padded(&mut self, s: &str, window: &[u8; PADDED]) {
        self.b.push_str_padded(s, window);
        self.count += 1;
    }

    /// Appends the text string `s` holds when it is UTF-8; false (nothing
    /// appended) when it is not. Short ASCII (map keys, codes: most
    /// strings of most documents) is checked here, in line, with no call.
    #[inline(always)]
    pub fn text(&mut self, s: &[u8]) -> bool {
        if !crate::text::is_utf8_text(s) {
            return false;
        }
        self.b.push_text(s);
        self.count += 1;
        true
    }

    /// Appends a byte string.
    #[inline(always)]
    pub fn bytes(&mut self, b: &[u8]) {
        self.b.push_data(Tag::Bytes, b);
        self.count += 1;
    }

    /// Appends a text string that `write` writes onto the end of the
    /// document's byte buffer (unescaping it there, with no copy through
    /// a scratch buffer). What it wrote becomes the string when `write`
    /// answers true and it is UTF-8; otherwise it is removed and nothing
    /// is appended (false).
    ///
    /// ```
    /// use codec_core::{Document, Value};
    ///
    /// let doc = Document::build_with(1, |d| {
    ///     d.text_with(|out| {
    ///         out.extend_from_slice(b"caf");
    ///         out.extend_from_slice("é".as_bytes());
    ///         out.len() == 5
    ///     })
    /// })
    /// .unwrap();
    /// assert_eq!(doc, Value::from("café"));
    /// ```
    #[inline]
    pub fn text_with(&mut self, write: impl FnOnce(&mut TextTail<'_>) -> bool) -> bool {
        let start = self.b.data.len();
        let wrote = write(&mut TextTail {
            data: &mut self.b.data,
            start,
        });
        if !wrote || crate::str_from_utf8(&self.b.data[start..]).is_err() {
            self.b.data.truncate(start);
            return false;
        }
        match u32::try_from(self.b.data.len() - start) {
            Ok(n) if n != LONG => self.b.push(Tag::Str, n, start as u64),
            // Its length goes before it: moved aside and appended again.
            _ => {
                let text = self.b.data.split_off(start);
                self.b.push_data(Tag::Str, &text);
            }
        }
        self.count += 1;
        true
    }

    #[inline(always)]
    fn begin(&mut self, tag: Tag, map: bool) -> bool {
        // Against the frames' count, which the push below loads anyway:
        // no counter to step down here and up again in `end`.
        if self.outer.len() >= self.room as usize {
            return false;
        }
        self.outer.push(Frame {
            at: self.at,
            count: self.count + 1,
            map: self.map,
        });
        self.at = self.b.open(tag);
        self.count = 0;
        self.map = map;
        true
    }

    /// Opens an array: the items appended next are its items, until
    /// [`DocumentBuilder::end`]. False (nothing appended) when the nesting
    /// allowed (`max_depth`) is used up.
    #[inline(always)]
    pub fn begin_array(&mut self) -> bool {
        self.begin(Tag::Array, false)
    }

    /// Opens a map, as [`DocumentBuilder::begin_array`]; its items are
    /// its keys and values in turn.
    #[inline(always)]
    pub fn begin_map(&mut self) -> bool {
        self.begin(Tag::Map, true)
    }

    /// Appends an empty array: [`DocumentBuilder::begin_array`] and
    /// [`DocumentBuilder::end`] in one step, with no container saved and
    /// restored. False (nothing appended) when the nesting allowed
    /// (`max_depth`) is used up, as `begin_array` would answer.
    #[inline(always)]
    pub fn empty_array(&mut self) -> bool {
        self.empty(Tag::Array)
    }

    /// Appends an empty map, as [`DocumentBuilder::empty_array`].
    #[inline(always)]
    pub fn empty_map(&mut self) -> bool {
        self.empty(Tag::Map)
    }

    #[inline(always)]
    fn empty(&mut self, tag: Tag) -> bool {
        if self.outer.len() >= self.room as usize {
            return false;
        }
        // Closed as it opens: no items, and the next node is its end.
        let end = self.b.slots.len() as u64 + 1;
        self.leaf(tag, 0, end);
        true
    }

    /// Closes the innermost open container. False (nothing changed) when
    /// none is open, or it is a map whose last key has no value.
    #[inline(always)]
    pub fn end(&mut self) -> bool {
        let Some(outer) = self.outer.pop() else {
            return false;
        };
        let (at, count, map) = (self.at, self.count, self.map);
        if map && count % 2 != 0 {
            self.outer.push(outer);
            return false;
        }
        self.b.close(at, if map { count / 2 } else { count });
        (self.at, self.count, self.map) = (outer.at, outer.count, outer.map);
        true
    }

    /// Makes room for at least `nodes` more nodes and `bytes` more bytes
    /// of text, so that a reader that knows about how much is coming can
    /// spare the buffers' growing by steps (and copying what they hold at
    /// each step).
    pub fn reserve(&mut self, nodes: usize, bytes: usize) {
        reserve_more(&mut self.b.slots, nodes);
        reserve_more(&mut self.b.data, bytes);
    }

    /// Whether the item read is known to be the whole input: a document
    /// decoded alone by [`Decoder::decode_exact`] (`from_slice`,
    /// `from_reader`), where anything after the item is an error. A
    /// reader may then size the document by the input it holds
    /// ([`DocumentBuilder::reserve`]); otherwise (a `Document` inside
    /// another value, or one of a stream of them) the input may hold much
    /// more than the item, and reserving by it could hold memory many
    /// times the document's size.
    #[inline]
    pub fn is_whole_input(&self) -> bool {
        self.whole
    }

    /// How many containers are open.
    #[inline(always)]
    pub fn depth(&self) -> usize {
        self.outer.len()
    }

    /// Whether the innermost open container is a map.
    #[inline(always)]
    pub fn in_map(&self) -> bool {
        self.map
    }

    /// Items appended to the innermost open container so far (a map's
    /// keys and values both count); at the top level, the items appended.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether nothing has been appended to the innermost open container.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether the next item appended is a map's key.
    #[inline(always)]
    pub fn at_key(&self) -> bool {
        self.map && self.count.is_multiple_of(2)
    }

    /// The loop of a one-step reader ([`DecodeFormat::read_document`]) for
    /// a format whose arrays and maps declare their lengths up front
    /// (MessagePack, CBOR): reads the item at the start of `buf` and
    /// returns the bytes it used.
    ///
    /// `item` reads the item at the start of the bytes it is given (never
    /// none; the buffer from the item on): a scalar it appends to the
    /// builder itself ([`ItemHead::Leaf`]), or the head of a container,
    /// which this loop opens and closes once its declared items have been
    /// read. `None`, from `item` or here, gives up, and the shared driver
    /// reads the item again the general way: the buffer ends, the nesting
    /// allowed is used up, or a container declares more than `max_len`
    /// items (entries, for a map; the general path reports that error).
    ///
    /// ```
    /// use codec_core::{Document, ItemHead, Value};
    ///
    /// // A toy format: `A n` an array of n items, `M n` a map of n
    /// // entries, a digit an unsigned integer.
    /// let buf = b"A3M1123A0!";
    /// let mut used = 0;
    /// let doc = Document::build_with(8, |d| {
    ///     let got = d.read_declared(buf, 100, |b, d| {
    ///         let digit = |c: u8| (c as char).to_digit(10);
    ///         Some(match b[0] {
    ///             b'A' => ItemHead::Array { items: digit(*b.get(1)?)? as usize, head: 2 },
    ///             b'M' => ItemHead::Map { entries: digit(*b.get(1)?)? as usize, head: 2 },
    ///             c => {
    ///                 d.uint(digit(c)?.into());
    ///                 ItemHead::Leaf(1)
    ///             }
    ///         })
    ///     });
    ///     got.map(|n| used = n).is_some()
    /// })
    /// .unwrap();
    /// assert_eq!(used, 9);
    /// let map = Value::Map(vec![(Value::Uint(1), Value::Uint(2))]);
    /// assert_eq!(doc, Value::Array(vec![map, Value::Uint(3), Value::Array(vec![])]));
    /// ```
    ///
    /// [`DecodeFormat::read_document`]: crate::DecodeFormat::read_document
    #[inline(always)]
    pub fn read_declared(
        &mut self,
        buf: &[u8],
        max_len: usize,
        mut item: impl FnMut(&[u8], &mut Self) -> Option<ItemHead>,
    ) -> Option<usize> {
        // Containers open around the item when this began are not its own.
        let base = self.outer.len();
        // The items the innermost of its own containers declares (a map's
        // keys and values both count); each container around that one
        // keeps its own in its slot's `big` until it closes, so the loop
        // needs no stack of counts, and reads a slot only as a container
        // closes.
        let mut want = usize::MAX;
        let mut i = 0;
        loop {
            let rest = buf.get(i..).filter(|rest| !rest.is_empty())?;
            let (n, map, head) = match item(rest, self)? {
                ItemHead::Leaf(len) => (0, None, len),
                ItemHead::Array { items, head } => (items, Some(false), head),
                ItemHead::Map { entries, head } => (entries, Some(true), head),
            };
            i += head;
            if let Some(map) = map {
                if n > max_len {
                    return None;
                }
                let opened = match (n, map) {
                    (0, true) => self.empty_map(),
                    (0, false) => self.empty_array(),
                    _ => {
                        let items = if map { n.checked_mul(2)? } else { n };
                        let outer = self.at;
                        if !(if map {
                            self.begin_map()
                        } else {
                            self.begin_array()
                        }) {
                            return None;
                        }
                        if self.outer.len() > base + 1
                            && let Some(s) = self.b.slots.get_mut(outer)
                        {
                            s.big = want as u64;
                        }
                        want = items;
                        continue;
                    }
                };
                if !opened {
                    return None;
                }
            }
            // After an item: close every container it fills.
            while self.count == want {
                self.end();
                want = match self.outer.len() > base {
                    true => self.b.slots.get(self.at).map_or(0, |s| s.big as usize),
                    false => usize::MAX,
                };
            }
            if self.outer.len() == base {
                return Some(i);
            }
        }
    }
}

/// The end of a document's byte buffer, where the writer given to
/// [`DocumentBuilder::text_with`] appends a string. Appending is all it
/// can do: the text already in the document stays as it was checked.
pub struct TextTail<'a> {
    data: &'a mut Vec<u8>,
    start: usize,
}

impl TextTail<'_> {
    /// Appends one byte.
    #[inline(always)]
    pub fn push(&mut self, b: u8) {
        self.data.push(b);
    }

    /// Appends `bytes`.
    #[inline(always)]
    pub fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.data.extend_from_slice(bytes);
    }

    /// How many bytes have been appended.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.data.len() - self.start
    }

    /// Whether nothing has been appended.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What has been appended.
    #[inline(always)]
    pub fn as_bytes(&self) -> &[u8] {
        &self.data[self.start..]
    }
}

/// What the reader of one item gave [`DocumentBuilder::read_declared`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemHead {
    /// A scalar of this many bytes, appended to the builder.
    Leaf(usize),
    /// The head (`head` bytes) of an array of `items` items.
    Array {
        /// Items declared.
        items: usize,
        /// Bytes of the head.
        head: usize,
    },
    /// The head (`head` bytes) of a map of `entries` entries.
    Map {
        /// Entries declared.
        entries: usize,
        /// Bytes of the head.
        head: usize,
    },
}

/// Whether a document is decoded through a [`Value`] (see [`Document`]).
fn through_value<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> bool {
    d.options().value_maps != ValueMaps::Ordered || d.format_mut().reject_duplicate_keys()
}

/// A document being decoded into its own buffers ([`Decode::decode_into`]):
/// when dropped, it gives them back to the document, holding what was
/// built if `built`, else emptied (an error, or a panic unwinding), and
/// nil if empty. So the document is well formed whatever happens.
struct Refill<'a> {
    doc: &'a mut Document,
    b: Builder,
    built: bool,
}

impl<'a> Refill<'a> {
    fn new(doc: &'a mut Document) -> Self {
        let b = Builder::reuse(doc);
        Refill {
            doc,
            b,
            built: false,
        }
    }
}

impl Drop for Refill<'_> {
    fn drop(&mut self) {
        if !self.built {
            self.b.truncate((0, 0));
        }
        if self.b.slots.is_empty() {
            self.b.push(Tag::Nil, 0, 0);
        }
        std::mem::swap(&mut self.doc.slots, &mut self.b.slots);
        std::mem::swap(&mut self.doc.data, &mut self.b.data);
    }
}

impl<'de> Decode<'de> for Document {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        if through_value(d) {
            return Ok(Document::from(&Value::decode(d)?));
        }
        let recycled = Builder::recycled(64);
        let fresh = recycled.is_none();
        let mut b = recycled.unwrap_or_else(|| Builder::new(64));
        if !d.doc_whole(&mut b)? {
            build(d, &mut b)?;
        }
        // Room a format's reader reserved by the input's size, perhaps
        // before it left the item to `build`, is given back. Recycled
        // buffers keep theirs unless it is far beyond what the document
        // uses (a small one after a large one): trimmed to the text used,
        // the next reservation (the input's size) would not fit, and
        // each decode would replace them by fresh ones, every page
        // faulted in again.
        if fresh {
            b.trim();
        } else {
            b.trim_over(8);
        }
        Ok(b.finish())
    }

    /// Replaces the document with the item read, in its own buffers: a
    /// document decoded into again and again (a loop over inputs, with
    /// [`from_slice_into`](crate::from_slice_into)) grows them only when an
    /// item needs more room than any before it, and keeps the room it has.
    /// On an error in the item the document is left nil, its room kept
    /// (`from_slice_into` reads the item before it checks that nothing
    /// follows it: on that error, the document holds the item).
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        let mut refill = Refill::new(self);
        if through_value(d) {
            refill.b.push_value(&Value::decode(d)?);
        } else if !d.doc_whole(&mut refill.b)? {
            build(d, &mut refill.b)?;
        }
        refill.built = true;
        Ok(())
    }

    #[inline]
    fn missing() -> Option<Self> {
        Some(Document::default())
    }
}

/// Decodes the next item onto `doc`, as `Value::decode` would build it
/// (the same number kinds under `prefer_float` and `signed_integer`).
fn build<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    doc: &mut Builder,
) -> Result<()> {
    match build_scalar(d, doc)? {
        None => {}
        Some(Kind::Array) => build_items(d, doc)?,
        Some(Kind::Map) => build_entries(d, doc)?,
        Some(rare) => build_rare(d, doc, rare)?,
    }
    Ok(())
}

/// The next item appended to `doc` if it is a scalar (`None`), else its
/// kind, for [`build`] to recurse into. Apart from `build` so that an
/// unoptimised build (which gives every temporary of a function's
/// inlined callees its own stack slot) keeps that recursion's frame
/// small; optimised, this is inlined back.
#[inline]
fn build_scalar<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    doc: &mut Builder,
) -> Result<Option<Kind>> {
    if d.doc_scalar(doc)? {
        return Ok(None);
    }
    match d.peek_kind()? {
        Kind::Nil => {
            d.decode_nil()?;
            doc.push(Tag::Nil, 0, 0);
        }
        Kind::Bool => {
            let b = d.decode_bool()?;
            doc.push(Tag::Bool, u32::from(b), 0);
        }
        Kind::Int | Kind::Uint if d.prefer_float() => {
            let f = d.decode_f64()?;
            doc.push(Tag::F64, 0, f.to_bits());
        }
        Kind::Int => {
            let n = d.decode_i64()?;
            doc.push(Tag::Int, 0, n as u64);
        }
        Kind::Uint => {
            let n = d.decode_u64()?;
            let signed = d.options().signed_integer && i64::try_from(n).is_ok();
            doc.push(if signed { Tag::Int } else { Tag::Uint }, 0, n);
        }
        Kind::BigInt => {
            let n = d.decode_i128()?;
            doc.push_big(n);
        }
        Kind::Float32 => {
            let f = d.decode_f32()?;
            doc.push(Tag::F32, 0, u64::from(f.to_bits()));
        }
        Kind::Float64 => {
            let f = d.decode_f64()?;
            doc.push(Tag::F64, 0, f.to_bits());
        }
        Kind::Str => {
            let s = d.decode_str()?;
            doc.push_data(Tag::Str, s.as_bytes());
        }
        Kind::Bytes => {
            let b = d.decode_bytes()?;
            doc.push_data(Tag::Bytes, &b);
        }
        other => return Ok(Some(other)),
    }
    Ok(None)
}

fn build_items<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    doc: &mut Builder,
) -> Result<()> {
    let mut seq = d.array_begin()?;
    let at = doc.open(Tag::Array);
    while d.array_next(&mut seq)? {
        let i = seq.index - 1;
        build(d, doc).map_err(|e| e.in_index(i))?;
    }
    d.array_end(seq)?;
    doc.close(at, seq.index);
    Ok(())
}

fn build_entries<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    doc: &mut Builder,
) -> Result<()> {
    let mut seq = d.map_begin()?;
    let at = doc.open(Tag::Map);
    let text_keys = d.format_mut().value_keys_are_text();
    loop {
        let (i, key) = (seq.index, doc.slots.len());
        let step = if text_keys {
            // Separator, key and `:` in one step where the format can.
            d.doc_text_key(&mut seq, doc)?
        } else if d.map_next(&mut seq)? {
            KeyStep::Next
        } else {
            KeyStep::End
        };
        match step {
            KeyStep::Key(()) => {}
            KeyStep::End => break,
            KeyStep::Next => {
                build(d, doc).map_err(|e| e.in_entry_key(i))?;
                d.map_value(&mut seq)?;
            }
        }
        if let Err(e) = build(d, doc) {
            return Err(entry_error(e, doc, key, i));
        }
    }
    d.map_end(seq)?;
    doc.close(at, seq.index);
    Ok(())
}

/// `e` from the value of entry `i`, whose key is the node at `key`.
#[cold]
#[inline(never)]
fn entry_error(e: Error, doc: &Builder, key: usize, i: usize) -> Error {
    let seg = doc.slots.get(key).and_then(|&s| key_segment(s, &doc.data));
    e.within(seg.unwrap_or(PathSegment::Index(i)))
}

/// The kinds no text format produces, out of line: a tag, whose content
/// [`build`] recurses into, here; the others in [`build_leaf`].
#[inline(never)]
fn build_rare<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    doc: &mut Builder,
    kind: Kind,
) -> Result<()> {
    if kind != Kind::Tag {
        return build_leaf(d, doc, kind);
    }
    // Entered before the tag is read: a depth error points at it.
    d.enter_nested()?;
    let res = d.decode_tag().and_then(|t| {
        doc.push(Tag::Tagged, 0, t);
        let at = doc.open(Tag::Extra);
        build(d, doc).map(|()| at)
    });
    d.leave();
    let at = res?;
    doc.close(at, 1);
    Ok(())
}

/// An extension, a time or a simple value, apart from [`build_rare`] for
/// the reason [`build_scalar`] gives.
#[inline(never)]
fn build_leaf<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    doc: &mut Builder,
    kind: Kind,
) -> Result<()> {
    match kind {
        Kind::Ext => {
            let (t, b) = d.decode_ext()?;
            doc.push(Tag::Ext, 0, t);
            doc.push_data(Tag::Bytes, &b);
        }
        Kind::Time => {
            let t = d.decode_time()?;
            doc.push_time(&t);
        }
        // Kind::Simple, the only other kind passed here.
        _ => {
            let n = d.decode_simple()?;
            doc.push(Tag::Simple, u32::from(n), 0);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        Value::Map(vec![
            (Value::from("a"), Value::Int(-3)),
            (
                Value::Uint(7),
                Value::Array(vec![Value::Nil, Value::Bool(true)]),
            ),
            (Value::from("big"), Value::BigInt(-(1 << 70))),
            (Value::from("f"), Value::F32(1.5)),
            (Value::from("bytes"), Value::Bytes(vec![0, 255, 3])),
            (Value::from("ext"), Value::Ext(5, vec![1, 2].into())),
            (
                Value::from("time"),
                Value::Time(Time::from_unix(-5, 7).unwrap().with_offset(-3600)),
            ),
            (
                Value::from("utc"),
                Value::Time(Time::from_unix(1, 0).unwrap()),
            ),
            (
                Value::from("tagged"),
                Value::Tagged(2, Box::new(Value::Array(vec![Value::F64(-0.0)]))),
            ),
            (Value::from("simple"), Value::Simple(23)),
            (Value::from("empty"), Value::Map(vec![])),
            (Value::from("tail"), Value::from("last")),
        ])
    }

    #[test]
    fn every_kind_round_trips_through_a_value() {
        let v = sample();
        let doc = Document::from(&v);
        assert_eq!(doc.to_value(), v);
        assert_eq!(doc, v);
        let root = doc.root();
        assert_eq!(root.len(), 12);
        assert_eq!(root.get("a").and_then(|n| n.as_i64()), Some(-3));
        assert_eq!(root.get("big").and_then(|n| n.as_i128()), Some(-(1 << 70)));
        assert_eq!(root.get("f").and_then(|n| n.as_f64()), Some(1.5));
        assert_eq!(root.get("tail").and_then(|n| n.as_str()), Some("last"));
        let (tag, inner) = root.get("tagged").and_then(|n| n.as_tagged()).unwrap();
        assert_eq!((tag, inner.kind(), inner.len()), (2, Kind::Array, 1));
        assert_eq!(
            root.get("ext").and_then(|n| n.as_ext()),
            Some((5, &[1, 2][..]))
        );
        assert_eq!(root.get("missing"), None);
        let (k, v) = root.entries().nth(1).unwrap();
        assert_eq!(
            (k.as_u64(), v.index(1).and_then(|n| n.as_bool())),
            (Some(7), Some(true))
        );
        assert_eq!(format!("{doc:?}"), format!("{:?}", sample()));
    }

    #[test]
    fn equality_sees_every_difference() {
        let v = sample();
        let doc = Document::from(&v);
        let Value::Map(entries) = &v else {
            unreachable!()
        };
        for i in 0..entries.len() {
            let mut changed = entries.clone();
            changed[i].1 = Value::from("other");
            let other = Document::from(Value::Map(changed.clone()));
            assert_ne!(doc.root(), other.root(), "entry {i}");
            assert_ne!(doc, Value::Map(changed));
        }
        let shorter = Document::from(Value::Map(entries[1..].to_vec()));
        assert_ne!(doc.root(), shorter.root());
    }

    /// Text made each way a `Str` node is made reads back whole through
    /// the unchecked `as_str` (which asserts the invariant in this debug
    /// build): `str`, `text` (ASCII and not), `text_with` (appended in
    /// pieces, after a refused attempt), a `Value`'s text, text past the
    /// inline length, and the same as map keys.
    #[test]
    fn text_made_every_way_reads_back_whole() {
        let long = "ü".repeat(300);
        let texts = ["plain", "ascii", "é→𝄞", "caf\u{e9}", long.as_str(), ""];
        let doc = Document::build_with(4, |d| {
            d.begin_array();
            d.str(texts[0]);
            let ascii = d.text(texts[1].as_bytes());
            let utf8 = d.text(texts[2].as_bytes());
            let refused = !d.text_with(|out| {
                out.extend_from_slice("é".as_bytes());
                out.push(0xff);
                true
            });
            let pieces = d.text_with(|out| {
                assert!(out.is_empty());
                out.push(b'c');
                out.extend_from_slice(b"af");
                out.extend_from_slice("\u{e9}".as_bytes());
                out.as_bytes() == texts[3].as_bytes()
            });
            d.text(long.as_bytes());
            d.str("");
            d.begin_map();
            for t in texts {
                d.str(t);
                d.text(t.as_bytes());
            }
            ascii && utf8 && refused && pieces && d.end() && d.end()
        })
        .unwrap();
        let root = doc.root();
        let read: Vec<&str> = root.items().filter_map(|n| n.as_str()).collect();
        assert_eq!(read, texts);
        let map = root.index(texts.len()).unwrap();
        assert!(
            map.entries()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .eq(texts.iter().map(|t| (Some(*t), Some(*t))))
        );
        let from_value = Document::from(&doc.to_value());
        assert_eq!(from_value, doc);
        assert_eq!(from_value.to_value(), doc.to_value());
    }

    #[test]
    fn a_large_dropped_document_leaves_its_buffers_to_the_next() {
        // About 10,000 nodes and 90 KB of text: within the kept range.
        let items = (0..10_000).map(|i| Value::from(format!("item {i}")));
        let big = Document::from(&Value::Array(items.collect()));
        let bytes = big.slots.capacity() * size_of::<Slot>() + big.data.capacity();
        assert!((spare::MIN..=spare::MAX).contains(&bytes), "{bytes}");
        let (slots, data) = (big.slots.as_ptr(), big.data.as_ptr());
        drop(big);
        let b = Builder::recycled(64).unwrap();
        assert_eq!((b.slots.as_ptr(), b.data.as_ptr()), (slots, data));
        assert!(b.slots.is_empty() && b.data.is_empty());
        // Taken: there is none for the next builder.
        assert!(Builder::recycled(64).is_none());
        // A small document and one past the limit are not kept.
        drop(Document::from(&Value::from("small")));
        assert!(spare::take().is_none());
        let huge = Value::Bytes(vec![7; spare::MAX + 1]);
        drop(Document::from(&huge));
        assert!(spare::take().is_none());
        // What is built in recycled buffers is the document itself.
        let items = (0..10_000).map(|i| Value::from(format!("item {i}")));
        drop(Document::from(&Value::Array(items.collect())));
        let mut b = Builder::recycled(4).unwrap();
        b.push_str("again");
        assert_eq!(b.finish().to_value(), Value::from("again"));
    }

    #[test]
    fn a_decode_in_recycled_buffers_keeps_their_room_unless_far_beyond_its_own() {
        let big = |n: u32| Value::Array((0..n).map(|i| Value::from(format!("item {i}"))).collect());
        // About half the nodes of the one before: the room is kept.
        drop(Document::from(&big(10_000)));
        let half: Document = crate::from_value(&big(5_000)).unwrap();
        assert!(half.slots.capacity() >= 10_000, "{}", half.slots.capacity());
        assert_eq!(half, big(5_000));
        drop(half);
        // A small document after a large one: the room is given back.
        drop(Document::from(&big(10_000)));
        let small: Document = crate::from_value(&big(3)).unwrap();
        assert!(small.slots.capacity() < 100 && small.data.capacity() < 100);
        assert_eq!(small, big(3));
    }

    #[test]
    fn padded_strings_are_the_strings_alone() {
        // Input with more after each string than the window takes.
        let input = "0123456789abcdefghijklmnopqrstuvwxyzé→𝄞ABCDEFGHIJKLMNOPQRSTUVWXYZ!".repeat(2);
        let window = |at: usize| input.as_bytes()[at..].first_chunk::<PADDED>().unwrap();
        // (start, length): empty, short, one and two 16-byte halves, the
        // whole window, one past it, multi-byte characters at its end.
        let pieces = [(0, 0), (3, 5), (0, 16), (10, 31), (4, 32), (5, 33), (30, 8)];
        let texts: Vec<&str> = pieces.iter().map(|&(at, n)| &input[at..at + n]).collect();
        let elsewhere = String::from("not in the window");
        let build = |padded: bool| {
            Document::build_with(2, |d| {
                d.begin_array();
                for (&(at, _), &t) in pieces.iter().zip(&texts) {
                    if padded {
                        d.str_padded(t, window(at));
                    } else {
                        d.str(t);
                    }
                    d.uint(at as u64);
                }
                // A string that is not at the window's start.
                if padded {
                    d.str_padded(&elsewhere, window(0));
                } else {
                    d.str(&elsewhere);
                }
                d.end()
            })
            .unwrap()
        };
        let (padded, plain) = (build(true), build(false));
        let read: Vec<&str> = padded.root().items().filter_map(|n| n.as_str()).collect();
        let mut expected = texts.clone();
        expected.push(&elsewhere);
        assert_eq!(read, expected);
        // The same nodes and the same text, byte for byte.
        assert_eq!(padded, plain);
        assert_eq!(padded.data, plain.data);
    }

    #[test]
    fn long_lengths_and_counts_are_kept_aside() {
        let mut b = Builder::new(4);
        let at = b.open(Tag::Array);
        b.push_data(Tag::Str, b"abc");
        b.push(Tag::Nil, 0, 0);
        b.close(at, 2);
        let doc = b.finish();
        // The same document with its count and string length written the
        // long way, as they would be beyond `u32`.
        let mut long = doc.clone();
        long.slots[0].small = LONG;
        long.data.clear();
        long.data.extend_from_slice(&3u64.to_le_bytes());
        long.data.extend_from_slice(b"abc");
        long.slots[1].small = LONG;
        assert_eq!(long.root().len(), 2);
        assert_eq!(long.root().index(0).and_then(|n| n.as_str()), Some("abc"));
        assert_eq!(long.to_value(), doc.to_value());
    }

    #[test]
    fn the_builder_keeps_documents_well_formed() {
        // Every kind it writes, in nested containers.
        let doc = Document::build_with(3, |d| {
            assert!(d.begin_array() && !d.at_key());
            d.nil();
            d.bool(true);
            d.int(-2);
            d.f64(0.5);
            d.f32(-1.25);
            d.bytes(b"\x00\xff");
            // Not UTF-8: refused, nothing appended.
            assert!(!d.text(b"a\xff") && !d.text(b"\xc3") && d.len() == 6);
            assert!(d.text("é".as_bytes()) && d.text(b"ascii"));
            assert!(d.begin_map());
            assert!(d.in_map() && d.is_empty() && d.at_key());
            d.str("k");
            assert!(!d.at_key());
            assert!(d.text_with(|out| {
                out.extend_from_slice("é".as_bytes());
                true
            }));
            assert_eq!((d.depth(), d.len()), (2, 2));
            assert!(d.end() && !d.in_map());
            d.uint(u64::MAX);
            d.end()
        })
        .unwrap();
        let v = Value::Array(vec![
            Value::Nil,
            Value::Bool(true),
            Value::Int(-2),
            Value::F64(0.5),
            Value::F32(-1.25),
            Value::Bytes(vec![0, 0xff]),
            Value::from("é"),
            Value::from("ascii"),
            Value::Map(vec![(Value::from("k"), Value::from("é"))]),
            Value::Uint(u64::MAX),
        ]);
        assert_eq!(doc, v);
        assert_eq!(doc.root().len(), 10);

        // Not one whole item: none, two, or one left open.
        assert!(Document::build_with(8, |_| true).is_none());
        assert!(
            Document::build_with(8, |d| {
                d.nil();
                d.nil();
                true
            })
            .is_none()
        );
        assert!(Document::build_with(8, |d| d.begin_array()).is_none());
        assert!(
            Document::build_with(8, |d| {
                d.nil();
                false
            })
            .is_none()
        );
        // Nothing to close; a key without its value.
        assert!(Document::build_with(8, |d| !d.end()).is_none());
        let half = Document::build_with(8, |d| {
            d.begin_map();
            d.str("k");
            let refused = !d.end();
            d.nil();
            refused && d.end()
        });
        assert_eq!(
            half.unwrap(),
            Value::Map(vec![(Value::from("k"), Value::Nil)])
        );
        // The depth allowed, and room given back when a container closes.
        let deep = Document::build_with(2, |d| {
            let opened = d.begin_array() && d.begin_array() && !d.begin_array();
            opened && d.end() && d.begin_map() && d.end() && d.end()
        });
        assert_eq!(deep.unwrap().root().len(), 2);
        // Text that is not taken leaves nothing behind.
        let doc = Document::build_with(1, |d| {
            d.begin_array();
            let bad = d.text_with(|out| {
                out.extend_from_slice(b"\xff");
                true
            });
            let refused = d.text_with(|out| {
                out.extend_from_slice(b"dropped");
                false
            });
            d.str("kept");
            !bad && !refused && d.end()
        })
        .unwrap();
        assert_eq!(doc, Value::Array(vec![Value::from("kept")]));
        assert_eq!(doc.data, b"kept");
    }

    #[test]
    fn containers_nest_deep_and_close_back_to_their_own() {
        // 80 levels, each holding an item before and after the next, so
        // that a container restored wrongly would show in the counts.
        let depth = 80;
        let doc = Document::build_with(depth, |d| {
            for i in 0..depth {
                d.begin_array();
                d.uint(u64::from(i));
            }
            (0..depth).all(|i| {
                d.str(if i % 2 == 0 { "even" } else { "odd" });
                d.end()
            }) && !d.end()
        })
        .unwrap();
        // Level `i` holds `i`, the next level and the text its close
        // appended; the innermost, `i` and its text.
        let mut node = doc.root();
        for i in 0..u64::from(depth) {
            let last = if (79 - i) % 2 == 0 { "even" } else { "odd" };
            let text = |n: Option<Node<'_>>| n.and_then(|n| n.as_str().map(str::to_owned));
            assert_eq!(node.index(0).and_then(|n| n.as_u64()), Some(i));
            if i == 79 {
                assert_eq!((node.len(), text(node.index(1))), (2, Some(last.into())));
                break;
            }
            assert_eq!((node.len(), text(node.index(2))), (3, Some(last.into())));
            node = node.index(1).unwrap();
        }
        // The nesting allowed, 40 levels deep.
        let refused = Document::build_with(40, |d| {
            let opened = (0..40).all(|_| d.begin_array()) && !d.begin_array();
            opened && (0..40).all(|_| d.end())
        });
        assert_eq!(refused.map(|d| d.node_count()), Some(40));
    }

    #[test]
    fn empty_containers_in_one_step_are_begin_and_end() {
        // The same nodes as opened and closed, nested, at the top and
        // after items (whose end each empty container's slot records).
        let steps = |d: &mut DocumentBuilder<'_>| {
            d.begin_array();
            let ok = d.empty_array() && d.empty_map();
            d.begin_map();
            d.str("k");
            let ok = ok && d.empty_array() && d.end();
            d.nil();
            ok && d.empty_map() && d.end()
        };
        let opened = |d: &mut DocumentBuilder<'_>| {
            d.begin_array();
            let ok = d.begin_array() && d.end() && d.begin_map() && d.end();
            d.begin_map();
            d.str("k");
            let ok = ok && d.begin_array() && d.end() && d.end();
            d.nil();
            ok && d.begin_map() && d.end() && d.end()
        };
        let one = Document::build_with(4, steps).unwrap();
        let two = Document::build_with(4, opened).unwrap();
        assert_eq!(one.slots, two.slots);
        assert_eq!(one.root().index(1).map(|n| n.len()), Some(0));
        assert_eq!(
            Document::build_with(1, |d| d.empty_map()).unwrap(),
            Value::Map(vec![])
        );
        // The nesting allowed counts an empty container as `begin` does.
        assert!(Document::build_with(0, |d| d.empty_array()).is_none());
        let refused = Document::build_with(1, |d| {
            d.begin_array();
            let refused = !d.empty_array() && !d.empty_map();
            refused && d.end()
        });
        assert_eq!(refused.unwrap(), Value::Array(vec![]));
    }

    /// A toy format for `read_declared`: `A n` an array of n items, `M n`
    /// a map of n entries (n one digit), a digit an unsigned integer.
    fn toy(b: &[u8], d: &mut DocumentBuilder<'_>) -> Option<ItemHead> {
        let digit = |c: u8| (c as char).to_digit(10).map(|n| n as usize);
        Some(match b[0] {
            b'A' => ItemHead::Array {
                items: digit(*b.get(1)?)?,
                head: 2,
            },
            b'M' => ItemHead::Map {
                entries: digit(*b.get(1)?)?,
                head: 2,
            },
            c => {
                d.uint(digit(c)? as u64);
                ItemHead::Leaf(1)
            }
        })
    }

    #[test]
    fn declared_lengths_close_each_container_at_its_count() {
        let read = |text: &str, depth: u32| {
            let mut used = 0;
            let doc = Document::build_with(depth, |d| {
                d.read_declared(text.as_bytes(), 9, toy)
                    .map(|n| used = n)
                    .is_some()
            });
            doc.map(|doc| (doc.to_value(), used))
        };
        let arr = Value::Array;
        let u = Value::Uint;
        // Containers inside containers, closing several at once, and
        // each level's count kept while an inner one is read.
        let (v, used) = read("A3A2M1A1M2A0111M0A22345rest", 9).unwrap();
        let inner = Value::Map(vec![(arr(vec![]), u(1)), (u(1), u(1))]);
        let m = Value::Map(vec![(arr(vec![inner]), Value::Map(vec![]))]);
        assert_eq!(
            v,
            arr(vec![arr(vec![m, arr(vec![u(2), u(3)])]), u(4), u(5)])
        );
        assert_eq!(used, 23);
        // A scalar alone, an empty container alone.
        assert_eq!(read("7", 0), Some((u(7), 1)));
        assert_eq!(read("A0", 1), Some((arr(vec![]), 2)));
        // Given up: the input ends, too deep, more than `max_len` (8), a
        // head the item reader refuses.
        assert!(read("A1A11", 2).is_some() && read("M811223344556677889", 9).is_some());
        for (text, depth) in [("A2", 9), ("A21", 9), ("A1A1A11", 2), ("M9", 9), ("A2x", 9)] {
            assert!(read(text, depth).is_none(), "{text}");
        }
        // Inside a container the caller opened: one item, then back.
        let doc = Document::build_with(4, |d| {
            d.begin_array();
            d.uint(9);
            let used = d.read_declared(b"A2M11212", 9, toy);
            d.uint(8);
            used == Some(7) && d.end()
        })
        .unwrap();
        let m = Value::Map(vec![(u(1), u(2))]);
        assert_eq!(doc, arr(vec![u(9), arr(vec![m, u(1)]), u(8)]));
    }

    #[test]
    fn room_reserved_and_not_used_is_given_back() {
        let mut b = Builder::new(0);
        let mut d = DocumentBuilder::new(&mut b, 4, true);
        assert!(d.is_whole_input());
        d.reserve(1000, 10_000);
        d.begin_array();
        d.str("used");
        d.end();
        assert!(d.complete());
        b.trim();
        assert!(b.slots.capacity() < 100 && b.data.capacity() < 100);
        assert_eq!(b.finish(), Value::Array(vec![Value::from("used")]));
        // Room mostly used is kept.
        let mut b = Builder::new(0);
        b.slots.reserve(4);
        b.push(Tag::Nil, 0, 0);
        b.push(Tag::Nil, 0, 0);
        let cap = b.slots.capacity();
        b.trim();
        assert_eq!(b.slots.capacity(), cap);
    }

    #[test]
    fn scalars_and_non_containers_have_no_items() {
        let doc = Document::from(Value::from("x"));
        let root = doc.root();
        assert_eq!(
            (root.len(), root.items().count(), root.entries().count()),
            (0, 0, 0)
        );
        assert_eq!(root.get("x"), None);
        assert_eq!(root.index(0), None);
        assert_eq!(Document::default().to_value(), Value::Nil);
        assert!(Document::default().root().is_nil());
    }
}

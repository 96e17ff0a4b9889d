//! The decoding half of the shared driver: [`Decode`] and [`Decoder`].

use crate::error::{Error, ErrorKind, Found, PathSegment, Result};
use crate::format::{DecodeFormat, KeyHint, KeyStep, Kind, Seq};
use crate::options::DecodeOptions;
use crate::read::{Read, Reference};
use crate::text::ASCII_HIGH_BITS;
use crate::time::Time;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

/// A type that can be read by every handle.
///
/// `'de` is the lifetime of the input: types that borrow from it
/// (`&'de str`, `&'de [u8]`) decode without copying from a slice.
///
/// ```
/// use codec_core::{Decode, Decoder, DecodeFormat, Read, Result};
///
/// struct Celsius(f64);
///
/// impl<'de> Decode<'de> for Celsius {
///     fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
///         Ok(Celsius(d.decode_f64()?))
///     }
/// }
/// ```
pub trait Decode<'de>: Sized {
    /// Reads a `Self` from `d`.
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self>;

    /// Reads a value into an existing `self`, reusing what it can (ugorji
    /// decodes into a non-nil pointer the same way).
    ///
    /// The default replaces `self` with [`Decode::decode`]. `String`, `Vec`,
    /// `VecDeque` and the maps keep their allocations, `Option` and `Box`
    /// decode into their content, and derived structs decode field by field:
    /// fields absent from the input keep their current values (a field
    /// given twice is an error, as in `decode`). Existing map
    /// values are decoded into (merged) unless
    /// [`DecodeOptions::map_value_reset`](crate::DecodeOptions::map_value_reset);
    /// a [`Value`](crate::Value) is merged into unless
    /// [`DecodeOptions::interface_reset`](crate::DecodeOptions::interface_reset).
    #[inline]
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        *self = Self::decode(d)?;
        Ok(())
    }

    /// The value a struct field of this type takes when its key is absent:
    /// `Some(None)` for `Option`, `None` (a missing-field error) otherwise.
    #[inline]
    fn missing() -> Option<Self> {
        None
    }

    /// The value that [`Encode::is_empty_value`](crate::Encode::is_empty_value)
    /// calls empty (`0`, `false`, `""`, an empty collection, `None`), for
    /// a struct field that is absent from the input under
    /// [`DecodeOptions::absent_as_empty`](crate::DecodeOptions::absent_as_empty)
    /// (what [`EncodeOptions::omit_empty`](crate::EncodeOptions::omit_empty)
    /// leaves out). `None` (the default) for a type with no empty value:
    /// its absence stays a missing-field error.
    #[inline]
    fn empty_value() -> Option<Self> {
        None
    }

    /// This value as a map key in an error path: `["alice"]` for text keys,
    /// `[5]` for integers and bools. Called only when decoding (or encoding)
    /// the entry's value has failed, so success pays nothing for it. The
    /// default, `None`, names the entry by its position (`[0]`, `[1]`, ...).
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        None
    }

    /// Reads a `Vec<Self>`. The default reads an array; `u8` reads a byte string.
    #[doc(hidden)]
    #[inline]
    fn decode_vec<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Vec<Self>> {
        if d.try_empty_array()? {
            return Ok(Vec::new());
        }
        d.decode_array_vec()
    }

    /// Reads into an existing `Vec<Self>`, reusing its allocation and its
    /// items. The default reads an array; `u8` reads a byte string.
    #[doc(hidden)]
    #[inline]
    fn decode_vec_into<R: Read<'de>, F: DecodeFormat>(
        v: &mut Vec<Self>,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        d.decode_array_into_vec(v)
    }

    /// Reads a `[Self; N]`. The default reads an array of exactly `N` items.
    #[doc(hidden)]
    fn decode_array<R: Read<'de>, F: DecodeFormat, const N: usize>(
        d: &mut Decoder<'de, R, F>,
    ) -> Result<[Self; N]> {
        let mut seq = d.array_begin()?;
        let mut err: Option<Error> = None;
        let items: [Option<Self>; N] = std::array::from_fn(|i| {
            if err.is_some() {
                return None;
            }
            let item = match d.array_next(&mut seq) {
                Ok(true) => Self::decode(d).map_err(|e| e.in_index(i)),
                Ok(false) => Err(Error::new(ErrorKind::InvalidLength {
                    expected: N,
                    found: i,
                })
                .at(d.offset())),
                Err(e) => Err(e),
            };
            item.map_err(|e| err = Some(e)).ok()
        });
        if let Some(e) = err {
            return Err(e);
        }
        d.fixed_array_end(seq, N)?;
        // Every slot is `Some`: an empty slot always comes with `err` set.
        Ok(items.map(|item| item.expect("every array item was decoded")))
    }
}

/// A type that decodes without borrowing from the input (for readers and owned results).
pub trait DecodeOwned: for<'de> Decode<'de> {}
impl<T: for<'de> Decode<'de>> DecodeOwned for T {}

/// One of the decoder's [`Value`](crate::Value) stacks: a `Vec` that is
/// empty between decodes and costs one inline capacity check to drop
/// while it has never been used. A `Vec<Value>`'s own drop is an
/// out-of-line call (its items' drop loop): for a decoder made for a
/// single short item, the two stacks' drops took half of its
/// instructions.
pub(crate) struct Stack<T>(ManuallyDrop<Vec<T>>);

impl<T> Default for Stack<T> {
    #[inline]
    fn default() -> Self {
        Stack(ManuallyDrop::new(Vec::new()))
    }
}

impl<T> Deref for Stack<T> {
    type Target = Vec<T>;
    #[inline]
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> DerefMut for Stack<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T> Stack<T> {
    /// Drops the items (none, unless a decode panicked) and frees the buffer.
    #[cold]
    #[inline(never)]
    fn free(&mut self) {
        drop(std::mem::take(&mut *self.0));
    }
}

impl<T> Drop for Stack<T> {
    #[inline(always)]
    fn drop(&mut self) {
        // A `Vec` without capacity holds nothing to free or drop (items
        // left by a decode that panicked imply capacity).
        if self.0.capacity() != 0 {
            self.free();
        }
    }
}

/// Reads values through a format driver `F` from a reader `R`.
///
/// It tracks nesting depth, bounds allocations by the input size, and adds
/// the byte offset to every error.
pub struct Decoder<'de, R: Read<'de>, F: DecodeFormat> {
    r: R,
    f: F,
    scratch: Vec<u8>,
    /// Items of the dynamic [`Value`](crate::Value) arrays being read,
    /// innermost on top: an array without a declared length collects here
    /// and takes its items off in one allocation of the final size.
    pub(crate) value_stack: Stack<crate::Value>,
    /// The same for the entries of [`Value`](crate::Value) maps.
    pub(crate) entry_stack: Stack<(crate::Value, crate::Value)>,
    opts: DecodeOptions,
    depth: u32,
    /// In [`Decoder::decode_exact`]: an item at depth 0 is the whole input.
    sole: bool,
    /// Bytes reserved up front ([`Decoder::prealloc`]) by collections still
    /// being filled: together they stay within `max_prealloc`.
    reserved: usize,
    /// A value failed part way: the reader stands inside it, so no more
    /// values until [`Decoder::reset`] (ugorji's errors are sticky too).
    failed: bool,
    _de: PhantomData<&'de [u8]>,
}

impl<'de, R: Read<'de>, F: DecodeFormat> Decoder<'de, R, F> {
    /// A decoder reading from `r` with format driver `f`.
    pub fn new(mut r: R, f: F, opts: DecodeOptions) -> Self {
        if F::TEXT {
            r.track_lines();
        }
        let mut d = Decoder {
            r,
            f,
            scratch: Vec::new(),
            value_stack: Stack::default(),
            entry_stack: Stack::default(),
            opts,
            depth: 0,
            sole: false,
            reserved: 0,
            failed: false,
            _de: PhantomData,
        };
        d.f.limit_str_len(d.opts.max_str_len);
        d
    }

    /// Points the decoder at a new reader, keeping its driver's settings and
    /// its scratch buffer (ugorji's `Reset` / `ResetBytes`); returns the old reader.
    pub fn reset(&mut self, r: R) -> R {
        self.reserved = 0;
        self.failed = false;
        match self.f.side() {
            Some(fresh) => self.f = fresh,
            None => self.f.reset(),
        }
        self.f.limit_str_len(self.opts.max_str_len);
        // Every decode leaves the Value stacks as it found them, errors too.
        debug_assert!(self.value_stack.is_empty() && self.entry_stack.is_empty());
        self.value_stack.clear();
        self.entry_stack.clear();
        self.depth = 0;
        std::mem::replace(&mut self.r, r)
    }

    /// Current nesting depth (arrays, maps, tags, extensions entered).
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Decodes one value into `target`, reusing its allocations where the
    /// type can ([`Decode::decode_into`]).
    #[inline]
    pub fn decode_into<T: Decode<'de>>(&mut self, target: &mut T) -> Result<()> {
        if self.failed {
            return Err(crate::encode::stopped("decoder"));
        }
        target.decode_into(self).map_err(|e| {
            self.failed = true;
            self.quote(e)
        })
    }

    /// [`Decoder::decode_into`] for a value that must be the whole input:
    /// the input must end right after it, as in [`Decoder::decode_exact`],
    /// and the type may size its buffers by the input.
    pub fn decode_exact_into<T: Decode<'de>>(&mut self, target: &mut T) -> Result<()> {
        if self.failed {
            return Err(crate::encode::stopped("decoder"));
        }
        self.sole = true;
        let got = target.decode_into(self);
        self.sole = false;
        got.map_err(|e| {
            self.failed = true;
            let e = self.at(e);
            let e = self.quote(e);
            self.locate(e)
        })?;
        self.finish()
    }

    /// Decodes one value. An error that no inner step located (a missing
    /// struct field, a custom error) gets the offset where decoding stopped.
    #[inline]
    pub fn decode<T: Decode<'de>>(&mut self) -> Result<T> {
        if self.failed {
            return Err(crate::encode::stopped("decoder"));
        }
        T::decode(self).map_err(|e| {
            self.failed = true;
            // Collections left unfinished release nothing: start afresh.
            self.reserved = 0;
            let e = self.at(e);
            let e = self.quote(e);
            self.locate(e)
        })
    }

    /// Decodes one value and requires the input to end right after it.
    pub fn decode_exact<T: Decode<'de>>(&mut self) -> Result<T> {
        self.sole = true;
        let v = self.decode::<T>();
        self.sole = false;
        let v = v?;
        self.finish()?;
        Ok(v)
    }

    /// `e` with the line and column of its offset ([`Error::line_column`])
    /// when the format is text ([`DecodeFormat::TEXT`]) and the reader can
    /// tell ([`Read::line_column`]); else `e`. The errors of
    /// [`Decoder::decode`], [`Decoder::finish`] and [`Decoder::at_end`] (and
    /// so of `from_slice` and `from_reader`) have it; call this for the
    /// error of a step of your own.
    #[cold]
    pub fn locate(&self, e: Error) -> Error {
        if !F::TEXT || e.line_column().is_some() {
            return e;
        }
        match e.offset().and_then(|at| self.r.line_column(at)) {
            Some(lc) => e.with_line_column(lc),
            None => e,
        }
    }

    /// Requires that nothing but what the format allows (JSON whitespace) follows.
    pub fn finish(&mut self) -> Result<()> {
        self.f
            .end_of_value(&mut self.r)
            .map_err(|e| self.locate(self.at(e)))?;
        match self.r.peek() {
            Ok(None) => Ok(()),
            Ok(Some(_)) => {
                let e = Error::new(ErrorKind::TrailingData).at(self.r.offset());
                Err(self.locate(e))
            }
            Err(e) => Err(self.locate(e)),
        }
    }

    /// Whether the input is exhausted (after format-level trailing whitespace).
    pub fn at_end(&mut self) -> Result<bool> {
        self.f
            .end_of_value(&mut self.r)
            .map_err(|e| self.locate(self.at(e)))?;
        self.r
            .peek()
            .map(|b| b.is_none())
            .map_err(|e| self.locate(e))
    }

    /// Prepares for the next top-level value of a stream.
    pub fn reset_for_next(&mut self) {
        self.f.reset();
        self.depth = 0;
    }

    /// The options in force.
    #[inline]
    pub fn options(&self) -> &DecodeOptions {
        &self.opts
    }

    /// Whether integers read into a dynamic value become floats: the
    /// option, or the format's own setting ([`DecodeFormat::prefer_float`]).
    #[inline]
    pub(crate) fn prefer_float(&self) -> bool {
        self.opts.prefer_float || self.f.prefer_float()
    }

    /// Offset of the next unread byte.
    #[inline]
    pub fn offset(&self) -> u64 {
        self.r.offset()
    }

    /// The reader.
    pub fn reader(&self) -> &R {
        &self.r
    }

    /// The reader, mutably.
    pub fn reader_mut(&mut self) -> &mut R {
        &mut self.r
    }

    /// The format driver, mutably.
    pub fn format_mut(&mut self) -> &mut F {
        &mut self.f
    }

    /// Returns the reader.
    pub fn into_reader(self) -> R {
        self.r
    }

    #[cold]
    fn at(&self, e: Error) -> Error {
        e.at(self.r.offset())
    }

    /// `e` placed at the next item's first byte, past any whitespace before
    /// it (JSON). For errors about an item not read yet.
    #[cold]
    #[inline(never)]
    fn at_next_item(&mut self, e: Error) -> Error {
        match self.f.peek_kind(&mut self.r) {
            Ok(_) => e.at(self.next_item_offset()),
            Err(_) => self.at(e),
        }
    }

    /// Adds the offset to an error of the driver, and quotes the value of an
    /// item that a type mismatch left unread ([`Kind::mismatch_unread`]).
    #[cold]
    fn fail(&mut self, e: Error) -> Error {
        let e = if e.is_unread() {
            e.at(self.next_item_offset())
        } else {
            self.at(e)
        };
        self.quote(e)
    }

    /// Where the next item starts, once [`peek_kind`](Self::peek_kind) or
    /// [`peek_head_kind`](Self::peek_head_kind) has looked at it: past the
    /// whitespace a format allows before it, and at its first byte even if
    /// the format read it ahead to tell its kind
    /// ([`DecodeFormat::next_item_offset`]). Derived enums place their
    /// errors there.
    #[inline]
    pub fn next_item_offset(&self) -> u64 {
        self.f.next_item_offset(self.r.offset())
    }

    /// Whether this format reads nil as a scalar's zero value
    /// ([`DecodeFormat::NIL_IS_ZERO`]); derived enums with integer tags
    /// read it as tag 0.
    #[inline]
    pub fn nil_is_zero(&self) -> bool {
        F::NIL_IS_ZERO
    }

    /// [`Decoder::fail`] for a number read from offset `at`: a range error
    /// (the number read whole, and found not to fit) points at `at`, the
    /// number's first byte, unless the format placed it already.
    #[cold]
    fn fail_number(&mut self, e: Error, at: u64) -> Error {
        let e = match e.kind() {
            crate::ErrorKind::OutOfRange { .. } => e.at(self.item_start(at)),
            _ => e,
        };
        self.fail(e)
    }

    /// Where the item read since offset `at` (taken before reading it)
    /// begins: past the separators and whitespace the format allows before
    /// an item ([`DecodeFormat::capture_prefix_len`]: JSON's `"age": 300`
    /// has a space between `:` and the number). For errors found once an
    /// item has been read whole, such as a number too large for a narrow
    /// integer; `at` itself when the reader no longer holds those bytes
    /// ([`Read::consumed_since`]).
    #[cold]
    pub fn item_start(&self, at: u64) -> u64 {
        match self.r.consumed_since(at) {
            Some(bytes) => at + self.f.capture_prefix_len(bytes).min(bytes.len()) as u64,
            None => at,
        }
    }

    /// For a type mismatch made by [`Kind::mismatch_unread`] whose item is
    /// still next (the reader stands at the error's offset): reads the item
    /// and puts its value in the message (`found text string "forty"`).
    /// Decoding has failed, so consuming the item is harmless; the error
    /// keeps its offset (the item's start) and path. Anything else is
    /// returned unchanged.
    #[cold]
    fn quote(&mut self, e: Error) -> Error {
        if !e.is_unread() {
            return e;
        }
        if e.offset().is_some_and(|o| o != self.next_item_offset()) {
            // Something was read since: the item is gone.
            return e.quoted(None);
        }
        match describe_next(&mut self.f, &mut self.r, &mut self.scratch, &self.opts) {
            Ok(found) => e.quoted(found),
            Err(malformed) => malformed,
        }
    }

    /// The error for a next item of `kind` that the target (`expected`) cannot
    /// be built from, at the current offset (the item's start). The message
    /// quotes the item's value where it can (`found integer 42`,
    /// `found text string "forty"`, `found array (3 items)`, `found
    /// extension with tag 5 (3 bytes)`): this reads the item, so call it
    /// only to fail, with the item not yet consumed (after
    /// [`Decoder::peek_kind`]).
    #[cold]
    pub fn mismatch(&mut self, kind: Kind, expected: &'static str) -> Error {
        let off = self.next_item_offset();
        self.quote(kind.mismatch_unread(expected).at(off))
    }

    /// What kind of item comes next.
    #[inline]
    pub fn peek_kind(&mut self) -> Result<Kind> {
        self.f.peek_kind(&mut self.r).map_err(|e| self.at(e))
    }

    /// What kind of item comes next, for a struct or enum decode deciding
    /// between a map, an array and a scalar: [`peek_kind`](Self::peek_kind)'s
    /// answer, with the common kinds told inline where the format can
    /// ([`DecodeFormat::peek_head_kind`]).
    #[inline]
    pub fn peek_head_kind(&mut self) -> Result<Kind> {
        self.f.peek_head_kind(&mut self.r).map_err(|e| self.at(e))
    }

    /// Consumes a nil if one comes next and says whether it did.
    #[inline]
    pub fn try_decode_nil(&mut self) -> Result<bool> {
        self.f.try_nil(&mut self.r).map_err(|e| self.at(e))
    }

    /// Reads a nil.
    pub fn decode_nil(&mut self) -> Result<()> {
        if self.try_decode_nil()? {
            Ok(())
        } else {
            let kind = self.peek_kind()?;
            Err(self.mismatch(kind, "nil"))
        }
    }

    /// Reads a bool.
    #[inline]
    pub fn decode_bool(&mut self) -> Result<bool> {
        let res = self.f.read_bool(&mut self.r);
        res.map_err(|e| self.fail(e))
    }
    /// Reads an integer as `i64`.
    #[inline]
    pub fn decode_i64(&mut self) -> Result<i64> {
        let at = self.r.offset();
        let res = self.f.read_i64(&mut self.r);
        res.map_err(|e| self.fail_number(e, at))
    }
    /// Reads an integer as `u64`.
    #[inline]
    pub fn decode_u64(&mut self) -> Result<u64> {
        let at = self.r.offset();
        let res = self.f.read_u64(&mut self.r);
        res.map_err(|e| self.fail_number(e, at))
    }
    /// Reads an integer as `i128`.
    #[inline]
    pub fn decode_i128(&mut self) -> Result<i128> {
        let at = self.r.offset();
        let res = self.f.read_i128(&mut self.r);
        res.map_err(|e| self.fail_number(e, at))
    }
    /// Reads an integer as `u128`.
    #[inline]
    pub fn decode_u128(&mut self) -> Result<u128> {
        let at = self.r.offset();
        let res = self.f.read_u128(&mut self.r);
        res.map_err(|e| self.fail_number(e, at))
    }
    /// Reads a number as `f32`.
    #[inline]
    pub fn decode_f32(&mut self) -> Result<f32> {
        let at = self.r.offset();
        let res = self.f.read_f32(&mut self.r);
        res.map_err(|e| self.fail_number(e, at))
    }
    /// Reads a number as `f64`.
    #[inline]
    pub fn decode_f64(&mut self) -> Result<f64> {
        let res = self.f.read_f64(&mut self.r);
        res.map_err(|e| self.fail(e))
    }

    /// A scalar read straight into a `Value` where the driver can
    /// ([`DecodeFormat::read_scalar_value`]); `None`: take the generic path.
    #[inline]
    pub(crate) fn decode_scalar_value(&mut self) -> Result<Option<crate::Value>> {
        self.scalar_value(|_, _, v| v)
    }

    /// [`Decoder::decode_scalar_value`] pushed onto the `Value` item stack
    /// (`true`) instead of returned. The room for it is made first, and
    /// left for the general path when the item is not such a scalar
    /// ([`crate::value::make_room`] says why).
    #[inline]
    pub(crate) fn push_scalar_item(&mut self) -> Result<bool> {
        crate::value::make_stack_room(&mut self.value_stack);
        Ok(self
            .scalar_value(|items, _, v| crate::value::push_into_room(items, v))?
            .is_some())
    }

    /// [`Decoder::decode_scalar_value`] pushed as a key onto the `Value`
    /// entry stack, its value `Nil` until [`Decoder::put_scalar_entry_value`];
    /// the room made first, as in [`Decoder::push_scalar_item`].
    #[inline]
    pub(crate) fn push_scalar_entry_key(&mut self) -> Result<bool> {
        crate::value::make_stack_room(&mut self.entry_stack);
        let put = |_: &mut _, entries: &mut Vec<_>, k| {
            crate::value::push_into_room(entries, (k, crate::Value::Nil))
        };
        Ok(self.scalar_value(put)?.is_some())
    }

    /// [`Decoder::decode_scalar_value`] as the value of the top entry of the
    /// `Value` entry stack.
    #[inline]
    pub(crate) fn put_scalar_entry_value(&mut self) -> Result<bool> {
        // The top entry holds the `Nil` that `push_scalar_entry_key` (or
        // its generic path) put there.
        let put = |_: &mut _, entries: &mut Vec<(_, _)>, v| {
            let at = entries.len().wrapping_sub(1);
            crate::value::fill_entry(entries, at, v)
        };
        Ok(self.scalar_value(put)?.is_some())
    }

    /// A scalar from [`DecodeFormat::read_scalar_value`] (which applies
    /// `max_str_len` itself), handed to `put` with the `Value` item and
    /// entry stacks; `None` when the format had none.
    #[inline(always)]
    pub(crate) fn scalar_value<T>(
        &mut self,
        put: impl FnOnce(
            &mut Vec<crate::Value>,
            &mut Vec<(crate::Value, crate::Value)>,
            crate::Value,
        ) -> T,
    ) -> Result<Option<T>> {
        let (items, entries) = (&mut self.value_stack, &mut self.entry_stack);
        let got = self.f.read_scalar_value(
            &mut self.r,
            &mut self.scratch,
            &self.opts,
            #[inline(always)]
            |v| put(items, entries, v),
        );
        got.map_err(|e| self.at(e))
    }

    /// Reads a text string, borrowed from the input when possible.
    #[inline]
    pub fn decode_str(&mut self) -> Result<Reference<'de, '_, str>> {
        let off = self.r.offset();
        let s = self
            .f
            .read_str(&mut self.r, &mut self.scratch)
            .map_err(|e| e.at(off))?;
        if s.len() > self.opts.max_str_len {
            return Err(Error::str_too_long(s.len(), self.opts.max_str_len).at(off));
        }
        Ok(s)
    }

    /// Reads a text string used as a key (struct field or enum variant
    /// name) as raw bytes, without checking UTF-8 first: compare it against
    /// the known names, and turn a key that matches none into text with
    /// [`key_text`](crate::derive_support::key_text) (which checks it) before using it. Derived code uses
    /// this; a matching key is valid UTF-8 because the name it equals is.
    #[inline]
    pub fn decode_key(&mut self) -> Result<Reference<'de, '_, [u8]>> {
        let off = self.r.offset();
        let s = self
            .f
            .read_str_bytes(&mut self.r, &mut self.scratch)
            .map_err(|e| e.at(off))?;
        if s.len() > self.opts.max_str_len {
            return Err(Error::str_too_long(s.len(), self.opts.max_str_len).at(off));
        }
        Ok(s)
    }

    /// Reads a byte string, borrowed from the input when possible.
    #[inline]
    pub fn decode_bytes(&mut self) -> Result<Reference<'de, '_, [u8]>> {
        let off = self.r.offset();
        let s = self
            .f
            .read_bytes(&mut self.r, &mut self.scratch)
            .map_err(|e| e.at(off))?;
        if s.len() > self.opts.max_str_len {
            return Err(Error::str_too_long(s.len(), self.opts.max_str_len).at(off));
        }
        Ok(s)
    }

    /// Reads a text string into a new `String`.
    #[inline]
    pub fn decode_string(&mut self) -> Result<String> {
        Ok(self.decode_str()?.to_owned())
    }

    /// Reads a timestamp.
    pub fn decode_time(&mut self) -> Result<Time> {
        let res = self.f.read_time(&mut self.r, &mut self.scratch);
        res.map_err(|e| self.fail(e))
    }

    /// Reads an extension: its tag and data.
    /// Its data counts as a byte string for `max_str_len`.
    pub fn decode_ext(&mut self) -> Result<(u64, Reference<'de, '_, [u8]>)> {
        let off = self.r.offset();
        let (tag, data) = self
            .f
            .read_ext(&mut self.r, &mut self.scratch)
            .map_err(|e| e.at(off))?;
        if data.len() > self.opts.max_str_len {
            return Err(Error::str_too_long(data.len(), self.opts.max_str_len).at(off));
        }
        Ok((tag, data))
    }

    /// Reads a tag number (CBOR); the tagged item follows.
    pub fn decode_tag(&mut self) -> Result<u64> {
        let res = self.f.read_tag(&mut self.r);
        res.map_err(|e| self.fail(e))
    }

    /// Reads a simple value (CBOR).
    pub fn decode_simple(&mut self) -> Result<u8> {
        let res = self.f.read_simple(&mut self.r);
        res.map_err(|e| self.fail(e))
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        if self.depth >= self.opts.max_depth {
            return Err(self.at(Error::new(ErrorKind::DepthLimitExceeded {
                max: self.opts.max_depth,
            })));
        }
        self.depth += 1;
        Ok(())
    }

    /// Refuses a declared length past `max_len`, pointing at the header that
    /// starts at `header`.
    #[inline]
    fn check_len(&self, seq: &Seq, header: u64) -> Result<()> {
        match seq.len {
            Some(n) if n > self.opts.max_len => {
                Err(limit("max_len", n, self.opts.max_len).at(header))
            }
            _ => Ok(()),
        }
    }

    /// Reads an array header (entering one level of nesting). Follow with
    /// [`Decoder::array_next`] before each item and [`Decoder::array_end`] at the end.
    // This and the other container steps are forced inline only where
    // `debug_assertions` are off (optimised builds): unoptimised, each
    // inlined copy kept its own stack slots in every recursive decode's
    // frame (see `value::decode_scalar_with`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn array_begin(&mut self) -> Result<Seq> {
        self.enter()?;
        let header = self.r.offset();
        let seq = self.f.array_begin(&mut self.r);
        let seq = seq.map_err(|e| self.fail(e))?;
        self.check_len(&seq, header)?;
        Ok(seq)
    }

    /// Begins the next array item; false at the end of the array.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn array_next(&mut self, seq: &mut Seq) -> Result<bool> {
        if seq.ended() {
            return Ok(false);
        }
        let more = self
            .f
            .array_next(&mut self.r, seq)
            .map_err(|e| self.at(e))?;
        if !more {
            // A delimited container has ended: remember it, so that asking
            // again (as `array_end` does) never reads past its end marker.
            seq.len = Some(seq.index);
        }
        if more && seq.index > self.opts.max_len {
            return Err(self.at_next_item(limit("max_len", seq.index, self.opts.max_len)));
        }
        Ok(more)
    }

    /// Ends an array, skipping any items not read (leaving one level of
    /// nesting). An error in a skipped item names it by its index.
    #[inline]
    pub fn array_end(&mut self, seq: Seq) -> Result<()> {
        if !seq.ended() {
            return self.array_end_rest(seq);
        }
        self.depth = self.depth.saturating_sub(1);
        Ok(())
    }

    /// [`Decoder::array_end`] before the array's end was seen. An error
    /// while skipping an item names it by its index.
    #[cold]
    fn array_end_rest(&mut self, mut seq: Seq) -> Result<()> {
        while self.array_next(&mut seq)? {
            let at = seq.index.saturating_sub(1);
            self.skip().map_err(|e| e.in_index(at))?;
        }
        self.depth = self.depth.saturating_sub(1);
        Ok(())
    }

    /// Reads a map header (entering one level of nesting). Follow with
    /// [`Decoder::map_next`] before each key, [`Decoder::map_value`] before each
    /// value and [`Decoder::map_end`] at the end.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn map_begin(&mut self) -> Result<Seq> {
        self.enter()?;
        let header = self.r.offset();
        let seq = self.f.map_begin(&mut self.r);
        let seq = seq.map_err(|e| self.fail(e))?;
        self.check_len(&seq, header)?;
        Ok(seq)
    }

    /// Begins the next map entry (read its key next); false at the end of the map.
    #[inline]
    pub fn map_next(&mut self, seq: &mut Seq) -> Result<bool> {
        if seq.ended() {
            return Ok(false);
        }
        let more = self.f.map_next(&mut self.r, seq).map_err(|e| self.at(e))?;
        if !more {
            // A delimited container has ended: remember it, so that asking
            // again (as `map_end` does) never reads past its end marker.
            seq.len = Some(seq.index);
        }
        if more && seq.index > self.opts.max_len {
            return Err(self.at_next_item(limit("max_len", seq.index, self.opts.max_len)));
        }
        Ok(more)
    }

    /// Begins the next entry of a map whose keys are text, reads its key
    /// and moves on to its value: [`Decoder::map_next`], then
    /// [`Decoder::decode_key`] and [`Decoder::map_value`], with the same
    /// results and errors, in one step where the format can
    /// ([`DecodeFormat::map_next_key`]). `key` gets the key's raw bytes (not
    /// checked for UTF-8, as from `decode_key`) and its offset; its error
    /// ends decoding (at the key's offset if it names none). `Ok(None)` at
    /// the end of the map.
    ///
    /// ```
    /// use codec_core::{Decode, Decoder, DecodeFormat, Error, Read, Result};
    ///
    /// /// A map with keys `x` and `y` (others skipped).
    /// struct Point {
    ///     x: i64,
    ///     y: i64,
    /// }
    ///
    /// impl<'de> Decode<'de> for Point {
    ///     fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
    ///         let (mut x, mut y) = (None, None);
    ///         let mut seq = d.map_begin()?;
    ///         // The closure maps the key to a field number without copying it.
    ///         while let Some(field) = d.map_next_key(&mut seq, |k, _offset| {
    ///             Ok(match k {
    ///                 b"x" => 0,
    ///                 b"y" => 1,
    ///                 _ => 2,
    ///             })
    ///         })? {
    ///             match field {
    ///                 0 => x = Some(d.decode_i64()?),
    ///                 1 => y = Some(d.decode_i64()?),
    ///                 _ => d.skip()?,
    ///             }
    ///         }
    ///         d.map_end(seq)?;
    ///         match (x, y) {
    ///             (Some(x), Some(y)) => Ok(Point { x, y }),
    ///             _ => Err(Error::custom("x and y are required")),
    ///         }
    ///     }
    /// }
    /// ```
    // Inlined into each struct's loop, so that the key's match and the
    // field's dispatch fold into one; out of line, the key goes through
    // memory and is matched twice.
    #[inline(always)]
    pub fn map_next_key<K>(
        &mut self,
        seq: &mut Seq,
        mut key: impl FnMut(&[u8], u64) -> Result<K>,
    ) -> Result<Option<K>> {
        self.map_next_field(seq, None, |s, off, _| key(s, off))
    }

    /// [`Decoder::map_next_key`] for a struct's fields, given the name of
    /// the field the caller expects next: where the format checks it in
    /// place (JSON; the binary formats read a key's length in its header
    /// and do not), a key that is exactly `hint` reaches `key` with `true`
    /// as its third argument, and `key` may answer without matching the
    /// bytes (they are `hint`'s). Any other key, or a format that does not
    /// check, gives `false`. The results and errors are
    /// [`Decoder::map_next_key`]'s either way.
    ///
    /// Derived decoders pass the field after the last one read: in a
    /// document written from the same struct, every key but the first of
    /// any run of absent fields is found with a compare or two.
    #[inline(always)]
    pub fn map_next_field<K>(
        &mut self,
        seq: &mut Seq,
        hint: Option<&KeyHint>,
        mut key: impl FnMut(&[u8], u64, bool) -> Result<K>,
    ) -> Result<Option<K>> {
        if seq.ended() {
            return Ok(None);
        }
        // One step only where `map_next`'s `max_len` check cannot fail.
        if seq.index < self.opts.max_len {
            let max = self.opts.max_str_len;
            let step = self.f.map_next_key(
                &mut self.r,
                seq,
                hint,
                #[inline(always)]
                |s, off, hinted| {
                    if s.len() > max {
                        return Err(limit("max_str_len", s.len(), max).at(off));
                    }
                    key(s, off, hinted).map_err(|e| e.at(off))
                },
            );
            match step.map_err(|e| self.at(e))? {
                KeyStep::Key(k) => return Ok(Some(k)),
                KeyStep::End => {
                    seq.len = Some(seq.index);
                    return Ok(None);
                }
                KeyStep::Next => {}
            }
        } else if !self.map_next(seq)? {
            return Ok(None);
        }
        let off = self.offset();
        let s = self.decode_key()?;
        let k = key(&s, off, false).map_err(|e| e.at(off))?;
        self.map_value(seq)?;
        Ok(Some(k))
    }

    /// Whether the map's next entry has exactly `hint`'s name as its key,
    /// where the format checks it in place (the five formats here do, for a
    /// key in its plain layout whole in the reader's buffer): if so, the
    /// key is consumed, the value is next, and this returns true. Otherwise
    /// (another key, the end of the map, a format that does not check)
    /// nothing is consumed and this returns false: read the entry with
    /// [`Decoder::map_next_field`], which gives the same result as if
    /// this had not been called.
    ///
    /// Derived decoders try each field in declaration order this way
    /// before their general loop.
    #[inline(always)]
    pub fn map_next_is(&mut self, seq: &mut Seq, hint: &KeyHint) -> Result<bool> {
        // The limits the general path checks: left to it to report.
        if seq.ended()
            || seq.index >= self.opts.max_len
            || hint.as_bytes().len() > self.opts.max_str_len
        {
            return Ok(false);
        }
        let r = self.f.map_next_is(&mut self.r, seq, hint);
        r.map_err(|e| self.at(e))
    }

    /// For the dynamic `Value`'s map loop, where the format's keys are all
    /// text ([`DecodeFormat::value_keys_are_text`]): the format's
    /// [`DecodeFormat::map_next_key`], the key pushed onto the `Value` entry
    /// stack as [`Value::Str`](crate::Value::Str) with a `Nil` value (built
    /// there in place, as in [`Decoder::push_scalar_entry_key`]). A key, its
    /// errors and `max_str_len` are as the general path (which reads the
    /// key as a scalar) would give them, and a key's error names the entry
    /// by position, as there. [`KeyStep::Next`]: the format has done
    /// [`Decoder::map_next`] only, and the general path reads the key and
    /// the `:`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn push_text_entry_key(&mut self, seq: &mut Seq) -> Result<KeyStep<()>> {
        if let Some(step) = self.text_key_general(seq)? {
            return Ok(step);
        }
        let (max, i) = (self.opts.max_str_len, seq.index);
        let entries = &mut self.entry_stack;
        let step = self.f.map_next_key(
            &mut self.r,
            seq,
            None,
            #[inline(always)]
            |s, off, _| {
                check_key_len(s, off, max, i)?;
                // A short ASCII key (nearly every key) needs no call to be
                // checked: its bytes are tested in the registers they are
                // gathered in.
                if s.len() <= crate::Text::MAX_INLINE
                    && let Some(t) = crate::Text::inline_ascii(s)
                {
                    crate::value::push_on_stack(
                        entries,
                        #[inline(always)]
                        || (crate::Value::Str(t), crate::Value::Nil),
                    );
                    return Ok(());
                }
                match crate::str_from_utf8(s) {
                    // In a branch of its own, a short key's `Text` is built
                    // in its slot (after a shared `from`, through a copy).
                    Ok(s) if s.len() <= crate::Text::MAX_INLINE => {
                        crate::value::push_on_stack(
                            entries,
                            #[inline(always)]
                            || (crate::Value::Str(crate::Text::from(s)), crate::Value::Nil),
                        );
                        Ok(())
                    }
                    Ok(s) => {
                        let key = crate::Value::Str(crate::Text::from(s));
                        crate::value::push_on_stack(entries, || (key, crate::Value::Nil));
                        Ok(())
                    }
                    Err(e) => Err(e.at(off).in_entry_key(i)),
                }
            },
        );
        self.text_key_done(seq, step)
    }

    /// The start of [`Decoder::push_text_entry_key`] and
    /// [`Decoder::doc_text_key`]: the step when the map has ended or is at
    /// `max_len` (whose error the general path gives); `None` to go on.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn text_key_general(&mut self, seq: &mut Seq) -> Result<Option<KeyStep<()>>> {
        if seq.ended() {
            return Ok(Some(KeyStep::End));
        }
        if seq.index >= self.opts.max_len {
            let more = self.map_next(seq)?;
            return Ok(Some(if more { KeyStep::Next } else { KeyStep::End }));
        }
        Ok(None)
    }

    /// The end of [`Decoder::push_text_entry_key`] and [`Decoder::doc_text_key`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn text_key_done(&mut self, seq: &mut Seq, step: Result<KeyStep<()>>) -> Result<KeyStep<()>> {
        let step = step.map_err(|e| self.at(e))?;
        if let KeyStep::End = step {
            seq.len = Some(seq.index);
        }
        Ok(step)
    }

    /// [`Decoder::push_text_entry_key`] for a [`Document`](crate::Document):
    /// the key's text appended to `doc`.
    #[inline(always)]
    pub(crate) fn doc_text_key(
        &mut self,
        seq: &mut Seq,
        doc: &mut crate::document::Builder,
    ) -> Result<KeyStep<()>> {
        if let Some(step) = self.text_key_general(seq)? {
            return Ok(step);
        }
        let (max, i) = (self.opts.max_str_len, seq.index);
        let step = self.f.map_next_key(
            &mut self.r,
            seq,
            None,
            #[inline(always)]
            |s, off, _| {
                check_key_len(s, off, max, i)?;
                // A short ASCII key (nearly every key) is checked in the
                // register it is gathered in, with no call.
                if s.len() <= 16 && crate::short_word(s) & ASCII_HIGH_BITS == 0 {
                    doc.push_text(s);
                    return Ok(());
                }
                let s = crate::str_from_utf8(s).map_err(|e| e.at(off).in_entry_key(i))?;
                doc.push_text(s.as_bytes());
                Ok(())
            },
        );
        self.text_key_done(seq, step)
    }

    /// [`Decoder::decode_scalar_value`] for a [`Document`](crate::Document):
    /// a scalar the format reads in one step appended to `doc` (`true`).
    #[inline(always)]
    pub(crate) fn doc_scalar(&mut self, doc: &mut crate::document::Builder) -> Result<bool> {
        let got = self.f.read_scalar(
            &mut self.r,
            &mut self.scratch,
            &self.opts,
            #[inline(always)]
            |s| doc.push_scalar(s),
        );
        Ok(got.map_err(|e| self.at(e))?.is_some())
    }

    /// The format's reader of a whole item into a [`Document`](crate::Document)
    /// ([`DecodeFormat::read_document`]), with the nesting `max_depth`
    /// leaves; false (nothing consumed, nothing left in `doc`) when it
    /// does not take this one.
    #[inline]
    pub(crate) fn doc_whole(&mut self, doc: &mut crate::document::Builder) -> Result<bool> {
        let mark = doc.mark();
        let room = self.opts.max_depth.saturating_sub(self.depth);
        let whole = self.sole && self.depth == 0;
        let mut sink = crate::DocumentBuilder::new(doc, room, whole);
        let got = self.f.read_document(&mut self.r, &self.opts, &mut sink);
        let complete = sink.complete();
        match got.map_err(|e| self.at(e))? {
            true if complete => Ok(true),
            true => Err(self.at(Error::custom(format_args!(
                "{} read_document: not one whole item",
                F::NAME
            )))),
            false => {
                doc.truncate(mark);
                Ok(false)
            }
        }
    }

    /// Moves from a map key to its value.
    #[inline]
    pub fn map_value(&mut self, seq: &mut Seq) -> Result<()> {
        self.f.map_value(&mut self.r, seq).map_err(|e| self.at(e))
    }

    /// Ends a map, skipping any entries not read (leaving one level of
    /// nesting). An error in a skipped entry names it by its key, or by
    /// its position when the key itself is in error.
    #[inline]
    pub fn map_end(&mut self, seq: Seq) -> Result<()> {
        if !seq.ended() {
            return self.map_end_rest(seq);
        }
        self.depth = self.depth.saturating_sub(1);
        Ok(())
    }

    /// [`Decoder::map_end`] before the map's end was seen. Each key left
    /// is read as a [`Value`](crate::Value) (this path is cold: only a
    /// hand-written decoder ends a map early), so that an error in skipping
    /// its value names the entry by its key, as a derived decoder's would;
    /// an error in the key itself names the entry by position.
    #[cold]
    fn map_end_rest(&mut self, mut seq: Seq) -> Result<()> {
        while self.map_next(&mut seq)? {
            let i = seq.index.saturating_sub(1);
            let key = crate::Value::decode(self).map_err(|e| e.in_entry_key(i))?;
            let seg = key.path_segment().unwrap_or(PathSegment::Index(i));
            drop(key);
            self.map_value(&mut seq)?;
            self.skip().map_err(|e| e.within(seg))?;
        }
        self.depth = self.depth.saturating_sub(1);
        Ok(())
    }

    /// Enters one level of nesting for a tag or extension whose content is
    /// decoded next; pair with [`Decoder::leave`].
    #[inline]
    pub fn enter_nested(&mut self) -> Result<()> {
        self.enter()
    }

    /// Leaves the level entered by [`Decoder::enter_nested`].
    #[inline]
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips one whole item.
    pub fn skip(&mut self) -> Result<()> {
        let budget = self.opts.max_depth.saturating_sub(self.depth);
        self.f
            .skip(&mut self.r, &mut self.scratch, budget)
            .map_err(|e| self.skip_failed(e))
    }

    /// An error of [`DecodeFormat::skip`], which knows only the depth
    /// budget it was given: a depth error names the `max_depth` in force,
    /// as [`Decoder::enter`]'s do, and an error without an offset gets the
    /// reader's.
    #[cold]
    #[inline(never)]
    fn skip_failed(&self, e: Error) -> Error {
        let at = e.offset().unwrap_or(self.r.offset());
        match e.kind() {
            ErrorKind::DepthLimitExceeded { .. } => Error::new(ErrorKind::DepthLimitExceeded {
                max: self.opts.max_depth,
            })
            .at(at),
            _ => e.at(at),
        }
    }

    /// Consumes one whole item and returns its encoded bytes (for `Raw`),
    /// also after [`Decoder::peek_kind`] has made the format read it ahead
    /// (a JSON number): its bytes as written, from its first byte.
    pub fn capture_raw(&mut self) -> Result<Reference<'de, '_, [u8]>> {
        let at = self.r.offset();
        let start = self.f.next_item_offset(at);
        if start != at {
            return self.capture_pending(start);
        }
        self.r.start_capture();
        self.skip()?;
        let captured = self.r.end_capture(&mut self.scratch);
        // What precedes the item (JSON whitespace and separators) is not part of it.
        let n = self.f.capture_prefix_len(&captured);
        Ok(match captured {
            Reference::Borrowed(b) => Reference::Borrowed(b.get(n..).unwrap_or_default()),
            Reference::Copied(c) => Reference::Copied(c.get(n..).unwrap_or_default()),
        })
    }

    /// [`Decoder::capture_raw`] of an item the format has already read
    /// (JSON's `peek_kind` reads a number whole): its bytes from `start`,
    /// where the item begins, from the reader while it holds them, else
    /// from the format.
    #[cold]
    #[inline(never)]
    fn capture_pending(&mut self, start: u64) -> Result<Reference<'de, '_, [u8]>> {
        if self.r.start_capture_at(start) {
            let res = self.skip();
            let captured = self.r.end_capture(&mut self.scratch);
            res?;
            return Ok(captured);
        }
        let Some(bytes) = self.f.pending_bytes() else {
            return Err(Error::unsupported(
                "the item was read ahead and its bytes are no longer held: cannot capture it",
            )
            .at(start));
        };
        let mut held = std::mem::take(&mut self.scratch);
        held.clear();
        held.extend_from_slice(bytes);
        // The skip only drops what is pending; `held` keeps the bytes meanwhile.
        let res = self.skip();
        self.scratch = held;
        res?;
        Ok(Reference::Copied(&self.scratch))
    }

    /// How many elements of `size` bytes to reserve for a declared length:
    /// no more than the input could hold (each item takes at least one byte)
    /// nor than what is left of `max_prealloc` bytes, which all the
    /// collections being filled share (nested declared lengths cannot each
    /// reserve the whole budget). Give the reservation back with
    /// [`Decoder::release`] once the collection is filled.
    #[inline]
    pub fn prealloc(&mut self, declared: Option<usize>, size: usize) -> usize {
        let n = declared.unwrap_or(0);
        if n == 0 {
            return 0;
        }
        let size = size.max(1);
        let by_input = self.r.remaining_hint().unwrap_or(usize::MAX);
        let by_budget = self.opts.max_prealloc.saturating_sub(self.reserved) / size;
        let n = n.min(by_input).min(by_budget);
        self.reserved += n * size;
        n
    }

    /// Gives back a reservation of `n` elements of `size` bytes that
    /// [`Decoder::prealloc`] granted, the collection being filled.
    #[inline]
    pub fn release(&mut self, n: usize, size: usize) {
        self.reserved = self.reserved.saturating_sub(n * size.max(1));
    }

    /// Takes an empty array where the format sees one at a glance
    /// ([`DecodeFormat::try_empty_array`]); false, with nothing consumed,
    /// otherwise. At the depth limit it is left to the general path, which
    /// refuses it as it refuses any container there.
    #[inline(always)]
    pub(crate) fn try_empty_array(&mut self) -> Result<bool> {
        if self.depth >= self.opts.max_depth {
            return Ok(false);
        }
        let res = self.f.try_empty_array(&mut self.r);
        res.map_err(|e| self.at(e))
    }

    /// Reads an array into a `Vec`, each item with its own [`Decode`].
    pub fn decode_array_vec<T: Decode<'de>>(&mut self) -> Result<Vec<T>> {
        if self.try_decode_nil()? {
            return Ok(Vec::new());
        }
        let mut seq = self.array_begin()?;
        let size = std::mem::size_of::<T>();
        let reserved = self.prealloc(seq.len, size);
        let mut out = Vec::with_capacity(reserved);
        while self.array_next(&mut seq)? {
            let i = seq.index - 1;
            out.push(T::decode(self).map_err(|e| e.in_index(i))?);
        }
        self.release(reserved, size);
        self.array_end(seq)?;
        Ok(out)
    }

    /// Reads an array into an existing `Vec`: the items it already has are
    /// decoded into ([`Decode::decode_into`]), more are pushed, the rest dropped.
    pub fn decode_array_into_vec<T: Decode<'de>>(&mut self, out: &mut Vec<T>) -> Result<()> {
        if self.try_decode_nil()? {
            out.clear();
            return Ok(());
        }
        let mut seq = self.array_begin()?;
        let (mut n, mut reserved, size) = (0, 0, std::mem::size_of::<T>());
        while self.array_next(&mut seq)? {
            let i = seq.index - 1;
            match out.get_mut(n) {
                Some(slot) => slot.decode_into(self).map_err(|e| e.in_index(i))?,
                None => {
                    if n == out.len() && out.capacity() == out.len() && reserved == 0 {
                        reserved = self.prealloc(seq.len.map(|l| l - n), size);
                        out.reserve(reserved);
                    }
                    out.push(T::decode(self).map_err(|e| e.in_index(i))?);
                }
            }
            n += 1;
        }
        self.release(reserved, size);
        out.truncate(n);
        self.array_end(seq)
    }

    /// Reads an array that must have `n` items into a `Vec` (for arrays and
    /// tuples). Extra items are skipped unless `error_on_array_overflow`.
    pub fn decode_fixed_array<T: Decode<'de>>(&mut self, n: usize) -> Result<Vec<T>> {
        let mut seq = self.array_begin()?;
        let size = std::mem::size_of::<T>();
        let reserved = self.prealloc(Some(n), size);
        let mut out = Vec::with_capacity(reserved);
        while out.len() < n && self.array_next(&mut seq)? {
            let i = seq.index - 1;
            out.push(T::decode(self).map_err(|e| e.in_index(i))?);
        }
        self.release(reserved, size);
        if out.len() < n {
            return Err(self.at(Error::new(ErrorKind::InvalidLength {
                expected: n,
                found: out.len(),
            })));
        }
        self.fixed_array_end(seq, n)?;
        Ok(out)
    }

    /// Reads an array of exactly `N` items into `out`, overwriting each slot in
    /// order (extra items are skipped unless `error_on_array_overflow`). The
    /// fast path for `[T; N]` of types with a cheap placeholder value, such as
    /// numbers: no `Option` per slot and no temporary `Vec`.
    #[inline]
    pub fn decode_array_filled<T: Decode<'de>, const N: usize>(
        &mut self,
        out: [T; N],
    ) -> Result<[T; N]> {
        self.array_filled(out)
    }

    /// [`Decoder::decode_array_filled`], inlined whole. For the fallback of
    /// [`Decoder::decode_float_array`]: out of line, its result comes back
    /// through memory, and the one-step path's items must then go there
    /// too, each by a store of its own width, for the two paths to meet.
    /// The caller reads the array back at once in wider loads (eight bytes
    /// spanning two `f32` stores), which the store buffer cannot forward:
    /// each read stalled until the stores reached the cache. With four
    /// `[f32; 3]` per triangle, that was over a third of the time of
    /// decoding the bench's `mesh` in MessagePack or CBOR. Inlined, the two
    /// paths meet in registers.
    #[inline(always)]
    fn array_filled<T: Decode<'de>, const N: usize>(&mut self, mut out: [T; N]) -> Result<[T; N]> {
        let mut seq = self.array_begin()?;
        for (i, slot) in out.iter_mut().enumerate() {
            if !self.array_next(&mut seq)? {
                return Err(self.at(Error::new(ErrorKind::InvalidLength {
                    expected: N,
                    found: i,
                })));
            }
            *slot = T::decode(self).map_err(|e| e.in_index(i))?;
        }
        self.fixed_array_end(seq, N)?;
        Ok(out)
    }

    /// Reads `[f64; N]`: in one step when the format driver takes the array
    /// whole ([`DecodeFormat::read_f64_array`]), else item by item
    /// ([`Decoder::decode_array_filled`]). The one-step path is tried only
    /// where the item-by-item one would not fail on the depth or length
    /// limits, so both give the same result.
    #[inline]
    pub fn decode_f64_array<const N: usize>(&mut self) -> Result<[f64; N]> {
        self.decode_float_array(
            [0.0; N],
            #[inline(always)]
            |f, r, out| f.read_f64_array(r, out),
        )
    }

    /// Reads `[f32; N]`, as [`Decoder::decode_f64_array`] does `[f64; N]`.
    #[inline]
    pub fn decode_f32_array<const N: usize>(&mut self) -> Result<[f32; N]> {
        self.decode_float_array(
            [0.0; N],
            #[inline(always)]
            |f, r, out| f.read_f32_array(r, out),
        )
    }

    /// The two paths of [`Decoder::decode_f64_array`], with the driver's
    /// one-step method `read`.
    #[inline(always)]
    fn decode_float_array<T: Decode<'de>, const N: usize>(
        &mut self,
        mut out: [T; N],
        read: impl FnOnce(&mut F, &mut R, &mut [T]) -> Result<bool>,
    ) -> Result<[T; N]> {
        if self.depth < self.opts.max_depth
            && N <= self.opts.max_len
            && read(&mut self.f, &mut self.r, &mut out).map_err(|e| self.fail(e))?
        {
            return Ok(out);
        }
        self.array_filled(out)
    }

    /// Ends a fixed-size array after its `n` items: extra items are skipped,
    /// or an error with `error_on_array_overflow`.
    #[inline]
    pub fn fixed_array_end(&mut self, mut seq: Seq, n: usize) -> Result<()> {
        if self.opts.error_on_array_overflow && self.array_next(&mut seq)? {
            return Err(self.array_overflow(seq, n));
        }
        self.array_end(seq)
    }

    /// The error for an array with more than the `n` items its target
    /// takes, the reader standing before item `n`: placed at that item,
    /// past any whitespace, and counting the array's items, which for an
    /// array without a declared length (JSON, CBOR indefinite) means
    /// skipping the rest of it (decoding has failed, so reading on is
    /// harmless). An error while skipping is returned instead.
    #[cold]
    #[inline(never)]
    fn array_overflow(&mut self, mut seq: Seq, n: usize) -> Error {
        if let Err(e) = self.f.peek_kind(&mut self.r) {
            return self.fail(e);
        }
        let at = self.next_item_offset();
        let found = match seq.len {
            Some(len) => len,
            None => loop {
                if let Err(e) = self.skip() {
                    return e;
                }
                match self.array_next(&mut seq) {
                    Ok(true) => {}
                    Ok(false) => break seq.index,
                    Err(e) => return e,
                }
            },
        };
        Error::new(ErrorKind::InvalidLength { expected: n, found }).at(at)
    }

    /// Ends a struct with named fields read from an array (`toarray`) after
    /// its `n` fields: extra items are skipped, or an error with
    /// `error_on_unknown_field` (an item with no field, as ugorji's
    /// `ErrorIfNoField` treats it) or `error_on_array_overflow`.
    #[inline]
    pub fn struct_array_end(&mut self, mut seq: Seq, n: usize) -> Result<()> {
        let strict = self.opts.error_on_unknown_field || self.opts.error_on_array_overflow;
        if strict && self.array_next(&mut seq)? {
            return Err(self.array_overflow(seq, n));
        }
        self.array_end(seq)
    }
}

/// Reads the next item to describe it in a type-mismatch message; `None` if
/// it cannot be read (the message then names the kind only), or the error
/// of reading it where the item is malformed (syntax, end of input), which
/// the caller reports instead of the mismatch. Strings longer than
/// `max_str_len` are not quoted.
#[cold]
fn describe_next<'de, F: DecodeFormat, R: Read<'de>>(
    f: &mut F,
    r: &mut R,
    scratch: &mut Vec<u8>,
    opts: &DecodeOptions,
) -> std::result::Result<Option<String>, Error> {
    let max = opts.max_str_len;
    // A malformed item (bad syntax, cut short) is that error, not a type
    // mismatch with a kind guessed from its first byte (JSON `trux`);
    // anything else leaves the item unquoted.
    macro_rules! read {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(e) if matches!(e.kind(), ErrorKind::Syntax(_)) || e.is_eof() => {
                    let at = r.offset();
                    return Err(e.at(at));
                }
                Err(_) => return Ok(None),
            }
        };
    }
    let found = match read!(f.peek_kind(r)) {
        Kind::Nil => {
            read!(f.try_nil(r));
            Found::Nil
        }
        Kind::Bool => Found::Bool(read!(f.read_bool(r))),
        Kind::Int | Kind::BigInt => Found::Int(read!(f.read_i128(r))),
        Kind::Uint => Found::Uint(read!(f.read_u128(r))),
        Kind::Float32 | Kind::Float64 => Found::Float(read!(f.read_f64(r))),
        Kind::Str => {
            let s = read!(f.read_str(r, scratch));
            if s.len() > max {
                return Ok(None);
            }
            return Ok(Some(
                Found::Text {
                    head: s.as_bytes(),
                    len: s.len(),
                }
                .to_string(),
            ));
        }
        Kind::Bytes => {
            let b = read!(f.read_bytes(r, scratch));
            if b.len() > max {
                return Ok(None);
            }
            Found::Bytes(b.len())
        }
        Kind::Array => Found::Array(read!(f.array_begin(r)).len),
        Kind::Map => Found::Map(read!(f.map_begin(r)).len),
        Kind::Ext => {
            let (tag, data) = read!(f.read_ext(r, scratch));
            if data.len() > max {
                return Ok(None);
            }
            Found::Ext {
                tag,
                len: data.len(),
            }
        }
        Kind::Time => Found::Time(read!(f.read_time(r, scratch))),
        Kind::Tag => Found::Tag(read!(f.read_tag(r))),
        Kind::Simple => Found::Simple(read!(f.read_simple(r))),
    };
    Ok(Some(found.to_string()))
}

/// A text key of entry `i` at `off` longer than `max_str_len` (`max`) is an error.
#[inline(always)]
fn check_key_len(s: &[u8], off: u64, max: usize, i: usize) -> Result<()> {
    if s.len() > max {
        return Err(limit("max_str_len", s.len(), max).at(off).in_entry_key(i));
    }
    Ok(())
}

#[cold]
pub(crate) fn limit(limit: &'static str, len: usize, max: usize) -> Error {
    Error::new(ErrorKind::LengthLimitExceeded {
        limit,
        len: len as u64,
        max: max as u64,
    })
}

/// Skips one item using only the other methods of a format driver.
/// Formats with a faster way override [`DecodeFormat::skip`].
pub fn skip_generic<'de, F: DecodeFormat, R: Read<'de>>(
    f: &mut F,
    r: &mut R,
    scratch: &mut Vec<u8>,
    depth: u32,
) -> Result<()> {
    let nested = |depth: u32| {
        depth
            .checked_sub(1)
            .ok_or_else(|| Error::new(ErrorKind::DepthLimitExceeded { max: 0 }))
    };
    match f.peek_kind(r)? {
        Kind::Nil => {
            f.try_nil(r)?;
        }
        Kind::Bool => {
            f.read_bool(r)?;
        }
        Kind::Int => {
            f.read_i64(r)?;
        }
        Kind::Uint => {
            f.read_u64(r)?;
        }
        Kind::BigInt => {
            f.read_i128(r)
                .map(|_| ())
                .or_else(|_| f.read_u128(r).map(|_| ()))?;
        }
        Kind::Float32 | Kind::Float64 => {
            f.read_f64(r)?;
        }
        Kind::Str => {
            f.read_str(r, scratch)?;
        }
        Kind::Bytes => {
            f.read_bytes(r, scratch)?;
        }
        Kind::Time => {
            f.read_time(r, scratch)?;
        }
        Kind::Ext => {
            f.read_ext(r, scratch)?;
        }
        Kind::Simple => {
            f.read_simple(r)?;
        }
        Kind::Tag => {
            // Checked before the tag is read: a depth error points at it.
            let inner = nested(depth)?;
            f.read_tag(r)?;
            skip_generic(f, r, scratch, inner)?;
        }
        Kind::Array => {
            let inner = nested(depth)?;
            let mut seq = f.array_begin(r)?;
            while f.array_next(r, &mut seq)? {
                skip_generic(f, r, scratch, inner)?;
            }
        }
        Kind::Map => {
            let inner = nested(depth)?;
            let mut seq = f.map_begin(r)?;
            while f.map_next(r, &mut seq)? {
                skip_generic(f, r, scratch, inner)?;
                f.map_value(r, &mut seq)?;
                skip_generic(f, r, scratch, inner)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Stack;
    use std::rc::Rc;

    #[test]
    fn a_stack_drops_what_it_holds() {
        let item = Rc::new(());
        let mut s = Stack::default();
        s.extend((0..5).map(|_| Rc::clone(&item)));
        assert_eq!(Rc::strong_count(&item), 6);
        drop(s);
        assert_eq!(Rc::strong_count(&item), 1);
        // Emptied but allocated, and never used.
        let mut s: Stack<Rc<()>> = Stack::default();
        s.push(Rc::clone(&item));
        s.clear();
        drop(s);
        drop(Stack::<Rc<()>>::default());
        assert_eq!(Rc::strong_count(&item), 1);
    }
}

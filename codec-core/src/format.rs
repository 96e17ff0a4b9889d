//! The format-driver traits: the byte layer each format crate implements.
//!
//! A format driver knows how to write and read the items of one format
//! (integers, strings, container headers, ...) and nothing of Rust types.
//! The shared driver ([`Encoder`](crate::Encoder), [`Decoder`](crate::Decoder))
//! and the derived code talk to it; both are generic over it, so the static
//! path has no virtual calls.

use crate::error::{Error, Result};
use crate::read::{Read, Reference};
use crate::time::Time;
use crate::write::Write;
use std::fmt;

/// A scalar from [`DecodeFormat::read_scalar`].
#[derive(Debug)]
pub enum Scalar<'a> {
    /// A text string, borrowed from the input or the decoder's scratch buffer.
    Str(&'a str),
    /// Any other scalar (or a text string the driver built a `Value` for).
    Other(crate::Value),
}

/// What kind of item comes next in the input, as the format reads it.
///
/// This is also what a dynamic [`Value`](crate::Value) becomes: `Int` and
/// `Uint` follow the format's (and ugorji's) choice of signed or unsigned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// nil / null.
    Nil,
    /// true or false.
    Bool,
    /// An integer the format reads as signed (`i64`).
    Int,
    /// An integer the format reads as unsigned (`u64`).
    Uint,
    /// An integer outside the 64-bit ranges (CBOR -2^64..-2^63-1, or bignum tags 2/3 that fit in 128 bits).
    BigInt,
    /// A 32-bit (or 16-bit) float.
    Float32,
    /// A 64-bit float.
    Float64,
    /// A text string.
    Str,
    /// A byte string.
    Bytes,
    /// An array.
    Array,
    /// A map.
    Map,
    /// An extension: a tag number and opaque bytes (msgpack ext, binc/simple custom).
    Ext,
    /// A timestamp in the format's own form.
    Time,
    /// A tag number that applies to the next item (CBOR tags).
    Tag,
    /// A simple value that is not a bool or nil (CBOR simple(n), undefined = 23).
    Simple,
}

impl Kind {
    /// A short human name, e.g. `"text string"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Nil => "nil",
            Kind::Bool => "bool",
            Kind::Int => "integer",
            Kind::Uint => "unsigned integer",
            Kind::BigInt => "big integer",
            Kind::Float32 => "float32",
            Kind::Float64 => "float64",
            Kind::Str => "text string",
            Kind::Bytes => "byte string",
            Kind::Array => "array",
            Kind::Map => "map",
            Kind::Ext => "extension",
            Kind::Time => "timestamp",
            Kind::Tag => "tag",
            Kind::Simple => "simple value",
        }
    }

    /// A type-mismatch error: the target wanted `expected` but the input holds
    /// this kind. The message names the kind only (`found text string`); a
    /// driver that knows the value passes a [`Found`](crate::Found) to
    /// [`Error::type_mismatch`] instead, or uses [`Kind::mismatch_unread`].
    #[cold]
    pub fn mismatch(self, expected: &'static str) -> Error {
        Error::type_mismatch(expected, self)
    }

    /// A type-mismatch error for an item of this kind that the driver has
    /// looked at without consuming any of it (nor changing its own state):
    /// the shared [`Decoder`](crate::Decoder) then reads the item, since
    /// decoding has failed anyway, to quote its value in the message
    /// (`found text string "forty"`, `found integer 42`), with the offset
    /// left at the item's start. If reading it fails the message names the
    /// kind only, as [`Kind::mismatch`] does. A driver that has consumed part
    /// of the item must use [`Kind::mismatch`] or describe the item itself.
    #[cold]
    pub fn mismatch_unread(self, expected: &'static str) -> Error {
        Error::type_mismatch(expected, self).unread()
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a format carries an extension whose content is itself a value
/// ([`InterfaceExt`](crate::InterfaceExt), `#[codec(ext = N)]`), each the
/// format's native way, as ugorji writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExtStyle {
    /// An extension item (tag + opaque bytes) whose bytes are the value
    /// encoded on its own in the same format: msgpack ext, binc and simple
    /// custom extensions.
    Ext,
    /// A tag number followed by the value itself: CBOR tags.
    Tagged,
    /// The value alone, without its tag: JSON (ugorji writes the converted value).
    Transparent,
}

/// What [`DecodeFormat::map_next_key`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyStep<K> {
    /// The map has ended (any end marker consumed).
    End,
    /// An entry has begun and its key is read: the value is next.
    Key(K),
    /// An entry has begun (as [`DecodeFormat::map_next`] leaves it): its key is next.
    Next,
}

/// Progress through one array or map while decoding.
///
/// `len` is the declared length, or `None` for delimited containers (JSON,
/// CBOR indefinite length). `index` counts the items (or map entries) begun.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seq {
    /// Declared number of items or entries, if the format declares it.
    pub len: Option<usize>,
    /// Items (or entries) begun so far.
    pub index: usize,
}

impl Seq {
    /// A container of `len` items.
    #[inline]
    pub fn definite(len: usize) -> Self {
        Seq {
            len: Some(len),
            index: 0,
        }
    }

    /// A container whose end is marked in the data.
    #[inline]
    pub fn delimited() -> Self {
        Seq {
            len: None,
            index: 0,
        }
    }

    /// Whether every item has been begun: a definite container's count is
    /// reached, or a delimited one's end marker was read (the driver then
    /// records its length).
    #[inline]
    pub fn ended(&self) -> bool {
        self.len.is_some_and(|n| self.index >= n)
    }

    /// For a definite container: begins the next item if any remain.
    #[inline]
    pub fn next_definite(&mut self, len: usize) -> bool {
        if self.index < len {
            self.index += 1;
            true
        } else {
            false
        }
    }
}

/// The encoding half of a format driver.
///
/// Every method writes one item (or one piece of a container) to `w`.
/// The separator hooks (`write_array_elem`, `write_map_key`, `write_map_value`)
/// are no-ops for binary formats and carry punctuation for JSON.
pub trait EncodeFormat: Sized {
    /// The format's name: `"msgpack"`, `"cbor"`, `"binc"`, `"simple"` or `"json"`.
    const NAME: &'static str;

    /// How this format writes an extension whose content is a value. Defaults to
    /// [`ExtStyle::Ext`].
    const EXT_STYLE: ExtStyle = ExtStyle::Ext;

    /// Writes nil / null.
    fn write_nil<W: Write>(&mut self, w: &mut W) -> Result<()>;
    /// Writes a bool.
    fn write_bool<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()>;
    /// Writes a signed integer (from any signed Rust type).
    fn write_i64<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()>;
    /// Writes an unsigned integer (from any unsigned Rust type).
    fn write_u64<W: Write>(&mut self, w: &mut W, v: u64) -> Result<()>;
    /// Writes an `i128`. The default writes it as `i64`/`u64` when it fits and fails otherwise.
    fn write_i128<W: Write>(&mut self, w: &mut W, v: i128) -> Result<()> {
        if let Ok(v) = i64::try_from(v) {
            self.write_i64(w, v)
        } else if let Ok(v) = u64::try_from(v) {
            self.write_u64(w, v)
        } else {
            Err(Error::unsupported(format!(
                "{} cannot hold the 128-bit integer {v}",
                Self::NAME
            )))
        }
    }
    /// Writes a `u128`. The default writes it as `u64` when it fits and fails otherwise.
    fn write_u128<W: Write>(&mut self, w: &mut W, v: u128) -> Result<()> {
        match u64::try_from(v) {
            Ok(v) => self.write_u64(w, v),
            Err(_) => Err(Error::unsupported(format!(
                "{} cannot hold the 128-bit integer {v}",
                Self::NAME
            ))),
        }
    }
    /// Writes a 32-bit float.
    fn write_f32<W: Write>(&mut self, w: &mut W, v: f32) -> Result<()>;
    /// Writes a 64-bit float.
    fn write_f64<W: Write>(&mut self, w: &mut W, v: f64) -> Result<()>;
    /// Writes a text string.
    fn write_str<W: Write>(&mut self, w: &mut W, v: &str) -> Result<()>;
    /// Writes a byte string.
    fn write_bytes<W: Write>(&mut self, w: &mut W, v: &[u8]) -> Result<()>;

    /// Writes the integer tag of an enum variant (`#[codec(index)]`), bare
    /// for a unit variant or as the key of the variant's one-entry map.
    /// Defaults to [`EncodeFormat::write_i64`]. A format that writes some
    /// integer values in another form overrides it to write the plain
    /// integer: the tag names the variant, it is not a zero value (Simple's
    /// `enc_zero_values_as_nil` would otherwise write tag 0 as nil, which
    /// names no variant).
    #[inline]
    fn write_variant_index<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        self.write_i64(w, v)
    }

    /// Writes a struct field name or other string map key known at compile
    /// time. Defaults to [`EncodeFormat::write_str`] (binc may intern it as a symbol).
    #[inline]
    fn write_field_name<W: Write>(&mut self, w: &mut W, name: &'static str) -> Result<()> {
        self.write_str(w, name)
    }

    /// Writes everything before the value of struct field entry `index`
    /// named `name`: the same bytes as [`write_map_key`](Self::write_map_key),
    /// [`write_field_name`](Self::write_field_name) and
    /// [`write_map_value`](Self::write_map_value) in turn (the default), in
    /// one call so a format can write them at once (JSON: `,"name":`).
    #[inline]
    fn write_field<W: Write>(&mut self, w: &mut W, index: usize, name: FieldName) -> Result<()> {
        self.write_map_key(w, index)?;
        self.write_field_name(w, name.as_str())?;
        self.write_map_value(w)
    }

    /// Starts an array of `len` items.
    fn write_array_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()>;
    /// Called before item `index` of an array.
    #[inline]
    fn write_array_elem<W: Write>(&mut self, w: &mut W, index: usize) -> Result<()> {
        let _ = (w, index);
        Ok(())
    }
    /// Ends an array of `len` items.
    #[inline]
    fn write_array_end<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        let _ = (w, len);
        Ok(())
    }
    /// Writes an array of `f64`s (a `Vec<f64>`, `[f64; N]` or `&[f64]`):
    /// the same bytes as [`write_array_start`](Self::write_array_start),
    /// [`write_array_elem`](Self::write_array_elem) and
    /// [`write_f64`](Self::write_f64) per item, and
    /// [`write_array_end`](Self::write_array_end), which the default calls;
    /// a format can write them in one loop (JSON: no per-item state checks).
    #[inline]
    fn write_f64_array<W: Write>(&mut self, w: &mut W, items: &[f64]) -> Result<()> {
        write_array_each(self, w, items, Self::write_f64)
    }

    /// Writes an array of `f32`s, as [`write_f64_array`](Self::write_f64_array)
    /// does `f64`s.
    #[inline]
    fn write_f32_array<W: Write>(&mut self, w: &mut W, items: &[f32]) -> Result<()> {
        write_array_each(self, w, items, Self::write_f32)
    }

    /// Writes an array of signed integers (a `Vec<i32>`, `[i64; N]` or
    /// `&[i16]`): the same bytes as
    /// [`write_array_start`](Self::write_array_start),
    /// [`write_array_elem`](Self::write_array_elem) and
    /// [`write_i64`](Self::write_i64) per item, and
    /// [`write_array_end`](Self::write_array_end), which the default calls;
    /// a format can write them in one loop (JSON: the per-item state checks
    /// made once, the texts laid out in blocks).
    #[inline]
    fn write_i64_array<W: Write, T: SignedInt>(&mut self, w: &mut W, items: &[T]) -> Result<()> {
        write_array_each(self, w, items, |f, w, v: T| f.write_i64(w, v.to_i64()))
    }

    /// Writes an array of unsigned integers other than `u8` (whose slices
    /// are byte strings), as [`write_i64_array`](Self::write_i64_array)
    /// does signed ones, through [`write_u64`](Self::write_u64).
    #[inline]
    fn write_u64_array<W: Write, T: UnsignedInt>(&mut self, w: &mut W, items: &[T]) -> Result<()> {
        write_array_each(self, w, items, |f, w, v: T| f.write_u64(w, v.to_u64()))
    }

    /// Writes an array of rows of `f64`s (a `Vec<[f64; N]>`): the same
    /// bytes as [`write_array_start`](Self::write_array_start),
    /// [`write_array_elem`](Self::write_array_elem) and
    /// [`write_f64_array`](Self::write_f64_array) per row, and
    /// [`write_array_end`](Self::write_array_end), which the default calls;
    /// a format can write them in one loop (JSON: a float's text is copied
    /// out only once the next one is formatted, across rows).
    #[inline]
    fn write_f64_rows<W: Write, const N: usize>(
        &mut self,
        w: &mut W,
        rows: &[[f64; N]],
    ) -> Result<()> {
        write_rows_each(self, w, rows, Self::write_f64_array)
    }

    /// Writes an array of rows of `f32`s, as
    /// [`write_f64_rows`](Self::write_f64_rows) does `f64`s.
    #[inline]
    fn write_f32_rows<W: Write, const N: usize>(
        &mut self,
        w: &mut W,
        rows: &[[f32; N]],
    ) -> Result<()> {
        write_rows_each(self, w, rows, Self::write_f32_array)
    }

    /// Starts a map of `len` entries.
    fn write_map_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()>;
    /// Called before the key of entry `index`.
    #[inline]
    fn write_map_key<W: Write>(&mut self, w: &mut W, index: usize) -> Result<()> {
        let _ = (w, index);
        Ok(())
    }
    /// Called between a key and its value.
    #[inline]
    fn write_map_value<W: Write>(&mut self, w: &mut W) -> Result<()> {
        let _ = w;
        Ok(())
    }
    /// Ends a map of `len` entries.
    #[inline]
    fn write_map_end<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        let _ = (w, len);
        Ok(())
    }

    /// Writes a timestamp in the format's own form.
    fn write_time<W: Write>(&mut self, w: &mut W, t: &Time) -> Result<()>;

    /// Writes an extension: a tag number and opaque bytes.
    fn write_ext<W: Write>(&mut self, w: &mut W, tag: u64, data: &[u8]) -> Result<()>;

    /// Writes a tag that applies to the next item (CBOR). Other formats fail.
    fn write_tag<W: Write>(&mut self, w: &mut W, tag: u64) -> Result<()> {
        let _ = w;
        Err(Error::unsupported(format!(
            "{} has no tags (tag {tag})",
            Self::NAME
        )))
    }

    /// Writes a simple value (CBOR simple(n)). Other formats fail.
    fn write_simple<W: Write>(&mut self, w: &mut W, v: u8) -> Result<()> {
        let _ = w;
        Err(Error::unsupported(format!(
            "{} has no simple values (simple({v}))",
            Self::NAME
        )))
    }

    /// Writes bytes that already hold one encoded item of this format.
    #[inline]
    fn write_raw<W: Write>(&mut self, w: &mut W, encoded: &[u8]) -> Result<()> {
        w.write_all(encoded)
    }

    /// A fresh driver with the same options and no per-stream state, used to
    /// encode map keys on the side for canonical ordering.
    fn side(&self) -> Self;

    /// A fresh driver, as [`EncodeFormat::side`], standing where a map key
    /// goes: a key sorted by its encoded bytes is encoded with it (JSON
    /// quotes a number there, as it writes it in a key). Defaults to `side`.
    #[inline]
    fn side_key(&self) -> Self {
        self.side()
    }

    /// Whether a key encoded with [`EncodeFormat::side_key`] may be written
    /// with [`EncodeFormat::write_raw`] in place of being encoded again, as
    /// ugorji writes its side-encoded keys. Encoding each key once keeps
    /// canonical order linear: encoded twice, a key that is a map of maps
    /// cost twice its inner keys at every level (2^depth). False where a
    /// key's bytes depend on the stream (binc symbols) or on where it is
    /// written (JSON keys, which are scalars there). Defaults to true.
    #[inline]
    fn reuse_side_keys(&self) -> bool {
        true
    }

    /// A fresh driver for [`Encoder::reset`](crate::Encoder::reset): no
    /// per-stream state, every setting kept. Defaults to `side`.
    #[inline]
    fn fresh(&self) -> Self {
        self.side()
    }

    /// True when map entries (and set items) must always be sorted by the
    /// bytes of their encoded keys, whatever the `canonical` option says and
    /// whatever order the key type has (CBOR's RFC 8949 core deterministic
    /// encoding). Defaults to false.
    #[inline]
    fn sort_keys_by_encoding(&self) -> bool {
        false
    }
}

/// The decoding half of a format driver.
///
/// The methods read one item (or one piece of a container) from `r`. Each
/// `read_*` accepts what the format (and ugorji) accepts for that target:
/// for example `read_i64` may accept an integral float. Errors carry the
/// byte offset where they were found.
pub trait DecodeFormat: Sized {
    /// The format's name.
    const NAME: &'static str;

    /// How this format reads an extension whose content is a value; must
    /// match the encoding half. Defaults to [`ExtStyle::Ext`].
    const EXT_STYLE: ExtStyle = ExtStyle::Ext;

    /// Whether nil reads as the zero value of a scalar target (a number,
    /// a bool, a string, an integer enum tag), as in Binc and Simple, whose
    /// ugorji encoders may write zero values as nil; else (the default)
    /// nil into a scalar is a type mismatch.
    const NIL_IS_ZERO: bool = false;

    /// Whether the format is text read in lines (JSON): its errors then get
    /// their line and column ([`Error::line_column`](crate::Error::line_column)).
    const TEXT: bool = false;

    /// A fresh driver with the same options and no per-stream state (no binc
    /// symbols), used to decode the content of an [`ExtStyle::Ext`] extension
    /// on its own. `None` (the default) when the format cannot; decoding such
    /// an extension then fails.
    #[inline]
    fn side(&self) -> Option<Self> {
        None
    }

    /// What the next item is. Does not consume it (it may consume a
    /// prefix that the next `read_*` does not need again, such as CBOR tag 55799).
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind>;

    /// Whether integers read into a dynamic value ([`Value`](crate::Value),
    /// [`Document`](crate::Document)) become floats, as with
    /// [`DecodeOptions::prefer_float`](crate::DecodeOptions::prefer_float):
    /// a format's own setting of it (JSON's `prefer_float`). It changes no
    /// kind [`peek_kind`](DecodeFormat::peek_kind) reports, so that typed
    /// targets (an enum read by its index) see integers as integers.
    /// Defaults to false.
    #[inline]
    fn prefer_float(&self) -> bool {
        false
    }

    /// Tells the driver the `max_str_len` option ([`Decoder::new`](crate::Decoder::new)
    /// calls it, and [`Decoder::reset`](crate::Decoder::reset) again on the
    /// driver it keeps). A driver that knows a string's length before
    /// reading its bytes (a declared length, or a JSON string growing in
    /// scratch) refuses one over `max` there with [`Error::str_too_long`] at
    /// the item's first byte, so that no reader copies more than the limit;
    /// the decoder checks every string's length again after it is read. The
    /// default ignores it.
    #[inline]
    fn limit_str_len(&mut self, max: usize) {
        let _ = max;
    }

    /// What a derived struct or enum decode branches on first: the same
    /// answer as [`peek_kind`](DecodeFormat::peek_kind). The default asks
    /// `peek_kind`; a format that tells the common kinds by their first
    /// byte (maps and arrays for a struct, short strings and small integers
    /// for an enum) overrides this to answer those inline, with no call
    /// into `peek_kind`'s general dispatch. Measured on `mk48` (structs of
    /// 2 to 8 fields, enums by name) in MessagePack: 7.5 % fewer instructions.
    #[inline]
    fn peek_head_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        self.peek_kind(r)
    }

    /// Reads the next item straight into a dynamic [`Value`](crate::Value)
    /// when it is a scalar the format can read in one step (a format whose
    /// [`peek_kind`](DecodeFormat::peek_kind) has to read ahead overrides
    /// this; JSON reads a number to learn its kind), and returns what `put`
    /// makes of it. The value must be what `peek_kind` and the matching
    /// `read_*` would give under `opts`, and a text string longer than
    /// `opts.max_str_len` an error (`LengthLimitExceeded`, at the string's
    /// first byte) here, as the driver gives for `read_str`: the driver
    /// does not look inside the value. `Ok(None)` (the default): nothing
    /// consumed, `put` not called, the generic path follows. The helpers
    /// of [`scalar`](crate::scalar) build each kind's `Value` under the
    /// options as the generic path does, and say where it would fail.
    ///
    /// `put` places the value: the dynamic `Value`'s array and map loops
    /// push it straight onto their stack. Call it in each branch that builds
    /// a value (it is inlined there), so that each builds its `Value` where
    /// it will stay instead of all returning one through memory to be moved
    /// again.
    #[inline]
    fn read_scalar_value<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        opts: &crate::DecodeOptions,
        put: impl FnOnce(crate::Value) -> T,
    ) -> Result<Option<T>> {
        let _ = (r, scratch, opts, put);
        Ok(None)
    }

    /// [`DecodeFormat::read_scalar_value`] for a caller that keeps text
    /// its own way (a [`Document`](crate::Document) copies it into its
    /// buffer): a driver that overrides this hands a text string to `put`
    /// as [`Scalar::Str`], borrowed, instead of building a `Value` for it,
    /// and everything else as `read_scalar_value` would. The default calls
    /// `read_scalar_value`.
    #[inline]
    fn read_scalar<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        opts: &crate::DecodeOptions,
        put: impl FnOnce(Scalar<'_>) -> T,
    ) -> Result<Option<T>> {
        self.read_scalar_value(
            r,
            scratch,
            opts,
            #[inline(always)]
            |v| put(Scalar::Other(v)),
        )
    }

    /// Reads the next item whole into a [`Document`](crate::Document) in
    /// one step, when the format has a reader for that (JSON reads one
    /// straight from the reader's buffer), and returns true having consumed
    /// the item and appended exactly it to `doc`: what `Document`'s generic
    /// path (item by item through `peek_kind`, [`read_scalar`](Self::read_scalar)
    /// and the `read_*` methods) would build under `opts`. `doc` refuses
    /// nesting past `opts.max_depth`.
    ///
    /// False (the default): nothing consumed, and the generic path reads
    /// the item; what was appended to `doc` is dropped. A reader that meets
    /// anything it does not take (bad input, the buffer ending, a limit,
    /// a rare kind) answers false, and the generic path reads the item
    /// again and reports any error: errors stay exactly as they were.
    #[inline]
    fn read_document<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        opts: &crate::DecodeOptions,
        doc: &mut crate::DocumentBuilder<'_>,
    ) -> Result<bool> {
        let _ = (r, opts, doc);
        Ok(false)
    }

    /// Reads an array of exactly `out.len()` floats into `out` in one step
    /// when the input holds one in the format's plain layout, and returns
    /// `true`. Otherwise (another layout or length, a number it does not
    /// take in one step, the array not all in the reader's buffer, bad
    /// input) it returns `false` having consumed nothing but whitespace,
    /// and the shared driver reads the array item by item, which gives the
    /// value or the error (and overwrites `out`, which may hold anything
    /// then). What it stores must be what that path would give, and it must
    /// leave the driver's state as that path would. The default takes nothing.
    #[inline]
    fn read_f64_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f64]) -> Result<bool> {
        let _ = (r, out);
        Ok(false)
    }

    /// As [`read_f64_array`](Self::read_f64_array), for `f32`s.
    #[inline]
    fn read_f32_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f32]) -> Result<bool> {
        let _ = (r, out);
        Ok(false)
    }

    /// Consumes a nil and returns true if the next item is nil; else consumes nothing.
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool>;

    /// Reads a bool.
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool>;
    /// Reads an integer as `i64` (out of range is an error).
    fn read_i64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64>;
    /// Reads an integer as `u64` (negative or out of range is an error).
    fn read_u64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64>;
    /// Reads an integer as `i128`. The default reads 64-bit integers.
    fn read_i128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i128> {
        match self.peek_kind(r)? {
            Kind::Uint => Ok(self.read_u64(r)? as i128),
            _ => Ok(self.read_i64(r)? as i128),
        }
    }
    /// Reads an integer as `u128`. The default reads 64-bit integers.
    fn read_u128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u128> {
        Ok(self.read_u64(r)? as u128)
    }
    /// Reads a float (or an integer, converted) as `f64`.
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64>;
    /// Reads a float as `f32`. The default narrows [`DecodeFormat::read_f64`].
    fn read_f32<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        Ok(self.read_f64(r)? as f32)
    }
    /// Reads a text string (formats may also accept a byte string that is valid UTF-8).
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>>;
    /// Reads a text string as bytes, for matching against known names
    /// (struct fields, enum variants) without paying for a UTF-8 check
    /// first: a key equal to a known name is valid UTF-8 because the name
    /// is. Callers must validate the bytes before using them as text
    /// (see [`Decoder::decode_key`](crate::Decoder::decode_key)). The
    /// default reads a checked string; formats override it to skip the check.
    #[inline]
    fn read_str_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        Ok(match self.read_str(r, scratch)? {
            Reference::Borrowed(s) => Reference::Borrowed(s.as_bytes()),
            Reference::Copied(s) => Reference::Copied(s.as_bytes()),
        })
    }
    /// Reads a byte string (formats may also accept a text string).
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>>;

    /// Reads an array header.
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq>;
    /// Begins the next array item; false at the end of the array (consuming any end marker).
    fn array_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool>;
    /// Reads a map header.
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq>;
    /// Begins the next map entry (its key is read next); false at the end of the map.
    fn map_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool>;
    /// Moves from a map key to its value.
    #[inline]
    fn map_value<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<()> {
        let _ = (r, seq);
        Ok(())
    }

    /// [`DecodeFormat::map_next`], then, where the format can, the whole
    /// text key and the step to its value in one go: a driver that finds
    /// the key in its plain layout (no escapes, no chunks), whole in the
    /// reader's buffer and followed by what [`DecodeFormat::map_value`]
    /// expects, hands its raw bytes and its offset to `key` and consumes
    /// it only if `key` succeeds ([`KeyStep::Key`]). Anything else returns
    /// [`KeyStep::Next`] with only `map_next`'s work done, and the key is
    /// read the general way (which gives the value or the error).
    ///
    /// `hint` is the key the caller expects: a driver may first check
    /// whether the key's bytes are exactly the hint's, and on a match pass
    /// `true` as `key`'s third argument (the bytes are the hint's then), so
    /// that the caller can skip matching them; `false` otherwise.
    ///
    /// The default does only `map_next`. Reached through
    /// [`Decoder::map_next_field`](crate::Decoder::map_next_field).
    #[inline]
    fn map_next_key<'de, R: Read<'de>, K>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: Option<&KeyHint>,
        key: impl FnMut(&[u8], u64, bool) -> Result<K>,
    ) -> Result<KeyStep<K>> {
        let _ = (hint, key);
        Ok(if self.map_next(r, seq)? {
            KeyStep::Next
        } else {
            KeyStep::End
        })
    }

    /// Whether the next map entry's key is exactly `hint`'s name, checked
    /// in place: if it is, the driver consumes the key and the step to its
    /// value (as [`DecodeFormat::map_next_key`] does for a key) and returns
    /// true. Anything else (another key, one in another layout, the end
    /// of the map, a key not whole in the reader's buffer) returns false
    /// with nothing consumed, and the entry is read the general way.
    ///
    /// The default returns false. Reached through
    /// [`Decoder::map_next_is`](crate::Decoder::map_next_is).
    #[inline]
    fn map_next_is<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: &KeyHint,
    ) -> Result<bool> {
        let _ = (r, seq, hint);
        Ok(false)
    }

    /// Reads a timestamp in the format's own form.
    fn read_time<'de, R: Read<'de>>(&mut self, r: &mut R, scratch: &mut Vec<u8>) -> Result<Time>;

    /// Reads an extension: its tag and data.
    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)>;

    /// Reads a tag number; the tagged item follows (CBOR).
    fn read_tag<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        Err(self.peek_kind(r)?.mismatch_unread("tag"))
    }

    /// Reads a simple value (CBOR).
    fn read_simple<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u8> {
        Err(self.peek_kind(r)?.mismatch_unread("simple value"))
    }

    /// Skips one whole item. `depth` is how many more levels of nesting are allowed.
    ///
    /// The default walks the item with the other methods; formats may override it.
    fn skip<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        crate::decode::skip_generic(self, r, scratch, depth)
    }

    /// Called once a top-level value is complete, before checking for trailing data
    /// (JSON skips whitespace here).
    #[inline]
    fn end_of_value<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<()> {
        let _ = r;
        Ok(())
    }

    /// How many leading bytes of an item's bytes are separators rather than
    /// part of the item (JSON whitespace, `,` and `:`): for a captured item
    /// ([`Decoder::capture_raw`](crate::Decoder::capture_raw)), and to
    /// locate an item already read ([`Decoder::item_start`](crate::Decoder::item_start)).
    /// Defaults to 0.
    #[inline]
    fn capture_prefix_len(&self, captured: &[u8]) -> usize {
        let _ = captured;
        0
    }

    /// Where the next item starts, the reader standing at `offset`: `offset`
    /// itself, unless the format has read ahead an item it keeps pending
    /// (JSON reads a number whole to tell its kind in `peek_kind`), whose
    /// first byte it gives. Locates a type mismatch found after a peek.
    #[inline]
    fn next_item_offset(&self, offset: u64) -> u64 {
        offset
    }

    /// The bytes, as written, of the item read ahead and kept pending (see
    /// [`DecodeFormat::next_item_offset`]) when the reader no longer holds
    /// them (the item crossed a refill of its buffer); `None` when the
    /// format did not keep them. For capturing such an item
    /// ([`Decoder::capture_raw`](crate::Decoder::capture_raw)). Defaults to `None`.
    #[inline]
    fn pending_bytes(&self) -> Option<&[u8]> {
        None
    }

    /// Called when a new top-level value starts in a stream (resets per-value state).
    #[inline]
    fn reset(&mut self) {}

    /// True when decoding a map into [`Value`](crate::Value) must fail if a key
    /// appears twice (CBOR's `reject_duplicate_keys`). Defaults to false.
    #[inline]
    fn reject_duplicate_keys(&self) -> bool {
        false
    }

    /// True when every map key is a text string that a dynamic
    /// [`Value`](crate::Value) holds as [`Value::Str`](crate::Value::Str),
    /// just as [`DecodeFormat::map_next_key`] hands it over (JSON, unless
    /// quoted keys are parsed as numbers): then the `Value` map loop reads
    /// separator, key and `:` in that one step. Defaults to false.
    #[inline]
    fn value_keys_are_text(&self) -> bool {
        false
    }

    /// Takes an empty array at the reader's position where the format sees
    /// one at a glance (JSON's `[]`), so that a `Vec` field that is empty
    /// costs no call; false, with nothing consumed, for anything else,
    /// which is then read the general way. Defaults to false.
    #[inline]
    fn try_empty_array<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        let _ = r;
        Ok(false)
    }
}

/// Runs `read` on the reader's buffer and consumes the bytes it says it
/// used: true then, false (nothing consumed) when it answers `None`. For
/// a format's readers of a whole item from the buffer, such as
/// [`DecodeFormat::read_document`], which give up to the general path
/// rather than fail.
///
/// ```
/// use codec_core::{Read, SliceReader, take_from_buffer};
///
/// let mut r = SliceReader::new(b"abc");
/// assert!(!take_from_buffer(&mut r, |_| None).unwrap());
/// assert_eq!(r.offset(), 0);
/// assert!(take_from_buffer(&mut r, |b| b.starts_with(b"ab").then_some(2)).unwrap());
/// assert_eq!(r.offset(), 2);
/// ```
#[inline(always)]
pub fn take_from_buffer<'de, R: Read<'de>>(
    r: &mut R,
    read: impl FnOnce(&[u8]) -> Option<usize>,
) -> Result<bool> {
    match read(r.fill_buf()?) {
        Some(used) => {
            r.consume(used);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// The buffer part of [`DecodeFormat::map_next_key`] for a binary format,
/// called after its `map_next`: `header` reads a plain text key's header
/// at the start of the reader's buffer as (header bytes, text bytes), or
/// `None`; when the header and the text are whole in the buffer, the text
/// goes to `key` and, if `key` succeeds, both are consumed
/// ([`KeyStep::Key`]). Otherwise nothing is consumed ([`KeyStep::Next`]).
/// `key`'s third argument is `false`: with the key's length in its
/// header, matching its bytes costs about what comparing them with a
/// [`KeyHint`] would (tried: MessagePack's typed `twitter.json` decode
/// took 3 % more instructions with the compare). Inlined whole, so that
/// `header` and `key` fold into the caller.
#[inline(always)]
pub fn key_in_buffer<'de, R: Read<'de>, K>(
    r: &mut R,
    header: impl FnOnce(&[u8]) -> Option<(usize, usize)>,
    mut key: impl FnMut(&[u8], u64, bool) -> Result<K>,
) -> Result<KeyStep<K>> {
    let off = r.offset();
    let buf = r.fill_buf()?;
    if let Some((head, len)) = header(buf)
        && let Some(name) = buf.get(head..head + len)
    {
        let k = key(name, off, false)?;
        r.consume(head + len);
        return Ok(KeyStep::Key(k));
    }
    Ok(KeyStep::Next)
}

/// [`DecodeFormat::map_next_is`] for a binary format whose text keys are
/// a head then the text: whether the map has an entry left and the
/// reader's buffer starts with `head` (the head of a text of the hint's
/// length, one or two bytes) and the hint's bytes. If so, both are
/// consumed and the entry is counted (what `map_next` and reading the key
/// do); otherwise nothing is.
#[inline(always)]
pub fn hint_in_buffer<'de, R: Read<'de>>(
    r: &mut R,
    seq: &mut Seq,
    head: &[u8],
    hint: &KeyHint,
) -> Result<bool> {
    if seq.ended() {
        return Ok(false);
    }
    let buf = r.fill_buf()?;
    let hit = buf.starts_with(head) && buf.get(head.len()..).is_some_and(|b| hint.is_prefix_of(b));
    if hit {
        r.consume(head.len() + hint.as_bytes().len());
        seq.index += 1;
    }
    Ok(hit)
}

/// The buffer part of [`DecodeFormat::read_f64_array`] (and
/// `read_f32_array`) for a binary format whose short arrays are one head
/// byte, `short_head + len` for a length up to `max_short`, and whose
/// floats are a type byte `tag` then the value's `N` big-endian bytes
/// (msgpack fixarray `0x90 + len` of `cb` items, CBOR `0x80 + len` of `fb`
/// items, Binc `0x64 + len` of `31` items; Simple's two-byte head `e9 len`
/// is `len` after its first byte, with a `short_head` of 0):
/// reads an array of `out.len()` such items from the start of `buf` into
/// `out` and returns the bytes it took, or `None` (another layout, length
/// or item type, or not all in `buf`; `out` may be partly written then).
/// Inlined whole, so that the loop is unrolled for a constant length.
#[inline(always)]
pub fn float_array_in_buffer<T, const N: usize>(
    buf: &[u8],
    out: &mut [T],
    (short_head, max_short): (u8, usize),
    tag: u8,
    from_be: fn([u8; N]) -> T,
) -> Option<usize> {
    let len = 1 + (N + 1) * out.len();
    if out.len() > max_short || *buf.first()? != short_head.wrapping_add(out.len() as u8) {
        return None;
    }
    let items = buf.get(1..len)?;
    for (slot, item) in out.iter_mut().zip(items.chunks_exact(N + 1)) {
        let (&t, bits) = item.split_first()?;
        if t != tag {
            return None;
        }
        *slot = from_be(bits.try_into().ok()?);
    }
    Some(len)
}

/// A signed integer type that an array of is written in one driver call
/// ([`EncodeFormat::write_i64_array`]): `i8` to `i64` and `isize`. Sealed:
/// implemented for those types only, so that methods can be added.
pub trait SignedInt: Copy + crate::sealed::Sealed {
    /// The value, widened.
    fn to_i64(self) -> i64;
}

/// An unsigned integer type that an array of is written in one driver call
/// ([`EncodeFormat::write_u64_array`]): `u16` to `u64` and `usize` (an
/// array of `u8` is a byte string). Sealed, as [`SignedInt`] is.
pub trait UnsignedInt: Copy + crate::sealed::Sealed {
    /// The value, widened.
    fn to_u64(self) -> u64;
}

/// Writes `items` as an array item by item: `write_array_start`, then
/// `write_array_elem` and `write` per item, then `write_array_end`. The
/// default of [`EncodeFormat::write_f64_array`] and `write_f32_array`, for a
/// driver that overrides them to call where its own loop does not apply.
/// Inlined whole, so that `write` is a direct call at each use.
#[inline(always)]
pub fn write_array_each<F: EncodeFormat, W: Write, T: Copy>(
    f: &mut F,
    w: &mut W,
    items: &[T],
    write: fn(&mut F, &mut W, T) -> Result<()>,
) -> Result<()> {
    f.write_array_start(w, items.len())?;
    for (i, &v) in items.iter().enumerate() {
        f.write_array_elem(w, i)?;
        write(f, w, v)?;
    }
    f.write_array_end(w, items.len())
}

/// Writes `rows` as an array of arrays: `write_array_start`, then
/// `write_array_elem` and `write` (a driver's `write_f64_array` or
/// `write_f32_array`) per row, then `write_array_end`. The default of
/// [`EncodeFormat::write_f64_rows`] and `write_f32_rows`, for a driver that
/// overrides them to call where its own loop does not apply.
#[inline(always)]
pub fn write_rows_each<F: EncodeFormat, W: Write, T, const N: usize>(
    f: &mut F,
    w: &mut W,
    rows: &[[T; N]],
    write: fn(&mut F, &mut W, &[T]) -> Result<()>,
) -> Result<()> {
    f.write_array_start(w, rows.len())?;
    for (i, row) in rows.iter().enumerate() {
        f.write_array_elem(w, i)?;
        write(f, w, row)?;
    }
    f.write_array_end(w, rows.len())
}

/// A struct field name known at compile time, with what a text format needs
/// to know about it, worked out once ([`FieldName::new`] is a `const fn`:
/// derived code builds these in constants, so nothing is checked per write).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldName {
    name: &'static str,
    plain: bool,
    /// The first 16 bytes of the name, zero-padded, as a little-endian integer.
    head: u128,
}

impl FieldName {
    /// Wraps `name`, noting whether it is [plain](FieldName::is_plain).
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        let b = name.as_bytes();
        let mut plain = true;
        let mut head = 0u128;
        let mut i = 0;
        while i < b.len() {
            plain &=
                matches!(b[i], 0x20..=0x7e) && !matches!(b[i], b'"' | b'\\' | b'<' | b'>' | b'&');
            if i < 16 {
                head |= (b[i] as u128) << (8 * i);
            }
            i += 1;
        }
        FieldName { name, plain, head }
    }

    /// A name of at most 16 bytes as one little-endian integer (first byte
    /// lowest, zero-padded): an encoder can shift it into place next to
    /// its framing bytes and write the whole key with one store.
    #[inline]
    #[must_use]
    pub const fn as_word(self) -> Option<u128> {
        if self.name.len() <= 16 {
            Some(self.head)
        } else {
            None
        }
    }

    /// The name.
    #[inline]
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        self.name
    }

    /// The name after a binary format's text header of `head_len` bytes
    /// (`head`, first byte lowest), as one little-endian word for
    /// [`Write::write_word`] and the number of its bytes to keep, when
    /// both fit in 16 bytes; `None` otherwise (`head_len` above 4 too).
    ///
    /// ```
    /// use codec_core::FieldName;
    /// const ID: FieldName = FieldName::new("id");
    /// let (word, n) = ID.with_head(0xa2, 1).unwrap(); // msgpack fixstr of 2
    /// assert_eq!(&word[..n], b"\xa2id");
    /// assert_eq!(FieldName::new("sixteen_bytes_xx").with_head(0xb0, 1), None);
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn with_head(self, head: u32, head_len: usize) -> Option<([u8; 16], usize)> {
        let n = head_len + self.name.len();
        if head_len > 4 || n > 16 {
            return None;
        }
        let word = head as u128 | self.head << (8 * head_len);
        Some((word.to_le_bytes(), n))
    }

    /// True when every byte of the name is printable ASCII other than `"`,
    /// `\`, `<`, `>` and `&`: a text format writes it between quotes as is,
    /// whatever its escaping options.
    #[inline]
    #[must_use]
    pub const fn is_plain(self) -> bool {
        self.plain
    }
}

/// A struct field name a decoder expects as the next map key, for
/// [`DecodeFormat::map_next_key`]: derived decoders guess that the key after
/// field `i` is field `i + 1`, as it is in any document written from the
/// same struct. Built once in a static ([`KeyHint::new`] is a `const fn`),
/// so that a format can check the guess against its buffer with a couple
/// of wide compares, in place of finding where the key ends and matching it
/// against every name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyHint {
    name: FieldName,
    /// The last 16 bytes of a name of 17 to 32 bytes (0 otherwise), as a
    /// little-endian integer.
    tail: u128,
    /// Ones over the bytes of `head` that belong to the name.
    mask: u128,
}

impl KeyHint {
    /// The hint for a field named `name`.
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        let b = name.as_bytes();
        let n = b.len();
        let mut tail = 0u128;
        if n > 16 && n <= 32 {
            let mut i = 0;
            while i < 16 {
                tail |= (b[n - 16 + i] as u128) << (8 * i);
                i += 1;
            }
        }
        let mask = if n >= 16 {
            u128::MAX
        } else {
            (1u128 << (8 * n)) - 1
        };
        KeyHint {
            name: FieldName::new(name),
            tail,
            mask,
        }
    }

    /// The name, with what a text format needs to know about it.
    #[inline]
    #[must_use]
    pub const fn name(&self) -> FieldName {
        self.name
    }

    /// The name's bytes.
    #[inline]
    #[must_use]
    pub const fn as_bytes(&self) -> &'static [u8] {
        self.name.name.as_bytes()
    }

    /// True when `b` begins with the name: one 16-byte compare for a name
    /// of up to 16 bytes, two for up to 32, when `b` has 16 bytes to load.
    #[inline(always)]
    #[must_use]
    pub fn is_prefix_of(&self, b: &[u8]) -> bool {
        let text = self.as_bytes();
        let n = text.len();
        if n <= 32
            && let Some(head) = word16(b)
        {
            if n <= 16 {
                return (head ^ self.name.head) & self.mask == 0;
            }
            return head == self.name.head && b.get(n - 16..).and_then(word16) == Some(self.tail);
        }
        b.starts_with(text)
    }
}

/// The first 16 bytes of `b` as a little-endian integer, if it has them.
#[inline(always)]
fn word16(b: &[u8]) -> Option<u128> {
    Some(u128::from_le_bytes(*b.first_chunk::<16>()?))
}

#[cfg(test)]
mod field_name_tests {
    use super::{FieldName, KeyHint};

    #[test]
    fn key_hints_match_exactly_their_name() {
        // Names of every length class: empty, up to 16, 17..=32, longer.
        let names = [
            "",
            "a",
            "id",
            "screen_name",
            "sixteen_bytes_xx",
            "seventeen_bytes_x",
            "profile_link_color_with_32_bytes",
            "profile_background_image_url_https",
        ];
        for name in names {
            let hint = KeyHint::new(name);
            assert_eq!(hint.as_bytes(), name.as_bytes());
            // Followed by a short or a long rest, and at the end.
            for rest in ["", "\"", "\":1,\"next_field_name\":2}"] {
                let b = format!("{name}{rest}");
                assert!(hint.is_prefix_of(b.as_bytes()), "{name:?} in {b:?}");
            }
            // Any one byte changed, or the text cut short, is no match.
            for i in 0..name.len() {
                let mut b = format!("{name}\":1,\"padding_padding\":2}}").into_bytes();
                b[i] ^= 0x20;
                assert!(!hint.is_prefix_of(&b), "{name:?} changed at {i}");
                assert!(
                    !hint.is_prefix_of(&name.as_bytes()[..i]),
                    "{name:?} cut at {i}"
                );
            }
        }
    }

    #[test]
    fn plain_names() {
        const ID: FieldName = FieldName::new("screen_name");
        assert!(ID.is_plain());
        assert_eq!(ID.as_str(), "screen_name");
        assert!(FieldName::new("").is_plain());
        assert!(FieldName::new("a-b c~").is_plain());
        for odd in ["a\"b", "a\\b", "<a>", "a&b", "tab\t", "é", "\u{7f}"] {
            assert!(!FieldName::new(odd).is_plain(), "{odd:?}");
        }
    }

    #[test]
    fn names_as_words() {
        const ID: FieldName = FieldName::new("screen_name");
        let mut want = [0u8; 16];
        want[..11].copy_from_slice(b"screen_name");
        assert_eq!(ID.as_word(), Some(u128::from_le_bytes(want)));
        assert_eq!(FieldName::new("").as_word(), Some(0));
        let sixteen = FieldName::new("abcdefghijklmnop");
        assert_eq!(
            sixteen.as_word(),
            Some(u128::from_le_bytes(*b"abcdefghijklmnop"))
        );
        assert_eq!(FieldName::new("abcdefghijklmnopq").as_word(), None);
    }
}

#[cfg(test)]
mod tests {
    use super::float_array_in_buffer;

    const SHORT: (u8, usize) = (0x90, 15);

    #[test]
    fn float_array_in_buffer_takes_only_the_plain_layout() {
        let pair = [
            0x92, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let mut out = [9.0f64; 2];
        let taken = float_array_in_buffer(&pair, &mut out, SHORT, 0xcb, f64::from_be_bytes);
        assert_eq!((taken, out), (Some(19), [1.5, 0.0]));
        // Bytes after the array are left alone.
        let mut longer = pair.to_vec();
        longer.push(0xc0);
        assert_eq!(
            float_array_in_buffer(&longer, &mut out, SHORT, 0xcb, f64::from_be_bytes),
            Some(19)
        );
        // Truncated anywhere, another length, another item type: nothing taken.
        for n in 0..pair.len() {
            let got = float_array_in_buffer(&pair[..n], &mut out, SHORT, 0xcb, f64::from_be_bytes);
            assert_eq!(got, None, "{n} bytes");
        }
        let mut three = [0.0f64; 3];
        assert_eq!(
            float_array_in_buffer(&pair, &mut three, SHORT, 0xcb, f64::from_be_bytes),
            None
        );
        let mut other = pair;
        other[10] = 0xca;
        assert_eq!(
            float_array_in_buffer(&other, &mut out, SHORT, 0xcb, f64::from_be_bytes),
            None
        );
        // The head is `short_head + len` (Binc's `0x64 + len`), which is
        // not `short_head | len` for every length.
        let mut four = [0.0f32; 4];
        let mut binc = vec![0x68u8];
        binc.extend([0x31, 0x3f, 0xc0, 0, 0].repeat(4));
        let taken = float_array_in_buffer(&binc, &mut four, (0x64, 11), 0x31, f32::from_be_bytes);
        assert_eq!((taken, four), (Some(21), [1.5; 4]));
        binc[0] = 0x64 | 4;
        let taken = float_array_in_buffer(&binc, &mut four, (0x64, 11), 0x31, f32::from_be_bytes);
        assert_eq!(taken, None);
        // Longer than the short head holds: never taken.
        let mut sixteen = [0.0f32; 16];
        let mut big = vec![0x90 | 16u8];
        big.extend([0xca, 0, 0, 0, 0].repeat(16));
        assert_eq!(
            float_array_in_buffer(&big, &mut sixteen, SHORT, 0xca, f32::from_be_bytes),
            None
        );
    }
}

//! The encoding half of the shared driver: [`Encode`] and [`Encoder`].

use crate::error::Result;
use crate::format::{EncodeFormat, FieldName};
use crate::options::EncodeOptions;
use crate::time::Time;
use crate::write::Write;
use std::cmp::Ordering;

/// A type that can be written by every handle.
///
/// Derive it with `#[derive(Codec)]`; implement it by hand by calling the
/// methods of [`Encoder`].
///
/// ```
/// use codec_core::{Encode, Encoder, EncodeFormat, Result, Write};
///
/// struct Celsius(f64);
///
/// impl Encode for Celsius {
///     fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
///         e.encode_f64(self.0)
///     }
/// }
/// ```
pub trait Encode {
    /// Writes `self` through `e`.
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()>;

    /// Whether `#[codec(omitempty)]` drops this value: `None`, `0`, `false`,
    /// `""` and empty collections are empty; `Some(empty)` is not.
    #[inline]
    fn is_empty_value(&self) -> bool {
        false
    }

    /// Writes a slice of `Self`. The default writes an array; `u8` writes a
    /// byte string, so `Vec<u8>`, `[u8; N]` and `&[u8]` become byte strings
    /// (as Go's `[]byte` does) without specialization.
    #[doc(hidden)]
    #[inline]
    fn encode_slice<W: Write, F: EncodeFormat>(items: &[Self], e: &mut Encoder<W, F>) -> Result<()>
    where
        Self: Sized,
    {
        e.encode_array_items(items)
    }

    /// Writes a slice of rows `[Self; N]` (points, vectors, small matrices:
    /// what `Vec<[Self; N]>` encodes as). The default writes an array of
    /// arrays, each row through [`Encode::encode_slice`]; `f64` and `f32`
    /// hand the rows to the format driver in one call.
    #[doc(hidden)]
    #[inline]
    fn encode_rows<W: Write, F: EncodeFormat, const N: usize>(
        rows: &[[Self; N]],
        e: &mut Encoder<W, F>,
    ) -> Result<()>
    where
        Self: Sized,
    {
        e.encode_array_items(rows)
    }

    /// How this value orders as a map key under `canonical`.
    #[doc(hidden)]
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Encoded
    }

    /// True when `Ord` (as used by `BTreeMap`) already equals the canonical order.
    #[doc(hidden)]
    const CANONICAL_ORD: bool = false;
}

/// The sort key of a map key under canonical ordering (ugorji's rules).
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum CanonicalKey<'a> {
    /// false < true
    Bool(bool),
    /// Integers, numerically.
    Int(i128),
    /// Unsigned integers too large for `Int` may take (`u128`), numerically
    /// (and against `Int`).
    Uint(u128),
    /// Times, chronologically (as ugorji orders `time.Time` keys); the same
    /// instant at different offsets by offset, so that the order is total.
    Time(crate::Time),
    /// Floats, numerically (total order).
    Float(f64),
    /// Strings and byte strings, bytewise.
    Bytes(&'a [u8]),
    /// Anything else: ordered by its encoded bytes.
    Encoded,
}

impl CanonicalKey<'_> {
    /// Compares two keys of the same type; `None` when encoded bytes must decide.
    fn compare(&self, other: &CanonicalKey<'_>) -> Option<Ordering> {
        use CanonicalKey::*;
        match (self, other) {
            (Bool(a), Bool(b)) => Some(a.cmp(b)),
            (Int(a), Int(b)) => Some(a.cmp(b)),
            (Uint(a), Uint(b)) => Some(a.cmp(b)),
            (Int(a), Uint(b)) => Some(u128::try_from(*a).map_or(Ordering::Less, |a| a.cmp(b))),
            (Uint(a), Int(b)) => Some(u128::try_from(*b).map_or(Ordering::Greater, |b| a.cmp(&b))),
            (Time(a), Time(b)) => Some(a.cmp(b)),
            (Float(a), Float(b)) => Some(a.total_cmp(b)),
            (Bytes(a), Bytes(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

/// Writes values through a format driver `F` into a writer `W`.
///
/// Derived code and hand-written [`Encode`] impls call its methods; it
/// applies the shared options (canonical order, struct-to-array, omit-empty).
pub struct Encoder<W: Write, F: EncodeFormat> {
    w: W,
    f: F,
    opts: EncodeOptions,
    /// Reused for extension contents encoded on the side.
    side_buf: Vec<u8>,
    /// A value failed part way: the output ends inside it, so no more
    /// values until [`Encoder::reset`] (ugorji's errors are sticky too).
    failed: bool,
}

impl<W: Write, F: EncodeFormat> Encoder<W, F> {
    /// An encoder writing to `w` with format driver `f`.
    pub fn new(w: W, f: F, opts: EncodeOptions) -> Self {
        Encoder {
            w,
            f,
            opts,
            side_buf: Vec::new(),
            failed: false,
        }
    }

    /// Points the encoder at a new writer, keeping its driver's settings and
    /// its internal buffers (ugorji's `Reset`); returns the old writer.
    ///
    /// The driver's per-stream state (binc symbols, JSON separators) starts
    /// afresh, as for a new encoder.
    pub fn reset(&mut self, w: W) -> W {
        self.f = self.f.fresh();
        self.failed = false;
        std::mem::replace(&mut self.w, w)
    }

    pub(crate) fn take_side_buf(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.side_buf)
    }

    pub(crate) fn put_side_buf(&mut self, buf: Vec<u8>) {
        self.side_buf = buf;
    }

    /// Encodes one value. After an error, every call is an error until
    /// [`Encoder::reset`]: the output stops inside the value that failed.
    #[inline]
    pub fn encode<T: Encode + ?Sized>(&mut self, v: &T) -> Result<()> {
        if self.failed {
            return Err(stopped("encoder"));
        }
        v.encode(self).inspect_err(|_| self.failed = true)
    }

    /// The options in force.
    #[inline]
    pub fn options(&self) -> &EncodeOptions {
        &self.opts
    }

    /// The writer.
    pub fn writer(&self) -> &W {
        &self.w
    }

    /// The writer, mutably (for resetting a reused buffer).
    pub fn writer_mut(&mut self) -> &mut W {
        &mut self.w
    }

    /// The format driver.
    pub fn format(&self) -> &F {
        &self.f
    }

    /// Returns the writer.
    pub fn into_writer(self) -> W {
        self.w
    }

    /// Returns the writer and the format driver.
    pub fn into_parts(self) -> (W, F) {
        (self.w, self.f)
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.w.bytes_written()
    }

    /// Writes nil.
    #[inline]
    pub fn encode_nil(&mut self) -> Result<()> {
        self.f.write_nil(&mut self.w)
    }
    /// Writes a bool.
    #[inline]
    pub fn encode_bool(&mut self, v: bool) -> Result<()> {
        self.f.write_bool(&mut self.w, v)
    }
    /// Writes a signed integer.
    #[inline]
    pub fn encode_i64(&mut self, v: i64) -> Result<()> {
        self.f.write_i64(&mut self.w, v)
    }
    /// Writes an enum variant's integer tag (see
    /// [`EncodeFormat::write_variant_index`]): as [`Encoder::encode_i64`],
    /// except that a format never turns it into something else (nil).
    #[inline]
    pub fn encode_variant_index(&mut self, v: i64) -> Result<()> {
        self.f.write_variant_index(&mut self.w, v)
    }
    /// Writes an unsigned integer.
    #[inline]
    pub fn encode_u64(&mut self, v: u64) -> Result<()> {
        self.f.write_u64(&mut self.w, v)
    }
    /// Writes a 128-bit signed integer.
    #[inline]
    pub fn encode_i128(&mut self, v: i128) -> Result<()> {
        self.f.write_i128(&mut self.w, v)
    }
    /// Writes a 128-bit unsigned integer.
    #[inline]
    pub fn encode_u128(&mut self, v: u128) -> Result<()> {
        self.f.write_u128(&mut self.w, v)
    }
    /// Writes a 32-bit float.
    #[inline]
    pub fn encode_f32(&mut self, v: f32) -> Result<()> {
        self.f.write_f32(&mut self.w, v)
    }
    /// Writes a 64-bit float.
    #[inline]
    pub fn encode_f64(&mut self, v: f64) -> Result<()> {
        self.f.write_f64(&mut self.w, v)
    }
    /// Writes a text string.
    #[inline]
    pub fn encode_str(&mut self, v: &str) -> Result<()> {
        self.f.write_str(&mut self.w, v)
    }
    /// Writes a byte string.
    #[inline]
    pub fn encode_bytes(&mut self, v: &[u8]) -> Result<()> {
        self.f.write_bytes(&mut self.w, v)
    }
    /// Writes a timestamp.
    #[inline]
    pub fn encode_time(&mut self, t: &Time) -> Result<()> {
        self.f.write_time(&mut self.w, t)
    }
    /// Writes an extension (tag and opaque bytes).
    #[inline]
    pub fn encode_ext(&mut self, tag: u64, data: &[u8]) -> Result<()> {
        self.f.write_ext(&mut self.w, tag, data)
    }
    /// Writes a tag that applies to the next value (CBOR).
    #[inline]
    pub fn encode_tag(&mut self, tag: u64) -> Result<()> {
        self.f.write_tag(&mut self.w, tag)
    }
    /// Writes a simple value (CBOR).
    #[inline]
    pub fn encode_simple(&mut self, v: u8) -> Result<()> {
        self.f.write_simple(&mut self.w, v)
    }
    /// Writes bytes that already hold one encoded value of this format.
    #[inline]
    pub fn encode_raw(&mut self, encoded: &[u8]) -> Result<()> {
        self.f.write_raw(&mut self.w, encoded)
    }
    /// Writes a struct field name (or other compile-time string key).
    #[inline]
    pub fn encode_field_name(&mut self, name: &'static str) -> Result<()> {
        self.f.write_field_name(&mut self.w, name)
    }

    /// Writes the key of struct field entry `index`, named `name`, and what
    /// separates it from the value: [`Encoder::map_key`],
    /// [`Encoder::encode_field_name`] and [`Encoder::map_value`] in one call.
    /// Derived code passes a constant (`const N: FieldName = FieldName::new("x")`).
    // Inlined, the format sees the constant name and can fold the whole
    // key into a few stores.
    #[inline(always)]
    pub fn encode_field(&mut self, index: usize, name: FieldName) -> Result<()> {
        self.f.write_field(&mut self.w, index, name)
    }

    /// Starts an array of `len` items; call [`Encoder::array_elem`] before each
    /// and [`Encoder::array_end`] after the last.
    #[inline]
    pub fn array_start(&mut self, len: usize) -> Result<()> {
        self.f.write_array_start(&mut self.w, len)
    }
    /// Before array item `index`.
    #[inline]
    pub fn array_elem(&mut self, index: usize) -> Result<()> {
        self.f.write_array_elem(&mut self.w, index)
    }
    /// Ends an array of `len` items.
    #[inline]
    pub fn array_end(&mut self, len: usize) -> Result<()> {
        self.f.write_array_end(&mut self.w, len)
    }
    /// Starts a map of `len` entries; call [`Encoder::map_key`] before each key,
    /// [`Encoder::map_value`] before each value and [`Encoder::map_end`] after the last.
    #[inline]
    pub fn map_start(&mut self, len: usize) -> Result<()> {
        self.f.write_map_start(&mut self.w, len)
    }
    /// Before the key of entry `index`.
    #[inline]
    pub fn map_key(&mut self, index: usize) -> Result<()> {
        self.f.write_map_key(&mut self.w, index)
    }
    /// Between a key and its value.
    #[inline]
    pub fn map_value(&mut self) -> Result<()> {
        self.f.write_map_value(&mut self.w)
    }
    /// Ends a map of `len` entries.
    #[inline]
    pub fn map_end(&mut self, len: usize) -> Result<()> {
        self.f.write_map_end(&mut self.w, len)
    }

    /// Writes an array of `f64`s (what `Vec<f64>`, `[f64; N]` and `&[f64]`
    /// encode as): the same bytes as [`Encoder::encode_array_items`], in one
    /// call to the format driver.
    #[inline]
    pub fn encode_f64_array(&mut self, items: &[f64]) -> Result<()> {
        if items.is_empty() {
            return self.empty_array();
        }
        self.f.write_f64_array(&mut self.w, items)
    }

    /// Writes an array of `f32`s, as [`Encoder::encode_f64_array`] does `f64`s.
    #[inline]
    pub fn encode_f32_array(&mut self, items: &[f32]) -> Result<()> {
        if items.is_empty() {
            return self.empty_array();
        }
        self.f.write_f32_array(&mut self.w, items)
    }

    /// Writes an array of signed integers (what `Vec<i32>`, `[i64; N]` and
    /// `&[i16]` encode as): the same bytes as
    /// [`Encoder::encode_array_items`], in one call to the format driver.
    #[inline]
    pub fn encode_i64_array<T: crate::SignedInt>(&mut self, items: &[T]) -> Result<()> {
        if items.is_empty() {
            return self.empty_array();
        }
        self.f.write_i64_array(&mut self.w, items)
    }

    /// Writes an array of unsigned integers, as
    /// [`Encoder::encode_i64_array`] does signed ones.
    #[inline]
    pub fn encode_u64_array<T: crate::UnsignedInt>(&mut self, items: &[T]) -> Result<()> {
        if items.is_empty() {
            return self.empty_array();
        }
        self.f.write_u64_array(&mut self.w, items)
    }

    /// Writes an array of rows of `f64`s (what `Vec<[f64; N]>` and
    /// `&[[f64; N]]` encode as): the same bytes as
    /// [`Encoder::encode_array_items`] over the rows, in one call to the
    /// format driver.
    #[inline]
    pub fn encode_f64_rows<const N: usize>(&mut self, rows: &[[f64; N]]) -> Result<()> {
        self.f.write_f64_rows(&mut self.w, rows)
    }

    /// Writes an array of rows of `f32`s, as [`Encoder::encode_f64_rows`]
    /// does `f64`s.
    #[inline]
    pub fn encode_f32_rows<const N: usize>(&mut self, rows: &[[f32; N]]) -> Result<()> {
        self.f.write_f32_rows(&mut self.w, rows)
    }

    /// An empty array: its start and its end, inline at the caller. Empty
    /// arrays are common in documents (citm_catalog has 8,685 empty
    /// `blockIds` in 1.7 MB), and for them the out-of-line call of a
    /// driver's array writer (its stack frame, six saved registers) cost
    /// more than the one or two bytes written: with this check,
    /// citm_catalog's encoding runs 19 % fewer instructions in MessagePack,
    /// 18 % in CBOR and 7 % in JSON.
    #[inline(always)]
    fn empty_array(&mut self) -> Result<()> {
        self.array_start(0)?;
        self.array_end(0)
    }

    /// Writes an array of `items`, each with its own [`Encode`].
    #[inline]
    pub fn encode_array_items<T: Encode>(&mut self, items: &[T]) -> Result<()> {
        if items.is_empty() {
            return self.empty_array();
        }
        self.array_start(items.len())?;
        for (i, item) in items.iter().enumerate() {
            self.array_elem(i)?;
            item.encode(self)?;
        }
        self.array_end(items.len())
    }

    /// Writes an array of the `len` items of `iter`.
    pub fn encode_array_iter<'a, T, I>(&mut self, len: usize, iter: I) -> Result<()>
    where
        T: Encode + 'a + ?Sized,
        I: IntoIterator<Item = &'a T>,
    {
        self.array_start(len)?;
        let mut n = 0;
        for item in iter {
            self.array_elem(n)?;
            item.encode(self)?;
            n += 1;
        }
        debug_assert_eq!(n, len, "iterator length differs from the declared length");
        self.array_end(len)
    }

    /// Writes a map of the `len` entries of `iter`, sorted when `canonical` is on.
    ///
    /// `sorted` says the iterator already yields keys in canonical order (a
    /// `BTreeMap` of strings or integers), so no sort is needed.
    pub fn encode_map_iter<'a, K, V, I>(&mut self, len: usize, iter: I, sorted: bool) -> Result<()>
    where
        K: Encode + 'a + ?Sized,
        V: Encode + 'a + ?Sized,
        I: IntoIterator<Item = (&'a K, &'a V)>,
    {
        if self.f.sort_keys_by_encoding() && len > 1 {
            let entries: Vec<(&K, &V)> = iter.into_iter().collect();
            return self.write_keys_sorted_by_encoding(len, entries);
        }
        if self.opts.canonical && !sorted && len > 1 {
            let mut entries: Vec<(&K, &V)> = iter.into_iter().collect();
            if entries
                .iter()
                .any(|(k, _)| matches!(k.canonical_key(), CanonicalKey::Encoded))
            {
                // Keys without a natural order sort by their encoded bytes.
                return self.write_keys_sorted_by_encoding(len, entries);
            }
            sort_natural(&mut entries);
            return self.write_map_entries(len, entries);
        }
        self.write_map_entries(len, iter)
    }

    /// Writes a map whose entries sort by the bytes of their encoded keys:
    /// each key is encoded once on the side ([`EncodeFormat::side_key`]),
    /// and those bytes are written when the format allows
    /// ([`EncodeFormat::reuse_side_keys`]), else the key is encoded again.
    fn write_keys_sorted_by_encoding<K, V>(
        &mut self,
        len: usize,
        entries: Vec<(&K, &V)>,
    ) -> Result<()>
    where
        K: Encode + ?Sized,
        V: Encode + ?Sized,
    {
        let mut keyed: Vec<(Vec<u8>, usize)> = Vec::with_capacity(entries.len());
        for (i, (k, _)) in entries.iter().enumerate() {
            keyed.push((self.encode_key_on_side(*k)?, i));
        }
        keyed.sort();
        if !self.f.reuse_side_keys() {
            return self.write_map_entries(len, keyed.iter().map(|&(_, i)| entries[i]));
        }
        self.map_start(len)?;
        for (n, (key, i)) in keyed.iter().enumerate() {
            let (_, v) = entries[*i];
            self.map_key(n)?;
            self.f.write_raw(&mut self.w, key)?;
            self.map_value()?;
            v.encode(self)?;
        }
        self.map_end(len)
    }

    /// Writes an array of the `len` items of a set, sorted when `canonical` is on
    /// (unless `sorted` says the iterator is already in canonical order).
    pub fn encode_set_iter<'a, T, I>(&mut self, len: usize, iter: I, sorted: bool) -> Result<()>
    where
        T: Encode + 'a + ?Sized,
        I: IntoIterator<Item = &'a T>,
    {
        let bytewise = self.f.sort_keys_by_encoding();
        if (bytewise || (self.opts.canonical && !sorted)) && len > 1 {
            let mut items: Vec<(&T, &())> = iter.into_iter().map(|t| (t, &())).collect();
            if bytewise {
                self.sort_by_encoding(&mut items)?;
            } else {
                self.sort_canonical(&mut items)?;
            }
            return self.encode_array_iter(len, items.into_iter().map(|(t, _)| t));
        }
        self.encode_array_iter(len, iter)
    }

    fn write_map_entries<'a, K, V, I>(&mut self, len: usize, iter: I) -> Result<()>
    where
        K: Encode + 'a + ?Sized,
        V: Encode + 'a + ?Sized,
        I: IntoIterator<Item = (&'a K, &'a V)>,
    {
        self.map_start(len)?;
        let mut n = 0;
        for (k, v) in iter {
            self.map_key(n)?;
            k.encode(self)?;
            self.map_value()?;
            v.encode(self)?;
            n += 1;
        }
        debug_assert_eq!(n, len, "iterator length differs from the declared length");
        self.map_end(len)
    }

    /// Sorts map entries by ugorji's canonical order for their key type.
    fn sort_canonical<K: Encode + ?Sized, V: ?Sized>(
        &self,
        entries: &mut [(&K, &V)],
    ) -> Result<()> {
        let natural = entries
            .iter()
            .all(|(k, _)| !matches!(k.canonical_key(), CanonicalKey::Encoded));
        if natural {
            sort_natural(entries);
            return Ok(());
        }
        // Keys without a natural order sort by their encoded bytes.
        self.sort_by_encoding(entries)
    }

    /// Sorts map entries by the bytes of their encoded keys.
    fn sort_by_encoding<K: Encode + ?Sized, V: ?Sized>(
        &self,
        entries: &mut [(&K, &V)],
    ) -> Result<()> {
        let mut keyed: Vec<(Vec<u8>, usize)> = Vec::with_capacity(entries.len());
        for (i, (k, _)) in entries.iter().enumerate() {
            keyed.push((self.encode_on_side(*k)?, i));
        }
        keyed.sort();
        let order: Vec<(&K, &V)> = keyed.iter().map(|&(_, i)| entries[i]).collect();
        entries.copy_from_slice(&order);
        Ok(())
    }

    /// Encodes `v` with a fresh driver of the same options into a new buffer.
    pub fn encode_on_side<T: Encode + ?Sized>(&self, v: &T) -> Result<Vec<u8>> {
        let mut side = Encoder::new(Vec::new(), self.f.side(), self.opts.clone());
        v.encode(&mut side)?;
        Ok(side.w)
    }

    /// Encodes the map key `k` as [`Encoder::encode_on_side`] does, with the
    /// side driver standing where a key goes ([`EncodeFormat::side_key`]).
    fn encode_key_on_side<T: Encode + ?Sized>(&self, k: &T) -> Result<Vec<u8>> {
        let mut side = Encoder::new(Vec::new(), self.f.side_key(), self.opts.clone());
        k.encode(&mut side)?;
        Ok(side.w)
    }
}

/// The error of an encoder or decoder used again after an error.
#[cold]
pub(crate) fn stopped(what: &str) -> crate::Error {
    crate::Error::custom(format!(
        "the {what} stopped at an earlier error, inside the value that failed; reset it to go on"
    ))
}

/// Sorts entries whose keys all have a natural canonical order
/// ([`Encode::canonical_key`]).
fn sort_natural<K: Encode + ?Sized, V: ?Sized>(entries: &mut [(&K, &V)]) {
    entries.sort_by(|a, b| {
        a.0.canonical_key()
            .compare(&b.0.canonical_key())
            .unwrap_or(Ordering::Equal)
    });
}

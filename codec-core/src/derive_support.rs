//! Items used by `#[derive(Codec)]`-generated code. Not part of the public API:
//! names and signatures here may change in any release.
//!
//! - [`Flatten`] / [`FlattenDecode`]: implemented by the derive for every struct
//!   with named fields and string keys, so an outer struct with a
//!   `#[codec(flatten)]` field can inline the inner struct's entries (ugorji's
//!   embedded structs).
//! - [`RestEncode`] / [`RestDecode`]: the map types a `#[codec(rest)]` field may
//!   have (`BTreeMap<String, V>`, `HashMap<String, V, S>`), which keep unknown keys.
//! - Cold error constructors and key readers, so generated code stays small.

use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, EncodeOptions, Encoder, Error, ErrorKind,
    KeyHint, Kind, PathSegment, Read, Result, Seq, Write,
};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, btree_map, hash_map};
use std::hash::BuildHasher;

pub use std::default::Default;
pub use std::mem::{ManuallyDrop, take};
pub use std::option::Option::{self, None, Some};
pub use std::result::Result::{Err, Ok};
pub use std::string::String;
pub use std::vec::Vec;

/// The encoding half of a struct that can be flattened into another.
pub trait Flatten: Encode {
    /// Items this struct contributes in array form (its fields, recursively inlined).
    const ARRAY_LEN: usize;
    /// The keys this struct writes in map form (its fields' names and
    /// those of the structs flattened into it), for [`check_field_names`].
    const NAMES: FieldNames;
    /// Entries this struct contributes in map form (after omitempty;
    /// `omit`: the `omit_empty` option).
    fn flat_len(&self, omit: bool) -> usize;
    /// Writes this struct's map entries in declaration order; `index` counts
    /// entries, `omit` is the `omit_empty` option (read once by the caller:
    /// once bytes are written, the compiler cannot assume the option unchanged),
    /// `known` the keys of the outermost struct, which no `rest` key may take.
    fn flat_encode_map<W: Write, F: EncodeFormat>(
        &self,
        e: &mut Encoder<W, F>,
        index: &mut usize,
        omit: bool,
        known: &FieldNames,
    ) -> Result<()>;
    /// Writes this struct's fields as array items; `index` counts items.
    fn flat_encode_array<W: Write, F: EncodeFormat>(
        &self,
        e: &mut Encoder<W, F>,
        index: &mut usize,
    ) -> Result<()>;
    /// Pushes the names of the entries written in map form (for canonical
    /// order); a `rest` key among `known`, the outermost struct's fixed
    /// keys, is an error ([`RestEncode::rest_names`]).
    fn flat_names<'a>(
        &'a self,
        opts: &EncodeOptions,
        out: &mut Vec<&'a str>,
        known: &FieldNames,
    ) -> Result<()>;
    /// Writes the key and value of the entry `name` (the caller wrote `map_key`);
    /// false if no entry of this struct has that name.
    fn flat_encode_entry<W: Write, F: EncodeFormat>(
        &self,
        name: &str,
        e: &mut Encoder<W, F>,
    ) -> Result<bool>;
}

/// The keys a struct writes in map form under names fixed at compile time:
/// its own fields' and, recursively, those of the structs flattened into
/// it (not the run-time keys of a `rest` map).
pub struct FieldNames {
    /// The struct's own fields' keys (not skipped, flattened or `rest`).
    pub own: &'static [&'static str],
    /// Those of each struct flattened into it.
    pub flattened: &'static [&'static FieldNames],
    /// Whether the struct has a `#[codec(rest)]` field of its own.
    pub rest: bool,
}

impl FieldNames {
    /// Number of keys, flattened ones included.
    const fn count(&self) -> usize {
        let mut n = self.own.len();
        let mut i = 0;
        while i < self.flattened.len() {
            n += self.flattened[i].count();
            i += 1;
        }
        n
    }

    /// Number of `rest` maps, those of flattened structs included.
    const fn rest_count(&self) -> usize {
        let mut n = self.rest as usize;
        let mut i = 0;
        while i < self.flattened.len() {
            n += self.flattened[i].rest_count();
            i += 1;
        }
        n
    }

    /// Whether `key` is one of the keys.
    pub fn contains(&self, key: &str) -> bool {
        self.own.contains(&key) || self.flattened.iter().any(|f| f.contains(key))
    }

    /// Key `i` of [`FieldNames::count`], own keys first, then each
    /// flattened struct's in order.
    const fn nth(&self, mut i: usize) -> &'static str {
        if i < self.own.len() {
            return self.own[i];
        }
        i -= self.own.len();
        let mut k = 0;
        loop {
            let n = self.flattened[k].count();
            if i < n {
                return self.flattened[k].nth(i);
            }
            i -= n;
            k += 1;
        }
    }
}

/// Fails the compilation (evaluated in a `const`) when a struct with
/// flattened fields, named `ty`, would write a key twice: a field of a
/// flattened struct named as one of its own or of another flattened
/// struct. The decoder would give the first to one field and refuse the
/// second as a duplicate, so the struct could not read back what it
/// writes. Fails too when the struct and the structs flattened into it
/// have more than one `rest` map between them: the decoder gives every
/// unknown key to the first, so the entries of the others would move
/// (and a key held by two would be written twice).
pub const fn check_field_names(ty: &str, names: &FieldNames) {
    if names.rest_count() > 1 {
        two_rest_maps(ty);
    }
    let n = names.count();
    let mut i = 0;
    while i < n {
        let a = names.nth(i);
        let mut j = i + 1;
        while j < n {
            if str_eq(a, names.nth(j)) {
                duplicate_key(ty, a);
            }
            j += 1;
        }
        i += 1;
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// [`check_field_names`]'s error for the key `key` written twice.
const fn duplicate_key(ty: &str, key: &str) -> ! {
    const WRITES: &str = "` would write the key \"";
    const TWICE: &str =
        "\" twice: a flattened struct has a field of that name too; rename or skip one";
    fail(ty, WRITES, key, TWICE)
}

/// [`check_field_names`]'s error for more than one `rest` map.
const fn two_rest_maps(ty: &str) -> ! {
    const HAS: &str = "` has more than one `rest` map (its own or a flattened struct's): \
                       unknown keys are read into the first only; keep one";
    fail(ty, HAS, "", "")
}

/// A compile-time error of [`check_field_names`]: `` `ty` `` followed by
/// `a`, `key` and `b` (a constant's panic takes one `&str`, built here).
const fn fail(ty: &str, a: &str, key: &str, b: &str) -> ! {
    const fn push(buf: &mut [u8; 512], mut len: usize, s: &str) -> usize {
        let s = s.as_bytes();
        let mut i = 0;
        while i < s.len() && len < buf.len() {
            buf[len] = s[i];
            len += 1;
            i += 1;
        }
        len
    }
    let mut buf = [0u8; 512];
    let mut n = push(&mut buf, 0, "`");
    n = push(&mut buf, n, ty);
    n = push(&mut buf, n, a);
    n = push(&mut buf, n, key);
    n = push(&mut buf, n, b);
    match std::str::from_utf8(buf.split_at(n).0) {
        Ok(msg) => panic!("{}", msg),
        // Cut inside a character: a very long name.
        Err(_) => panic!("a struct with flattened fields has a key or a `rest` map twice"),
    }
}

/// The decoding half of a struct that can be flattened into another.
pub trait FlattenDecode<'de>: Sized {
    /// The partly decoded fields (a tuple of `Option`s).
    type State;
    /// Whether this struct (or one flattened into it) keeps unknown keys.
    const HAS_REST: bool;
    /// Number of field ids: this struct's own fields plus those of the structs flattened into it.
    const ID_COUNT: usize;
    /// A state with no field decoded.
    fn flat_init() -> Self::State;
    /// The id of the field whose key is `name`, if any.
    fn flat_field_id(name: &str) -> Option<usize>;
    /// Decodes the value of field `id` (from [`FlattenDecode::flat_field_id`]),
    /// whose key was read at offset `off` (where a duplicate is reported).
    fn flat_decode_field<R: Read<'de>, F: DecodeFormat>(
        st: &mut Self::State,
        id: usize,
        off: u64,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()>;
    /// Decodes the value of an unknown key, read at offset `off`, into the
    /// rest map (only when `HAS_REST`).
    fn flat_decode_rest<R: Read<'de>, F: DecodeFormat>(
        st: &mut Self::State,
        key: String,
        off: u64,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()>;
    /// Decodes this struct's fields from the next array items; false when
    /// the array ended first.
    ///
    /// By default, fields `0..ID_COUNT` in that order through
    /// [`FlattenDecode::flat_decode_field`]: the derive overrides it only
    /// for a struct with a flattened field (whose items come at the field's
    /// place, where its ids come after the struct's own), so that each
    /// field's decode is not compiled once more for this rare path.
    fn flat_decode_array<R: Read<'de>, F: DecodeFormat>(
        st: &mut Self::State,
        d: &mut Decoder<'de, R, F>,
        seq: &mut Seq,
    ) -> Result<bool> {
        for id in 0..Self::ID_COUNT {
            if !d.array_next(seq)? {
                return Ok(false);
            }
            let off = d.offset();
            Self::flat_decode_field(st, id, off, d)?;
        }
        Ok(true)
    }
    /// Builds the value from the fields taken out of `st`, filling missing
    /// fields (or failing with `MissingField`; `absent_as_empty` is the
    /// option). By reference: passed by value, the state is copied whole
    /// before the call (seen as a `memcpy` of 192 bytes per struct for
    /// citm_catalog's `Performance`).
    fn flat_finish(st: &mut Self::State, absent_as_empty: bool) -> Result<Self>;
}

/// The encoding half of a `#[codec(rest)]` map.
///
/// `omit` (the struct's `omitempty` or the `omit_empty` option) leaves out
/// entries whose value is empty ([`Encode::is_empty_value`]), as ugorji
/// leaves out a `MissingFielder`'s empty values under `omitempty`.
pub trait RestEncode {
    /// Number of entries written.
    fn rest_len(&self, omit: bool) -> usize;
    /// Writes the entries; `index` counts map entries. A key that is also
    /// one of `known`, the struct's fixed keys, is a `DuplicateField` error
    /// ([`rest_key_taken`]): the entry would be written twice.
    fn rest_encode<W: Write, F: EncodeFormat>(
        &self,
        e: &mut Encoder<W, F>,
        index: &mut usize,
        omit: bool,
        known: &FieldNames,
    ) -> Result<()>;
    /// Pushes the keys written (for canonical order); a key among `known`
    /// is an error, as in [`RestEncode::rest_encode`].
    fn rest_names<'a>(
        &'a self,
        out: &mut Vec<&'a str>,
        omit: bool,
        known: &FieldNames,
    ) -> Result<()>;
    /// Writes the key and value of entry `name`; false if absent.
    fn rest_encode_entry<W: Write, F: EncodeFormat>(
        &self,
        name: &str,
        e: &mut Encoder<W, F>,
    ) -> Result<bool>;
}

/// The decoding half of a `#[codec(rest)]` map.
pub trait RestDecode<'de>: Default {
    /// Decodes the value of the unknown key `key`, read at offset `off`,
    /// and keeps it. A key the map already holds is a `DuplicateField`
    /// error at `off` ([`duplicate_rest_key`]), as a repeated field is.
    fn rest_insert<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        key: String,
        off: u64,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()>;
}

/// Runs `read`: derived decoders read a struct's fields into their slots
/// in a closure given here, forced inline, so that `?` and `return` leave
/// the reading and not the decode (the slots must be made to own their
/// values again before the error is returned).
#[inline(always)]
pub fn read_fields(read: impl FnOnce() -> Result<()>) -> Result<()> {
    read()
}

/// A `rest` key that is also a fixed key of the struct being encoded: a
/// `DuplicateField` error naming it, as decoding the entries written twice
/// would give.
#[cold]
#[inline(never)]
pub fn rest_key_taken(key: &str) -> Error {
    Error::new(ErrorKind::DuplicateField(Cow::Owned(key.to_owned())))
}

/// [`RestEncode::rest_len`]: `len` entries, less the empty ones with `omit`.
fn rest_count<'a, V: Encode + 'a>(
    values: impl Iterator<Item = &'a V>,
    len: usize,
    omit: bool,
) -> usize {
    if omit {
        values.filter(|v| !v.is_empty_value()).count()
    } else {
        len
    }
}

/// The entries of a `rest` map that are written: the empty ones are left out
/// with `omit`, and a key that is also a fixed field is a
/// [`rest_key_taken`] error.
fn rest_kept<'a, V: Encode + 'a>(
    entries: impl IntoIterator<Item = (&'a String, &'a V)>,
    omit: bool,
    known: &FieldNames,
) -> impl Iterator<Item = Result<(&'a String, &'a V)>> {
    entries
        .into_iter()
        .filter(move |(_, v)| !(omit && v.is_empty_value()))
        .map(move |(k, v)| {
            if known.contains(k) {
                Err(rest_key_taken(k))
            } else {
                Ok((k, v))
            }
        })
}

/// [`RestEncode::rest_encode`] of a map's entries, in the map's order.
fn rest_write_all<'a, W: Write, F: EncodeFormat, V: Encode + 'a>(
    entries: impl IntoIterator<Item = (&'a String, &'a V)>,
    e: &mut Encoder<W, F>,
    index: &mut usize,
    omit: bool,
    known: &FieldNames,
) -> Result<()> {
    for entry in rest_kept(entries, omit, known) {
        let (k, v) = entry?;
        e.map_key(*index)?;
        rest_write(e, k, v)?;
        *index += 1;
    }
    Ok(())
}

/// [`RestEncode::rest_names`] of a map's keys.
fn rest_push_names<'a, V: Encode + 'a>(
    entries: impl IntoIterator<Item = (&'a String, &'a V)>,
    out: &mut Vec<&'a str>,
    omit: bool,
    known: &FieldNames,
) -> Result<()> {
    for entry in rest_kept(entries, omit, known) {
        out.push(entry?.0);
    }
    Ok(())
}

fn rest_write<W: Write, F: EncodeFormat, V: Encode>(
    e: &mut Encoder<W, F>,
    k: &str,
    v: &V,
) -> Result<()> {
    e.encode_str(k)?;
    e.map_value()?;
    v.encode(e)
        .map_err(|err| err.within(PathSegment::Key(k.to_owned())))
}

impl<V: Encode> RestEncode for BTreeMap<String, V> {
    #[inline]
    fn rest_len(&self, omit: bool) -> usize {
        rest_count(self.values(), self.len(), omit)
    }
    fn rest_encode<W: Write, F: EncodeFormat>(
        &self,
        e: &mut Encoder<W, F>,
        index: &mut usize,
        omit: bool,
        known: &FieldNames,
    ) -> Result<()> {
        rest_write_all(self, e, index, omit, known)
    }
    fn rest_names<'a>(
        &'a self,
        out: &mut Vec<&'a str>,
        omit: bool,
        known: &FieldNames,
    ) -> Result<()> {
        rest_push_names(self, out, omit, known)
    }
    fn rest_encode_entry<W: Write, F: EncodeFormat>(
        &self,
        name: &str,
        e: &mut Encoder<W, F>,
    ) -> Result<bool> {
        match self.get(name) {
            Some(v) => rest_write(e, name, v).map(|()| true),
            None => Ok(false),
        }
    }
}

impl<V: Encode, S: BuildHasher> RestEncode for HashMap<String, V, S> {
    #[inline]
    fn rest_len(&self, omit: bool) -> usize {
        rest_count(self.values(), self.len(), omit)
    }
    fn rest_encode<W: Write, F: EncodeFormat>(
        &self,
        e: &mut Encoder<W, F>,
        index: &mut usize,
        omit: bool,
        known: &FieldNames,
    ) -> Result<()> {
        // Under `canonical` the derive sorts all names first and uses `rest_encode_entry`.
        rest_write_all(self, e, index, omit, known)
    }
    fn rest_names<'a>(
        &'a self,
        out: &mut Vec<&'a str>,
        omit: bool,
        known: &FieldNames,
    ) -> Result<()> {
        rest_push_names(self, out, omit, known)
    }
    fn rest_encode_entry<W: Write, F: EncodeFormat>(
        &self,
        name: &str,
        e: &mut Encoder<W, F>,
    ) -> Result<bool> {
        match self.get(name) {
            Some(v) => rest_write(e, name, v).map(|()| true),
            None => Ok(false),
        }
    }
}

impl<'de, V: Decode<'de>> RestDecode<'de> for BTreeMap<String, V> {
    fn rest_insert<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        key: String,
        off: u64,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        match self.entry(key) {
            btree_map::Entry::Occupied(e) => Err(duplicate_rest_key(e.key(), off)),
            btree_map::Entry::Vacant(e) => match V::decode(d) {
                Ok(v) => {
                    e.insert(v);
                    Ok(())
                }
                Err(err) => Err(err.within(PathSegment::Key(e.into_key()))),
            },
        }
    }
}

impl<'de, V: Decode<'de>, S: BuildHasher + Default> RestDecode<'de> for HashMap<String, V, S> {
    fn rest_insert<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        key: String,
        off: u64,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        match self.entry(key) {
            hash_map::Entry::Occupied(e) => Err(duplicate_rest_key(e.key(), off)),
            hash_map::Entry::Vacant(e) => match V::decode(d) {
                Ok(v) => {
                    e.insert(v);
                    Ok(())
                }
                Err(err) => Err(err.within(PathSegment::Key(e.into_key()))),
            },
        }
    }
}

/// What a struct map key resolved to while decoding.
#[derive(Debug)]
pub enum FieldKey {
    /// A field id (own fields first, then the flattened structs' ids).
    Id(usize),
    /// An unknown key kept by a `#[codec(rest)]` map.
    Rest(String),
    /// An unknown key whose value is skipped ([`skip_unknown`]). The key
    /// itself is kept aside ([`keep_unknown_text`]): carried here, it would
    /// make every key's result larger, and the derived loops of the binary
    /// formats measurably slower (CBOR's twitter `User` 8 % more
    /// instructions).
    Skip,
}

/// How much of an unknown key [`UnknownKey`] keeps.
const UNKNOWN_KEY_MAX: usize = 48;

/// A key that no field of the struct being decoded has, kept while its
/// value is skipped so that an error raised there can name it: a plain
/// copy of the key's first 48 bytes. A longer key is named cut, ending in
/// `...` (at a character boundary).
///
/// The key is kept in a thread-local slot, set by [`keep_unknown_text`]
/// (or [`keep_unknown_int`]) as the key is matched and read by
/// [`skip_unknown`] right after, only if skipping fails: nothing else runs
/// between the two. Kept in the derived function itself, in the key
/// (`FieldKey::Skip(key)`) or in a local, it made the loops over known
/// keys 1-8 % slower (twitter.json's `User`, every key of which is known:
/// the local alone cost 350 instructions per struct).
#[derive(Clone, Copy)]
struct UnknownKey {
    /// The bytes kept in `bytes`.
    len: u8,
    /// [`UnknownKey::NONE`], a text key or an integer struct's key.
    kind: u8,
    /// Whether the key was longer than what is kept.
    cut: bool,
    bytes: [u8; UNKNOWN_KEY_MAX],
}

impl UnknownKey {
    const EMPTY: u8 = 0;
    const TEXT: u8 = 1;
    const LITERAL: u8 = 2;

    /// No key kept.
    const NONE: UnknownKey = UnknownKey {
        len: 0,
        kind: UnknownKey::EMPTY,
        cut: false,
        bytes: [0; UNKNOWN_KEY_MAX],
    };

    /// The key `k` of a struct with integer keys.
    fn int(k: &IntKey) -> UnknownKey {
        match k {
            IntKey::Int(n) => {
                let mut digits = [0u8; 20];
                let mut at = &mut digits[..];
                // Twenty bytes hold any i64.
                let _ = std::io::Write::write_fmt(&mut at, format_args!("{n}"));
                let len = 20 - at.len();
                let text = std::str::from_utf8(&digits[..len]).unwrap_or_default();
                UnknownKey::new(text, UnknownKey::LITERAL)
            }
            IntKey::Other(s) => UnknownKey::new(s, UnknownKey::LITERAL),
        }
    }

    fn new(s: &str, kind: u8) -> UnknownKey {
        if s.len() <= 16 {
            // Most keys: a fixed-size copy from a register, where a copy
            // of the key's own length is a call to `memcpy`. Reading
            // twitter.json's ids only (36,000 keys kept per 5 documents)
            // ran 1.3 % fewer instructions in MessagePack, 0.6 % in JSON.
            let mut bytes = [0; UNKNOWN_KEY_MAX];
            bytes[..16].copy_from_slice(&crate::short_word(s.as_bytes()).to_le_bytes());
            return UnknownKey {
                len: s.len() as u8,
                kind,
                cut: false,
                bytes,
            };
        }
        let n = s.floor_char_boundary(UNKNOWN_KEY_MAX);
        let mut key = UnknownKey {
            len: n as u8,
            kind,
            cut: n < s.len(),
            bytes: [0; UNKNOWN_KEY_MAX],
        };
        key.bytes[..n].copy_from_slice(&s.as_bytes()[..n]);
        key
    }

    /// The path segment that names the entry, if a key is kept.
    fn segment(&self) -> Option<PathSegment> {
        let kept = self.bytes.get(..usize::from(self.len)).unwrap_or_default();
        let mut text = String::from_utf8_lossy(kept).into_owned();
        if self.cut {
            text.push_str("...");
        }
        match self.kind {
            UnknownKey::TEXT => Some(PathSegment::Key(text)),
            UnknownKey::LITERAL => Some(PathSegment::KeyLiteral(text)),
            _ => None,
        }
    }
}

thread_local! {
    /// The unknown key whose value is being skipped on this thread.
    static UNKNOWN_KEY: Cell<UnknownKey> = const { Cell::new(UnknownKey::NONE) };
}

/// Keeps the unknown text key `s` for the [`skip_unknown`] that follows.
/// Out of line, so that the loop over known keys stays as it was.
#[inline(never)]
pub fn keep_unknown_text(s: &str) {
    UNKNOWN_KEY.set(UnknownKey::new(s, UnknownKey::TEXT));
}

/// Keeps the unknown key `k` of a struct with integer keys for the
/// [`skip_unknown`] that follows.
#[inline(never)]
pub fn keep_unknown_int(k: &IntKey) {
    UNKNOWN_KEY.set(UnknownKey::int(k));
}

/// Skips the value of the unknown key just kept by [`keep_unknown_text`]
/// or [`keep_unknown_int`]. An error raised while skipping it (nested too
/// deep, cut short, malformed) names the entry by its key, `["extra"]` or
/// `[9]`, as an error inside a known field names the field.
#[inline]
pub fn skip_unknown<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<()> {
    match d.skip() {
        Ok(()) => Ok(()),
        Err(e) => Err(unknown_failed(e)),
    }
}

#[cold]
#[inline(never)]
fn unknown_failed(e: Error) -> Error {
    match UNKNOWN_KEY.replace(UnknownKey::NONE).segment() {
        Some(seg) => e.within(seg),
        None => e,
    }
}

/// Skips the value of a text key kept for a `rest` map (of a flattened
/// struct) that has none: [`skip_unknown`] for a key already owned.
#[inline]
pub fn skip_rest_key<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    key: String,
) -> Result<()> {
    match d.skip() {
        Ok(()) => Ok(()),
        Err(e) => Err(e.within(PathSegment::Key(key))),
    }
}

/// The derived `decode_into` of a struct with named fields and text keys
/// and no `flatten` or `rest` field (ugorji's decode into a non-nil
/// struct): each field present in the input, in map or array form, is
/// decoded into its place by `field(id, d)`, and absent fields keep their
/// values. `hints` are the fields' keys in declaration order (a field's id
/// is its position), `lookup` gives the id of any other key.
///
/// Shared here rather than generated, so that a struct's fields are not
/// compiled a third time (after `decode`'s in-order steps and its
/// `FlattenDecode` impl) for a path that is not the hot one.
pub fn decode_fields_into<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    hints: &[KeyHint],
    lookup: fn(&str) -> Option<usize>,
    mut field: impl FnMut(usize, &mut Decoder<'de, R, F>) -> Result<()>,
) -> Result<()> {
    match d.peek_head_kind()? {
        Kind::Map => {
            let mut seq = d.map_begin()?;
            let unknown_err = d.options().error_on_unknown_field;
            // The field expected next: the one after the last read.
            let mut next = 0;
            // A field given twice is an error, as it is to `decode`.
            let mut seen = Seen::new(hints.len());
            while let Some(hit) =
                d.map_next_field(&mut seq, hints.get(next), |key, off, hinted| {
                    if hinted {
                        return Ok(Some((next, off)));
                    }
                    let text = key_text(key, off)?;
                    match lookup(text) {
                        Some(id) => Ok(Some((id, off))),
                        None if unknown_err => Err(unknown_field(text, off)),
                        None => {
                            keep_unknown_text(text);
                            Ok(None)
                        }
                    }
                })?
            {
                match hit {
                    Some((id, off)) => {
                        if !seen.insert(id) {
                            let name = hints.get(id).map_or("", |h| h.name().as_str());
                            return Err(duplicate_field(name, off));
                        }
                        next = id + 1;
                        field(id, d)?;
                    }
                    None => skip_unknown(d)?,
                }
            }
            d.map_end(seq)
        }
        Kind::Array => {
            let mut seq = d.array_begin()?;
            for id in 0..hints.len() {
                if !d.array_next(&mut seq)? {
                    break;
                }
                field(id, d)?;
            }
            d.struct_array_end(seq, hints.len())
        }
        kind => Err(d.mismatch(kind, "map or array (struct)")),
    }
}

/// The fields of one struct that [`decode_fields_into`] has read: a bit
/// each for up to 128 fields, a `Vec` beyond.
enum Seen {
    Bits(u128),
    Many(Vec<bool>),
}

impl Seen {
    fn new(fields: usize) -> Self {
        if fields <= 128 {
            Seen::Bits(0)
        } else {
            Seen::Many(vec![false; fields])
        }
    }

    /// Marks field `id`; false when it was already marked.
    #[inline]
    fn insert(&mut self, id: usize) -> bool {
        match self {
            Seen::Bits(bits) => {
                let bit = u32::try_from(id)
                    .ok()
                    .and_then(|i| 1u128.checked_shl(i))
                    .unwrap_or(0);
                let fresh = *bits & bit == 0;
                *bits |= bit;
                fresh
            }
            Seen::Many(seen) => seen.get_mut(id).is_none_or(|s| !std::mem::replace(s, true)),
        }
    }
}

/// Sorts entry names into canonical (bytewise) order. A name given twice
/// (a `rest` key equal to a fixed key) is a `DuplicateField` error
/// ([`rest_key_taken`]): the entry would be written twice.
#[inline]
pub fn sort_names(names: &mut [&str]) -> Result<()> {
    names.sort_unstable();
    match names.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(rest_key_taken(w[0])),
        None => Ok(()),
    }
}

/// The value of the struct field `name`, whose key is absent and whose
/// type has no [`Decode::missing`] value: with the `absent_as_empty`
/// option, its [`Decode::empty_value`]; else (or with none) a
/// `MissingField` error. One call, out of line, in derived code.
#[cold]
#[inline(never)]
pub fn absent_field<'de, T: Decode<'de>>(absent_as_empty: bool, name: &'static str) -> Result<T> {
    match absent_as_empty.then(T::empty_value).flatten() {
        Some(v) => Ok(v),
        None => Err(missing_field(name)),
    }
}

/// `MissingField(name)`.
#[cold]
pub fn missing_field(name: &'static str) -> Error {
    Error::new(ErrorKind::MissingField(name))
}

/// `DuplicateField(name)` at the decoder's offset.
#[cold]
pub fn duplicate_field(name: &'static str, offset: u64) -> Error {
    Error::new(ErrorKind::DuplicateField(Cow::Borrowed(name))).at(offset)
}

/// `DuplicateField(key)` for an unknown key that a `#[codec(rest)]` map
/// already holds, at the offset of its second occurrence: a rest map
/// keeps one value per key, and a repeated key is refused as a repeated
/// field is, rather than keeping only the last value.
#[cold]
pub fn duplicate_rest_key(key: &str, offset: u64) -> Error {
    Error::new(ErrorKind::DuplicateField(Cow::Owned(key.to_owned()))).at(offset)
}

/// A key read by [`Decoder::decode_key`](crate::Decoder::decode_key) that
/// matched no known name, as text: checked for UTF-8 here, so an unknown
/// key is held to the same rule as any other text string.
#[inline]
pub fn key_text(key: &[u8], offset: u64) -> Result<&str> {
    crate::str_from_utf8(key).map_err(|e| e.at(offset))
}

/// `UnknownField(key)` at the decoder's offset.
#[cold]
pub fn unknown_field(key: &str, offset: u64) -> Error {
    Error::new(ErrorKind::UnknownField(key.to_owned())).at(offset)
}

/// `UnknownVariant(tag)` at the decoder's offset, `tag` as it is shown: an
/// integer tag, or an item that is no tag described.
#[cold]
pub fn unknown_variant(tag: &str, offset: u64) -> Error {
    Error::new(ErrorKind::UnknownVariant(tag.to_owned())).at(offset)
}

/// `UnknownVariant` for a variant name, quoted (as an unknown field is),
/// at the decoder's offset.
#[cold]
pub fn unknown_variant_name(name: &str, offset: u64) -> Error {
    Error::new(ErrorKind::UnknownVariant(format!("{name:?}"))).at(offset)
}

/// A type mismatch for the next item at the decoder's offset.
#[cold]
pub fn mismatch(kind: Kind, expected: &'static str, offset: u64) -> Error {
    kind.mismatch(expected).at(offset)
}

/// `InvalidLength` for a tuple struct or tuple variant given too few items.
#[cold]
pub fn too_short(expected: usize, found: usize, offset: u64) -> Error {
    Error::new(ErrorKind::InvalidLength { expected, found }).at(offset)
}

/// An enum in map form with other than one entry.
#[cold]
pub fn enum_map_len(offset: u64) -> Error {
    Error::syntax("an enum in map form must have exactly one entry").at(offset)
}

/// A variant with a payload given as a bare tag (without its payload).
#[cold]
pub fn variant_needs_payload(name: &'static str, offset: u64) -> Error {
    Error::type_mismatch(
        "a one-entry map holding the variant's payload",
        "a bare tag",
    )
    .within(PathSegment::Variant(name))
    .at(offset)
}

/// Adds `::Variant` to an error's path.
#[cold]
pub fn in_variant(err: Error, name: &'static str) -> Error {
    err.within(PathSegment::Variant(name))
}

/// An integer struct key or enum tag as read from the input.
#[derive(Debug)]
pub enum IntKey {
    /// An integer (or a text string holding one, as JSON keys do).
    Int(i64),
    /// Anything else, described for an error message (the item was consumed).
    Other(String),
}

/// Reads an integer key: an integer item, or a text string holding a
/// decimal integer (JSON map keys). Other items are consumed and described.
pub fn read_int_key<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
) -> Result<IntKey> {
    match d.peek_kind()? {
        Kind::Int | Kind::Uint | Kind::BigInt => {
            let n = d.decode_i128()?;
            Ok(match i64::try_from(n) {
                Ok(n) => IntKey::Int(n),
                Err(_) => IntKey::Other(n.to_string()),
            })
        }
        Kind::Str => {
            let s = d.decode_str()?;
            Ok(match s.parse::<i64>() {
                Ok(n) => IntKey::Int(n),
                Err(_) => IntKey::Other(format!("{:?}", &*s)),
            })
        }
        // Tag 0 written as nil (Simple's `enc_zero_values_as_nil`).
        Kind::Nil if F::NIL_IS_ZERO => {
            d.decode_nil()?;
            Ok(IntKey::Int(0))
        }
        kind => {
            d.skip()?;
            Ok(IntKey::Other(format!("({kind})")))
        }
    }
}

impl IntKey {
    /// The key as text, for an error message.
    #[cold]
    pub fn describe(&self) -> String {
        match self {
            IntKey::Int(n) => n.to_string(),
            IntKey::Other(s) => s.clone(),
        }
    }
}

/// The derived encoding of a `#[codec(ext = N)]` type, written as the content
/// of its extension.
pub trait ExtBody {
    /// Writes the type's own (derived) encoding.
    fn encode_body<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()>;
}

/// The decoding half of [`ExtBody`].
pub trait ExtBodyDecode<'de>: Sized {
    /// Reads the type's own (derived) encoding.
    fn decode_body<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self>;
}

/// Encodes a `#[codec(ext = N)]` value's body (the extension's content).
pub struct ExtBodyRef<'a, T: ?Sized>(pub &'a T);

impl<T: ExtBody + ?Sized> Encode for ExtBodyRef<'_, T> {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        self.0.encode_body(e)
    }
}

/// Decodes a `#[codec(ext = N)]` value's body (the extension's content).
pub struct ExtBodyOwned<T>(pub T);

impl<'de, T: ExtBodyDecode<'de>> Decode<'de> for ExtBodyOwned<T> {
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        T::decode_body(d).map(ExtBodyOwned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(key: UnknownKey) -> String {
        let e = Error::eof();
        let e = match key.segment() {
            Some(seg) => e.within(seg),
            None => e,
        };
        e.path_string()
    }

    #[test]
    fn an_unknown_key_is_named_whole_up_to_48_bytes() {
        assert_eq!(named(UnknownKey::NONE), "");
        assert_eq!(
            named(UnknownKey::new("extra", UnknownKey::TEXT)),
            "[\"extra\"]"
        );
        let long = "k".repeat(48);
        assert_eq!(
            named(UnknownKey::new(&long, UnknownKey::TEXT)),
            format!("[{long:?}]")
        );
    }

    #[test]
    fn keys_of_every_short_length_are_named_whole() {
        // Up to 16 bytes a key is copied from a register, past it by length.
        for n in 0..=20 {
            for key in ["k".repeat(n), "é".repeat(n / 2)] {
                assert_eq!(
                    named(UnknownKey::new(&key, UnknownKey::TEXT)),
                    format!("[{key:?}]")
                );
            }
        }
    }

    #[test]
    fn a_longer_key_is_cut_at_a_character_boundary() {
        let long = format!("{}tail", "k".repeat(48));
        let cut = format!("[\"{}...\"]", "k".repeat(48));
        assert_eq!(named(UnknownKey::new(&long, UnknownKey::TEXT)), cut);
        // 'é' takes bytes 47 and 48: it is left out whole.
        let straddling = format!("{}é", "k".repeat(47));
        let cut = format!("[\"{}...\"]", "k".repeat(47));
        assert_eq!(named(UnknownKey::new(&straddling, UnknownKey::TEXT)), cut);
    }

    #[test]
    fn integer_keys_are_named_as_literals() {
        for n in [0, 9, -1, i64::MAX, i64::MIN] {
            assert_eq!(named(UnknownKey::int(&IntKey::Int(n))), format!("[{n}]"));
        }
        let other = IntKey::Other("\"nine\"".into());
        assert_eq!(named(UnknownKey::int(&other)), "[\"nine\"]");
    }

    #[test]
    fn the_kept_key_is_taken_by_the_failure_it_names() {
        keep_unknown_text("extra");
        assert_eq!(unknown_failed(Error::eof()).path_string(), "[\"extra\"]");
        // Taken: a later failure with no key kept names none.
        assert_eq!(unknown_failed(Error::eof()).path_string(), "");
        keep_unknown_int(&IntKey::Int(7));
        assert_eq!(unknown_failed(Error::eof()).path_string(), "[7]");
    }
}

//! [`Text`]: the text of a [`Value::Str`](crate::Value::Str), kept inline
//! when it is short.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, PathSegment, Read, Result, Write,
};

/// The longest text kept inside a [`Text`] itself.
const INLINE: usize = Text::MAX_INLINE;

/// The `len` of a [`Text`] on the heap (any value over [`INLINE`]).
const HEAP: u8 = u8::MAX;

/// The text of a [`Value::Str`](crate::Value::Str): an immutable string that
/// keeps up to 30 bytes inline and longer text in one heap allocation of
/// exactly its length.
///
/// Decoding a document into a [`Value`](crate::Value) makes one for every
/// text string and every key, and most of them are short (in
/// `twitter.json`, 13,172 of its 13,345 keys and 3,285 of its 4,754
/// strings): inline, they cost no allocation and no free. A `Text` is 31
/// bytes with alignment 1, so that it sits right after the `Value`'s own
/// tag and the value stays 32 bytes.
///
/// A `Text` reads as a `str` (it derefs to one), compares, orders and
/// hashes as one, and converts from and into `String` and `&str`:
///
/// ```
/// use codec_core::{Text, Value};
///
/// let t = Text::from("profile_sidebar_border_color");
/// assert_eq!(t, "profile_sidebar_border_color");
/// assert!(t.starts_with("profile"));
/// assert!(t.is_inline());
///
/// let v = Value::Str(t);
/// assert_eq!(v.as_str(), Some("profile_sidebar_border_color"));
///
/// let long = Text::from("a".repeat(40));
/// assert!(!long.is_inline());
/// let s: String = long.into();
/// assert_eq!(s.len(), 40);
/// ```
pub struct Text {
    /// The length of inline text (at most [`INLINE`]), or [`HEAP`].
    len: u8,
    body: Body,
}

/// A [`Text`]'s bytes, or where they are.
#[derive(Clone, Copy)]
#[repr(C)]
union Body {
    /// When `len <= INLINE`: the text in `inline[..len]`, zeros after it.
    inline: [u8; INLINE],
    /// When `len == HEAP`.
    heap: Heap,
}

/// The parts of a `Box<str>` (from [`Box::into_raw`]) that a heap
/// [`Text`] owns, unaligned so that `Text` has alignment 1.
#[derive(Clone, Copy)]
#[repr(C, packed)]
struct Heap {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: a `Text` is a `Box<str>` or an array of bytes: it owns its heap
// allocation alone (`Clone` copies the text; only `Drop` and
// `into_string` take the allocation back, each from a `Text` they own) and
// never changes it, so it can be sent and shared between threads as a
// `Box<str>` can. Exercised by `sent_and_shared_between_threads` below.
#[allow(unsafe_code)]
unsafe impl Send for Text {}
// SAFETY: as for `Send` above: `&Text` gives only `&str` access.
#[allow(unsafe_code)]
unsafe impl Sync for Text {}

impl Text {
    /// The longest text kept inline, in bytes. A caller that knows its
    /// text is no longer than this can say so in a branch of its own, so
    /// that the compiler builds the inline value straight where it goes.
    pub const MAX_INLINE: usize = 30;

    /// The empty text.
    pub const fn new() -> Text {
        Text {
            len: 0,
            body: Body {
                inline: [0; INLINE],
            },
        }
    }

    /// `s` inline, if it fits. The bytes are gathered in two registers
    /// (a word of the first 16 and one of the rest) and stored once: a
    /// copy through a buffer on the stack is read back in pieces that
    /// straddle its stores, and each such read waits for them to retire.
    #[inline(always)]
    fn inline(s: &str) -> Option<Text> {
        if s.len() > INLINE {
            return None;
        }
        Some(Text::inline_fitting(s))
    }

    /// `s` (at most 30 bytes) inline.
    #[inline(always)]
    fn inline_fitting(s: &str) -> Text {
        let (lo, hi) = Text::words(s.as_bytes());
        Text::from_words(s.len(), lo, hi)
    }

    /// `b` (at most 30 bytes) inline if it is all ASCII, else `None` (it
    /// may still be text: the caller checks it the general way). For
    /// decoders holding a short key's raw bytes: the check is one test of
    /// the words the text is gathered in anyway, not a call.
    #[inline(always)]
    pub(crate) fn inline_ascii(b: &[u8]) -> Option<Text> {
        let (lo, hi) = Text::words(b);
        const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);
        if (lo | hi) & HIGH != 0 {
            return None;
        }
        Some(Text::from_words(b.len(), lo, hi))
    }

    /// The bytes of `b` (at most 30) in two registers, zeros above them: a
    /// word of the first 16 and one of the rest.
    #[inline(always)]
    fn words(b: &[u8]) -> (u128, u128) {
        let n = b.len();
        debug_assert!(n <= INLINE);
        match (b.first_chunk::<16>(), b.last_chunk::<16>()) {
            // 17 to 30 bytes: the last 16 hold bytes 16.. in their top `n - 16`.
            (Some(head), Some(tail)) if n > 16 => (
                u128::from_le_bytes(*head),
                u128::from_le_bytes(*tail) >> (8 * (32 - n)),
            ),
            _ => (crate::short_word(b), 0),
        }
    }

    /// The inline text of `n` bytes held in `words` (valid UTF-8: the
    /// callers took them from a `&str` or checked that they are ASCII).
    #[inline(always)]
    fn from_words(n: usize, lo: u128, hi: u128) -> Text {
        let mut inline = [0; INLINE];
        inline[..16].copy_from_slice(&lo.to_le_bytes());
        inline[16..].copy_from_slice(&hi.to_le_bytes()[..INLINE - 16]);
        Text {
            len: n.min(INLINE) as u8,
            body: Body { inline },
        }
    }

    /// `s` in one allocation of its length. The allocation and copy are a
    /// call that returns the pointer and length in registers; the `Text`
    /// is built around them here, in the caller, straight where it goes.
    /// Built out of line, it came back through a copy on the stack, read
    /// back whole right after its pieces were written, which waited for
    /// them and for the copy of the text before them to reach the cache.
    #[inline(always)]
    fn heap(s: &str) -> Text {
        Text::from_box(boxed(s))
    }

    /// `s` on the heap, whatever its length.
    #[inline(always)]
    fn from_box(s: Box<str>) -> Text {
        let len = s.len();
        let ptr = Box::into_raw(s).cast::<u8>();
        Text {
            len: HEAP,
            body: Body {
                heap: Heap { ptr, len },
            },
        }
    }

    /// The parts of the `Box<str>` of a heap text, `None` if it is inline.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn heap_parts(&self) -> Option<Heap> {
        if self.len == HEAP {
            // SAFETY: `len == HEAP` only in a `Text` made by `from_box`,
            // which wrote `heap` (and nothing changes a `Text` after).
            Some(unsafe { self.body.heap })
        } else {
            None
        }
    }

    /// The text as a `str`.
    #[inline]
    #[allow(unsafe_code)]
    pub fn as_str(&self) -> &str {
        let bytes = match self.heap_parts() {
            // SAFETY: `ptr` and `len` are those of the `Box<str>` this
            // `Text` owns (`from_box`), freed only when the `Text` is
            // dropped or consumed, so alive for as long as `&self`; nothing
            // writes to it.
            Some(Heap { ptr, len }) => unsafe { std::slice::from_raw_parts(ptr, len) },
            // SAFETY: `len <= INLINE` only in a `Text` made by `new` or
            // `from_words`, which wrote `inline` whole.
            None => unsafe { &self.body.inline[..usize::from(self.len)] },
        };
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        // SAFETY: heap bytes are a `Box<str>`'s; inline ones were copied
        // by `Text::inline_fitting` from a whole `&str` or checked to be
        // ASCII by `Text::inline_ascii`, and nothing changes them after
        // (`Text` has no mutating method): valid UTF-8 either way.
        // Exercised by every test that decodes a string into a `Value` and
        // by the tests below, at every length around the inline limit.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }

    /// Whether the text is kept inline (no heap allocation): 30 bytes or
    /// fewer.
    pub fn is_inline(&self) -> bool {
        self.len != HEAP
    }

    /// The text as a `String` (without a copy when it is on the heap).
    #[allow(unsafe_code)]
    pub fn into_string(self) -> String {
        let Some(Heap { ptr, len }) = self.heap_parts() else {
            return self.as_str().to_owned();
        };
        // The allocation goes to the `String`: `self` must not free it.
        std::mem::forget(self);
        // SAFETY: `ptr` and `len` came from `Box::into_raw` of a
        // `Box<str>` (`from_box`) that only this `Text` owned, and it is
        // forgotten above, so the box is rebuilt once.
        unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len) as *mut str) }
            .into_string()
    }
}

impl Drop for Text {
    #[inline]
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        if let Some(Heap { ptr, len }) = self.heap_parts() {
            // SAFETY: as in `into_string`: the parts of the `Box<str>`
            // this `Text` alone owns, rebuilt once, as it goes.
            drop(unsafe {
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len) as *mut str)
            });
        }
    }
}

impl Clone for Text {
    #[inline]
    fn clone(&self) -> Self {
        match self.heap_parts() {
            Some(_) => Text::heap(self.as_str()),
            None => Text {
                len: self.len,
                body: self.body,
            },
        }
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::new()
    }
}

impl Deref for Text {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

impl AsRef<[u8]> for Text {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// A `Text` hashes as its `str`, so maps keyed by `Text` can be looked up by `&str`.
impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self
    }
}

/// `s` copied into a `Box<str>` of its length, out of line (see
/// [`Text::heap`]).
#[inline(never)]
fn boxed(s: &str) -> Box<str> {
    Box::from(s)
}

impl From<&str> for Text {
    /// Inline in the caller (out of line, the text comes back through a
    /// copy on the stack, read back whole right after its pieces were
    /// written); the allocation of longer text is a call.
    #[inline(always)]
    fn from(s: &str) -> Self {
        if s.len() <= INLINE {
            Text::inline_fitting(s)
        } else {
            Text::heap(s)
        }
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Self {
        Text::from(s.as_str())
    }
}

/// Short text is copied inline (and the `String` freed); longer text keeps
/// the `String`'s buffer, shrunk to its length.
impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::inline(&s).unwrap_or_else(|| Text::from_box(s.into_boxed_str()))
    }
}

impl From<Box<str>> for Text {
    fn from(s: Box<str>) -> Self {
        Text::inline(&s).unwrap_or_else(|| Text::from_box(s))
    }
}

impl From<char> for Text {
    fn from(c: char) -> Self {
        Text::from(c.encode_utf8(&mut [0; 4]) as &str)
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        t.into_string()
    }
}

impl std::str::FromStr for Text {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Ok(Text::from(s))
    }
}

impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

/// `PartialEq` both ways between `Text` and `str`, `&str` and `String`.
macro_rules! eq_with {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Text {
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<Text> for $t {
            fn eq(&self, other: &Text) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
eq_with!(str, &str, String);

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

/// As its `str`.
impl Encode for Text {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        self.as_str().encode(e)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.as_str().is_empty_value()
    }
    #[inline]
    fn canonical_key(&self) -> crate::CanonicalKey<'_> {
        self.as_str().canonical_key()
    }
    const CANONICAL_ORD: bool = <str as Encode>::CANONICAL_ORD;
}

impl<'de> Decode<'de> for Text {
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        Ok(Text::from(&*d.decode_str()?))
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::Key(self.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_keeps_value_at_32_bytes() {
        assert_eq!(std::mem::size_of::<Text>(), 31);
        assert_eq!(std::mem::align_of::<Text>(), 1);
        assert_eq!(std::mem::size_of::<crate::Value>(), 32);
        assert_eq!(std::mem::size_of::<Option<crate::Value>>(), 32);
        // The raw pointer inside takes away no auto trait a `Value` had.
        fn auto_traits<
            T: Send + Sync + Unpin + std::panic::UnwindSafe + std::panic::RefUnwindSafe,
        >() {
        }
        auto_traits::<Text>();
        auto_traits::<crate::Value>();
    }

    /// Heap and inline texts moved to other threads, and shared with them,
    /// read as they went in; clones outlive their originals, and each is
    /// freed once (a double free or a use after free aborts the test
    /// under the system allocator's checks, and Miri reports it).
    #[test]
    fn sent_and_shared_between_threads() {
        let words: Vec<String> = (0..64)
            .map(|n| "é".repeat(n) + &"a".repeat(n % 3))
            .collect();
        let texts: Vec<Text> = words.iter().map(Text::from).collect();
        let shared = std::sync::Arc::new(texts.clone());
        let moved = std::thread::spawn(move || texts.into_iter().map(String::from).collect());
        let reader = {
            let shared = std::sync::Arc::clone(&shared);
            std::thread::spawn(move || shared.iter().map(|t| t.len()).sum::<usize>())
        };
        let back: Vec<String> = moved.join().unwrap();
        assert_eq!(back, words);
        let total: usize = words.iter().map(String::len).sum();
        assert_eq!(reader.join().unwrap(), total);
        let clones: Vec<Text> = shared.iter().cloned().collect();
        drop(shared);
        for (t, w) in clones.iter().zip(&words) {
            assert_eq!(t, w);
            assert_eq!(t.is_inline(), w.len() <= INLINE);
        }
    }

    /// Every length around the inline limit, in one-, two-, three- and
    /// four-byte characters, from each constructor: the text reads back as
    /// it went in, inline exactly up to 30 bytes.
    #[test]
    fn every_length_reads_back_from_every_constructor() {
        for unit in ["a", "é", "€", "😀"] {
            for n in 0..=40 / unit.len() {
                let s = unit.repeat(n);
                let made = [
                    Text::from(s.as_str()),
                    Text::from(&s),
                    Text::from(s.clone()),
                    Text::from(Box::<str>::from(s.as_str())),
                    s.parse().unwrap(),
                ];
                for t in made {
                    assert_eq!(t.as_str(), s, "{unit} x {n}");
                    assert_eq!(t.len(), s.len());
                    assert_eq!(t.is_inline(), s.len() <= INLINE, "{unit} x {n}");
                    assert_eq!(t.clone().into_string(), s);
                    assert_eq!(String::from(t), s);
                }
            }
        }
        assert_eq!(Text::from('€'), "€");
        assert_eq!(Text::new(), "");
        assert_eq!(Text::default(), Text::new());
    }

    /// ASCII bytes of every inline length come back as that text; a byte
    /// of 0x80 or more at any position (valid UTF-8 or not) gives `None`.
    #[test]
    fn inline_ascii_takes_exactly_ascii() {
        for n in 0..=INLINE {
            let s: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            let t = Text::inline_ascii(s.as_bytes()).unwrap();
            assert_eq!(t.as_str(), s);
            assert!(t.is_inline());
            for at in 0..n {
                for high in [0x80, 0xc3, 0xff] {
                    let mut b = s.clone().into_bytes();
                    b[at] = high;
                    assert!(Text::inline_ascii(&b).is_none(), "{n} {at} {high:x}");
                }
            }
        }
        assert!(Text::inline_ascii("é".as_bytes()).is_none());
        assert_eq!(Text::inline_ascii(b"\0\x7f").unwrap(), "\0\x7f");
    }

    #[test]
    fn compares_orders_and_hashes_as_str() {
        use std::collections::hash_map::DefaultHasher;
        use std::collections::{BTreeSet, HashSet};
        let words = [
            "",
            "a",
            "ab",
            "b",
            "é",
            "short",
            &"x".repeat(23),
            &"x".repeat(30),
        ];
        for a in words {
            for b in words {
                let (ta, tb) = (Text::from(a), Text::from(b));
                assert_eq!(ta.cmp(&tb), a.cmp(b), "{a:?} {b:?}");
                assert_eq!(ta == tb, a == b);
                assert_eq!(ta == b, a == b);
                assert_eq!(a == tb, a == b);
                let owned: String = b.to_owned();
                assert_eq!(ta == owned, a == b);
                assert_eq!(owned == ta, a == b);
            }
            let hash = |h: &dyn Fn(&mut DefaultHasher)| {
                let mut s = DefaultHasher::new();
                h(&mut s);
                s.finish()
            };
            assert_eq!(hash(&|s| Text::from(a).hash(s)), hash(&|s| a.hash(s)));
        }
        let set: HashSet<Text> = words.iter().map(|w| Text::from(*w)).collect();
        assert!(set.contains("short"));
        let sorted: BTreeSet<Text> = words.iter().map(|w| Text::from(*w)).collect();
        assert!(sorted.contains("é"));
        assert_eq!(format!("{:?}", Text::from("a\"b")), "\"a\\\"b\"");
        assert_eq!(Text::from("a\"b").to_string(), "a\"b");
    }
}

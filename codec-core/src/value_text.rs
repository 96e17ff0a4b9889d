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

/// The text of a [`Value::Str`](crate::Value::Str): an immutable string that
/// keeps up to 22 bytes inline and longer text in one heap allocation of
/// exactly its length.
///
/// Decoding a document into a [`Value`](crate::Value) makes one for every
/// text string and every key, and most of them are short (in
/// `twitter.json`, 12,134 of its 13,345 keys and 2,859 of its 4,754
/// strings): inline, they cost no allocation and no free, and the value
/// stays 32 bytes.
///
/// A `Text` reads as a `str` (it derefs to one), compares, orders and
/// hashes as one, and converts from and into `String` and `&str`:
///
/// ```
/// use codec_core::{Text, Value};
///
/// let t = Text::from("screen_name");
/// assert_eq!(t, "screen_name");
/// assert!(t.starts_with("screen"));
/// assert!(t.is_inline());
///
/// let v = Value::Str(t);
/// assert_eq!(v.as_str(), Some("screen_name"));
///
/// let long = Text::from("a".repeat(40));
/// assert!(!long.is_inline());
/// let s: String = long.into();
/// assert_eq!(s.len(), 40);
/// ```
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    /// `buf[..len]` is the text: `len <= INLINE`, and those bytes are the
    /// bytes of a `str` (only [`Text::inline`] makes this variant).
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    Heap(Box<str>),
}

impl Text {
    /// The longest text kept inline, in bytes. A caller that knows its
    /// text is no longer than this can say so in a branch of its own, so
    /// that the compiler builds the inline value straight where it goes.
    pub const MAX_INLINE: usize = 22;

    /// The empty text.
    pub const fn new() -> Text {
        Text(Repr::Inline {
            len: 0,
            buf: [0; INLINE],
        })
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

    /// `s` (at most 22 bytes) inline.
    #[inline(always)]
    fn inline_fitting(s: &str) -> Text {
        let (lo, hi) = Text::words(s.as_bytes());
        Text::from_words(s.len(), lo, hi)
    }

    /// `b` (at most 22 bytes) inline if it is all ASCII, else `None` (it
    /// may still be text: the caller checks it the general way). For
    /// decoders holding a short key's raw bytes: the check is one test of
    /// the words the text is gathered in anyway, not a call.
    #[inline(always)]
    pub(crate) fn inline_ascii(b: &[u8]) -> Option<Text> {
        let (lo, hi) = Text::words(b);
        const HIGH: u64 = 0x8080_8080_8080_8080;
        if (lo as u64 | (lo >> 64) as u64 | hi) & HIGH != 0 {
            return None;
        }
        Some(Text::from_words(b.len(), lo, hi))
    }

    /// The bytes of `b` (at most 22) in two registers, zeros above them: a
    /// word of the first 16 and one of the rest.
    #[inline(always)]
    fn words(b: &[u8]) -> (u128, u64) {
        let n = b.len();
        debug_assert!(n <= INLINE);
        match (b.first_chunk::<16>(), b.last_chunk::<8>()) {
            // 17 to 22 bytes: the last 8 hold bytes 16.. in their top `n - 16`.
            (Some(head), Some(tail)) if n > 16 => (
                u128::from_le_bytes(*head),
                u64::from_le_bytes(*tail) >> (8 * (24 - n)),
            ),
            _ => (crate::short_word(b), 0),
        }
    }

    /// The inline text of `n` bytes held in `words` (valid UTF-8: the
    /// callers took them from a `&str` or checked that they are ASCII).
    #[inline(always)]
    fn from_words(n: usize, lo: u128, hi: u64) -> Text {
        let mut buf = [0; INLINE];
        buf[..16].copy_from_slice(&lo.to_le_bytes());
        buf[16..].copy_from_slice(&hi.to_le_bytes()[..INLINE - 16]);
        Text(Repr::Inline {
            len: n.min(INLINE) as u8,
            buf,
        })
    }

    /// `s` in one allocation of its length.
    #[inline(never)]
    fn heap(s: &str) -> Text {
        Text(Repr::Heap(Box::from(s)))
    }

    /// The text as a `str`.
    #[inline]
    #[allow(unsafe_code)]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, buf } => {
                let bytes = &buf[..usize::from(*len)];
                debug_assert!(std::str::from_utf8(bytes).is_ok());
                // SAFETY: the makers of this variant (`Text::inline_fitting`
                // and `Text::inline_ascii`, through `Text::from_words`)
                // copied these `len` bytes from a whole `&str` or checked
                // that they are all ASCII, and nothing
                // changes them afterwards (`Text` has no mutating method):
                // they are valid UTF-8. Exercised by every test that decodes
                // a short string into a `Value` and by the tests below.
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            Repr::Heap(s) => s,
        }
    }

    /// Whether the text is kept inline (no heap allocation): 22 bytes or
    /// fewer.
    pub fn is_inline(&self) -> bool {
        matches!(self.0, Repr::Inline { .. })
    }

    /// The text as a `String` (without a copy when it is on the heap).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Inline { .. } => self.as_str().to_owned(),
            Repr::Heap(s) => s.into_string(),
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
        Text::inline(&s).unwrap_or_else(|| Text(Repr::Heap(s.into_boxed_str())))
    }
}

impl From<Box<str>> for Text {
    fn from(s: Box<str>) -> Self {
        Text::inline(&s).unwrap_or(Text(Repr::Heap(s)))
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
        assert_eq!(std::mem::size_of::<Text>(), 24);
        assert_eq!(std::mem::size_of::<crate::Value>(), 32);
    }

    /// Every length around the inline limit, in one-, two-, three- and
    /// four-byte characters, from each constructor: the text reads back as
    /// it went in, inline exactly up to 22 bytes.
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

//! # codec-binc: the Binc handle of the codec family
//!
//! [Binc](https://github.com/ugorji/binc) is the compact, self-describing
//! binary format of Go's `ugorji/go/codec`. Every item starts with one
//! descriptor byte whose high nibble says the kind (special value, integer,
//! float, string, bytes, array, map, timestamp, symbol, extension) and whose
//! low nibble says the width or length. It writes small integers in one byte,
//! prunes float64 trailing zero bytes, carries a timestamp with its UTC offset,
//! and can intern repeated map keys as *symbols*.
//!
//! This crate gives [`BincHandle`] and its drivers [`BincEncoder`] /
//! [`BincDecoder`]; it writes exactly the bytes ugorji/go/codec v1.2.14 writes
//! under the same options (checked against its golden vectors), except where
//! ugorji's output would decode wrongly (below).
//!
//! ```
//! use codec_binc::BincHandle;
//! use codec_core::{Value, from_slice, to_vec};
//! use std::collections::BTreeMap;
//!
//! let h = BincHandle::default().canonical(true);
//! let mut m = BTreeMap::new();
//! m.insert("a".to_string(), vec![1i64, -2, 300]);
//! let bytes = to_vec(&m, &h)?;
//! assert_eq!(bytes, [0x75, 0x45, b'a', 0x67, 0x90, 0x20, 0x02, 0x11, 0x01, 0x2c]);
//!
//! let back: BTreeMap<String, Vec<i64>> = from_slice(&bytes, &h)?;
//! assert_eq!(back, m);
//!
//! // Without a type: non-negative integers come back unsigned, as in ugorji.
//! let v: Value = from_slice(&bytes, &h)?;
//! assert_eq!(v.get("a").and_then(|a| a.as_array()).map(|a| a[0].clone()), Some(Value::Uint(1)));
//!
//! // Symbols: repeated map keys are written once, then referenced by id.
//! let hs = BincHandle::default().as_symbols(true);
//! let mut row = BTreeMap::new();
//! row.insert("name".to_string(), 1u8);
//! let rows = vec![row.clone(), row.clone()];
//! let bytes = to_vec(&rows, &hs)?;
//! assert_eq!(bytes, [0x66, 0x75, 0xb4, 0x01, 0x04, b'n', b'a', b'm', b'e', 0x90, 0x75, 0xb0, 0x01, 0x90]);
//! assert_eq!(from_slice::<Vec<BTreeMap<String, u8>>, _>(&bytes, &hs)?, rows);
//! # Ok::<(), codec_core::Error>(())
//! ```
//!
//! ## What a Rust value becomes
//!
//! | Rust | Binc |
//! |---|---|
//! | `None`, `()`-like nil, Go's zero [`Time`] | `00` |
//! | `false` / `true` | `01` / `02` |
//! | `0` (any integer type) / `-1` | `07` / `08` |
//! | 1..=16 | `90`..`9f` |
//! | other integers | `1N` + big-endian value, `2N` + big-endian magnitude |
//! | ±0.0, NaN, ±Inf | `06`, `03`, `04` / `05` |
//! | `f32` | `31` + 4 bytes |
//! | `f64` | `3b l` + up to 6 leading bytes, or `33` + 8 bytes |
//! | `str` / `String` | `4x` (a symbol `bx` in map-key position with [`BincHandle::as_symbols`]) |
//! | `Vec<u8>`, `[u8; N]`, `&[u8]` | `5x` |
//! | sequences, tuples | `6x` |
//! | maps, structs | `7x` |
//! | [`Time`], `SystemTime` | `8x` timestamp with the UTC offset in minutes |
//! | extensions | `Fx` length, tag byte, data |
//!
//! Decoding into [`codec_core::Value`] follows ugorji's `interface{}` choices
//! (binc.md §12): `07`, `9x` and `1x` are [`Value::Uint`](codec_core::Value::Uint),
//! `08` and `2x` are [`Value::Int`](codec_core::Value::Int), `31` is
//! [`Value::F32`](codec_core::Value::F32) and every other float form
//! (including the specials `03`..`06`) is [`Value::F64`](codec_core::Value::F64);
//! strings and symbols are [`Value::Str`](codec_core::Value::Str).
//! Decoding into a typed target accepts every form ugorji accepts: nil is the
//! zero value, integers from integral floats, floats from integers, strings from
//! byte arrays and symbols, non-minimal lengths and widths.
//!
//! ## Symbols
//!
//! With [`BincHandle::as_symbols`] (ugorji's `AsSymbols = 1`), string map keys
//! and struct field names of two bytes or more become symbols: the first use
//! defines an id (from 1, one byte up to 255, two bytes after), later uses
//! write only the id. Map values, array items and top-level strings never
//! become symbols. The table lives in one [`BincEncoder`] (one
//! [`codec_core::Encoder`]) and persists across values written through it;
//! likewise in one [`BincDecoder`]. Canonical sorting of keys without a natural
//! order (`Value`, structs) sorts them by their bytes without symbols, then
//! writes each key with this stream's table. ugorji writes the side
//! encoder's bytes as they are, symbol ids from the side encoder's own table
//! included, which a decoder then reads against the wrong table.
//!
//! ## Differences from ugorji and from the published spec
//!
//! - **Negative integers with a magnitude in 0xFF80_0000..=0xFFFF_FFFF**
//!   (−4 294 967 295..=−4 286 578 688): ugorji prunes the magnitude as if it were
//!   a two's-complement number and writes a wrong value (−0xFFFF_FFFF becomes
//!   `20 ff`, which reads back as −255). We write the full four-byte magnitude
//!   (`23 ff ff ff ff`), which ugorji also reads correctly. Every other integer
//!   is byte-identical.
//! - **Symbol ids running out**: ugorji's 16-bit id counter wraps after 65 535
//!   symbols and redefines ids still in use, so later references decode to the
//!   wrong text. We stop defining symbols at id 65 535 and write further new
//!   keys as plain strings (existing symbols are still referenced).
//! - **`AsSymbols`** is a `bool` here: ugorji's values 0 ("library decides") and
//!   2 ("never") both mean no symbols in the versions we match.
//! - **Extension tags** above 255 are an encode error; ugorji silently writes
//!   the low 8 bits, which decodes as another tag. A plain byte array where an
//!   extension is expected is not accepted by [`BincDecoder`]'s `read_ext`
//!   (the typed extension code sees the kind and may accept it).
//! - **Integers 2^63..2^64−2 read into `i64`**: ugorji silently wraps them to
//!   negative numbers; we return an out-of-range error.
//! - **Timestamp offsets** are whole minutes on the wire: a sub-minute offset is
//!   truncated toward zero (as ugorji does); an offset of zero minutes reads back
//!   as UTC (`offset() == None`), as ugorji reads it. Offsets beyond ±8191
//!   minutes (the 14-bit field) are an encode error.
//! - **NaN** is written as `03` (payload lost) and read back as Go's
//!   `math.NaN()` (bits `7ff8000000000001`), as ugorji does; **−0.0** is written
//!   as `06` and reads back as +0.0.
//! - A reference to a **symbol id never defined** reads as the empty string, as
//!   in ugorji (the input is not rejected).
//! - From the **published spec**: integers wider than 64 bits, binary16 and
//!   extended floats, decimals and UTF-16/32 strings are decode errors (ugorji
//!   never writes them either); zero is written as `07`, never `10 00` (both are
//!   read); the timestamp zone is a *signed* 14-bit minute count.
//!
//! [`Time`]: codec_core::Time

mod decode;
mod encode;

pub use decode::BincDecoder;
pub use encode::BincEncoder;

use codec_core::{Handle, Options, Result, Write};

/// Binc with the shared options and Binc's own.
///
/// ```
/// use codec_binc::BincHandle;
/// let h = BincHandle::default().canonical(true).as_symbols(true);
/// assert!(h.options.encode.canonical && h.as_symbols);
/// ```
#[derive(Debug, Clone)]
pub struct BincHandle {
    /// Options shared by every handle (canonical order, limits, ...).
    pub options: Options,
    /// Write string map keys and struct field names of two bytes or more as
    /// symbols (ugorji's `AsSymbols = 1`). Default `false`.
    pub as_symbols: bool,
    /// Most distinct symbols one decoder accepts in its table; defining one
    /// more is a `LengthLimitExceeded` error naming `max_symbols`. Default
    /// [`MAX_SYMBOL_IDS`] (every id Binc can address; ugorji has no limit).
    /// The table holds copies of the symbol texts, so its memory is bounded
    /// by the input read, plus about 48 bytes per symbol.
    pub max_symbols: usize,
}

/// The number of distinct symbol ids Binc can address (ids are 16 bits).
pub const MAX_SYMBOL_IDS: usize = 1 << 16;

/// Most bytes of text a decoder copies out of symbol references per byte
/// of input it has read; past that, a `LengthLimitExceeded` error naming
/// `symbol_expansion`. A reference (two or three bytes) stands for its
/// symbol's whole text, so without a bound an input of n bytes (one long
/// symbol and many references to it) could make a decoder copy, and the
/// value decoded hold, about n² bytes. Symbols that ugorji writes (map keys
/// and field names) expand a document by far less.
pub const SYMBOL_EXPANSION: u64 = 64;

impl Default for BincHandle {
    fn default() -> Self {
        BincHandle {
            options: Options::default(),
            as_symbols: false,
            max_symbols: MAX_SYMBOL_IDS,
        }
    }
}

impl BincHandle {
    /// A handle with default options.
    pub fn new() -> Self {
        BincHandle::default()
    }

    /// Replaces the shared options.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Sets canonical (sorted, deterministic) map output: ugorji's `Canonical`.
    pub fn canonical(mut self, on: bool) -> Self {
        self.options.encode.canonical = on;
        self
    }

    /// Sets [`BincHandle::as_symbols`].
    pub fn as_symbols(mut self, on: bool) -> Self {
        self.as_symbols = on;
        self
    }

    /// Sets [`BincHandle::max_symbols`].
    pub fn max_symbols(mut self, n: usize) -> Self {
        self.max_symbols = n;
        self
    }
}

impl Handle for BincHandle {
    type Enc = BincEncoder;
    type Dec = BincDecoder;

    fn options(&self) -> &Options {
        &self.options
    }

    fn enc_format(&self) -> BincEncoder {
        BincEncoder::new(self.as_symbols)
    }

    fn dec_format(&self) -> BincDecoder {
        BincDecoder::new().with_max_symbols(self.max_symbols)
    }
}

pub(crate) const VD_STRING: u8 = 0x4;
pub(crate) const VD_BYTES: u8 = 0x5;
pub(crate) const VD_ARRAY: u8 = 0x6;
pub(crate) const VD_MAP: u8 = 0x7;
pub(crate) const VD_CUSTOM_EXT: u8 = 0xF;

/// Bits of Go's `math.NaN()`, what ugorji reads `03` as.
pub(crate) const GO_NAN_BITS: u64 = 0x7FF8_0000_0000_0001;

/// Writes a struct field's name (a constant where this is inlined) as a
/// string of kind `vd` (its [`container_header`] and bytes): together
/// ([`Write::write_headed`]) up to a 2-byte length, as the header and then
/// the bytes beyond. Not for string values, whose lengths are known only
/// at run time (see msgpack's `str_item`).
#[inline(always)]
pub(crate) fn container_bytes<W: Write>(w: &mut W, vd: u8, v: &[u8]) -> Result<()> {
    let hi = vd << 4;
    let n = v.len();
    let (head, head_len) = if n < 12 {
        (u32::from(hi | (n as u8 + 4)), 1)
    } else if n <= 0xFF {
        (u32::from(hi) | (n as u32) << 8, 2)
    } else if let Ok(n) = u16::try_from(n) {
        (u32::from(hi | 1) | u32::from(n.swap_bytes()) << 8, 3)
    } else {
        return container_bytes_long(w, vd, v);
    };
    w.write_headed(head, head_len, v)
}

/// [`container_bytes`] with a 4- or 8-byte length: out of line, so that
/// the common case makes no call but tail calls.
#[inline(never)]
fn container_bytes_long<W: Write>(w: &mut W, vd: u8, v: &[u8]) -> Result<()> {
    container_header(w, vd, v.len() as u64)?;
    w.write_all(v)
}

/// Writes the header of a container of kind `vd` and length `len` (binc §5):
/// embedded for lengths below 12, else the smallest of 1/2/4/8 bytes. The
/// one- and two-byte headers inline, the wider ones out of line.
#[inline(always)]
pub(crate) fn container_header<W: Write>(w: &mut W, vd: u8, len: u64) -> Result<()> {
    let hi = vd << 4;
    if len < 12 {
        w.write_byte(hi | (len as u8 + 4))
    } else if len <= 0xFF {
        w.write_small([hi, len as u8])
    } else {
        container_header_wide(w, hi, len)
    }
}

/// [`container_header`] with a 2- to 8-byte length (`hi`: the kind's high nibble).
#[inline(never)]
fn container_header_wide<W: Write>(w: &mut W, hi: u8, len: u64) -> Result<()> {
    if len <= 0xFFFF {
        let [a, b] = (len as u16).to_be_bytes();
        w.write_small([hi | 1, a, b])
    } else if len <= 0xFFFF_FFFF {
        let [a, b, c, d] = (len as u32).to_be_bytes();
        w.write_small([hi | 2, a, b, c, d])
    } else {
        let [a, b, c, d, e, f, g, h] = len.to_be_bytes();
        w.write_small([hi | 3, a, b, c, d, e, f, g, h])
    }
}

//! # codec-simple: the Simple handle of the codec family
//!
//! "Simple" is the minimal binary format of Go's `ugorji/go/codec`
//! (`SimpleHandle`): one descriptor byte per item, big-endian numbers,
//! integers as sign + magnitude in 1, 2, 4 or 8 bytes, floats at their own
//! width, containers as a base descriptor plus a length-of-length code, and
//! time as Go's own `time.Time.MarshalBinary` layout.
//!
//! This crate gives [`SimpleHandle`] and its drivers [`SimpleEncoder`] /
//! [`SimpleDecoder`]; it writes exactly the bytes ugorji/go/codec v1.2.14 writes
//! under the same options (checked against its golden vectors).
//!
//! ```
//! use codec_simple::SimpleHandle;
//! use codec_core::{Value, from_slice, to_vec};
//! use std::collections::BTreeMap;
//!
//! let h = SimpleHandle::default();
//! let mut m = BTreeMap::new();
//! m.insert("k".to_string(), -1i64);
//! let bytes = to_vec(&m, &h)?;
//! assert_eq!(bytes, [0xf1, 0x01, 0xd9, 0x01, b'k', 0x0c, 0x01]);
//! assert_eq!(from_slice::<BTreeMap<String, i64>, _>(&bytes, &h)?, m);
//!
//! // ugorji's EncZeroValuesAsNil: false, 0, 0.0 and "" are written as nil,
//! // except as map keys; typed decoding turns nil back into the zero value.
//! let hz = SimpleHandle::default().enc_zero_values_as_nil(true);
//! let bytes = to_vec(&(0u32, "", true), &hz)?;
//! assert_eq!(bytes, [0xe9, 0x03, 0x01, 0x01, 0x03]);
//! assert_eq!(from_slice::<(u32, String, bool), _>(&bytes, &hz)?, (0, String::new(), true));
//! let v: Value = from_slice(&bytes, &hz)?;
//! assert_eq!(v, Value::Array(vec![Value::Nil, Value::Nil, Value::Bool(true)]));
//! # Ok::<(), codec_core::Error>(())
//! ```
//!
//! ## Wire summary
//!
//! | descriptor | item |
//! |---|---|
//! | `01` / `02` / `03` | nil / false / true |
//! | `04` + 4 bytes, `05` + 8 bytes | float32, float64 (NaN payloads and −0.0 kept) |
//! | `08`..`0b` + 1/2/4/8 bytes | non-negative integer |
//! | `0c`..`0f` + 1/2/4/8 bytes | negative integer, by magnitude |
//! | `18` N + N bytes | time: Go `MarshalBinary` (seconds from year 1, nanos, offset minutes, `ffff` = UTC) |
//! | `d8`..`dc` | string (`d8` empty; else a 1/2/4/8-byte length, then the bytes) |
//! | `e0`..`e4` | byte array |
//! | `e8`..`ec` | array (length in elements) |
//! | `f0`..`f4` | map (length in pairs) |
//! | `f8`..`fc` | extension: length, tag byte, data |
//!
//! Decoding into [`codec_core::Value`] follows ugorji's `interface{}` choices:
//! `08`..`0b` are [`Value::Uint`](codec_core::Value::Uint), `0c`..`0f`
//! [`Value::Int`](codec_core::Value::Int), `04` [`Value::F32`](codec_core::Value::F32),
//! `05` [`Value::F64`](codec_core::Value::F64), `18` [`Value::Time`](codec_core::Value::Time).
//! Typed targets read nil as their zero value (so `enc_zero_values_as_nil`
//! output round-trips), integers from integral floats, floats from integers,
//! strings from byte arrays and back, and non-minimal widths.
//!
//! ## Differences from ugorji and from the published spec
//!
//! - **Descriptor checking**: ugorji's string, bytes, array and map readers do
//!   not check the descriptor group (a map header read as a string, or `08 05`
//!   read as `""` leaving `05` behind). We require the right group, as the
//!   spec notes recommend; everything ugorji *writes* is still read.
//! - **Time offsets with a sub-minute part** (version-2 layout): ugorji's
//!   decoder (Go's `UnmarshalBinary`) adds the seconds byte as *unsigned*, so a
//!   −30 s offset reads back as +226 s; we read it as the signed byte Go wrote.
//!   Offsets of exactly −1 minute cannot be written (Go refuses them too).
//!   Nanoseconds of a second or more in a time payload are an error.
//! - **Zone identity**: Go may read an offset as `time.Local`; a Rust [`Time`]
//!   has no zone database, so `ffff` reads as UTC (`offset() == None`) and every
//!   other offset as a fixed offset (`Some(secs)`, including `Some(0)`).
//! - **Extension tags** above 255 are an encode error (ugorji writes the low 8
//!   bits, which reads back as another tag). A byte array where an extension
//!   is expected is not accepted by [`SimpleDecoder`]'s `read_ext`.
//! - **Integers 2^63..2^64−2 read into `i64`**: ugorji wraps them silently; we
//!   return an out-of-range error.
//! - **The published `SPEC-simple.md`** (ugorji/binc, 2021) says integer
//!   descriptors carry 1, 2, 3, 4 bytes; the implementation (and we) use 1, 2,
//!   4, 8, as the vectors show.
//!
//! [`Time`]: codec_core::Time

mod decode;
mod encode;

pub use decode::SimpleDecoder;
pub use encode::SimpleEncoder;

use codec_core::{Handle, Options};

/// Simple with the shared options and Simple's own.
///
/// ```
/// use codec_simple::SimpleHandle;
/// let h = SimpleHandle::default().canonical(true).enc_zero_values_as_nil(true);
/// assert!(h.options.encode.canonical && h.enc_zero_values_as_nil);
/// ```
#[derive(Debug, Clone, Default)]
pub struct SimpleHandle {
    /// Options shared by every handle (canonical order, limits, ...).
    pub options: Options,
    /// Write `false`, integer 0, float ±0.0 and `""` as nil (`01`), except as
    /// map keys (ugorji's `EncZeroValuesAsNil`). Default `false`. A derived
    /// enum's integer tag (`#[codec(index)]`) is never written as nil: tag 0
    /// names a variant. Nil is read as tag 0, though, as ugorji writes a
    /// zero Go integer "enum" (Go has no enums) under this option.
    pub enc_zero_values_as_nil: bool,
}

impl SimpleHandle {
    /// A handle with default options.
    pub fn new() -> Self {
        SimpleHandle::default()
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

    /// Sets [`SimpleHandle::enc_zero_values_as_nil`].
    pub fn enc_zero_values_as_nil(mut self, on: bool) -> Self {
        self.enc_zero_values_as_nil = on;
        self
    }
}

impl Handle for SimpleHandle {
    type Enc = SimpleEncoder;
    type Dec = SimpleDecoder;

    fn options(&self) -> &Options {
        &self.options
    }

    fn enc_format(&self) -> SimpleEncoder {
        SimpleEncoder::new(self.enc_zero_values_as_nil)
    }

    fn dec_format(&self) -> SimpleDecoder {
        SimpleDecoder::new()
    }
}

pub(crate) const NIL: u8 = 0x01;
pub(crate) const BASE_STRING: u8 = 0xD8;
pub(crate) const BASE_BYTES: u8 = 0xE0;
pub(crate) const BASE_ARRAY: u8 = 0xE8;
pub(crate) const BASE_MAP: u8 = 0xF0;
pub(crate) const BASE_EXT: u8 = 0xF8;

/// Seconds from 0001-01-01 to 1970-01-01: Go's binary time counts from year 1.
pub(crate) const UNIX_TO_GO_SECS: i64 = 62_135_596_800;

//! [`CborHandle`]: the CBOR format and its options.

use crate::decode::CborDecoder;
use crate::encode::CborEncoder;
use codec_core::{Handle, Options};

/// The CBOR format (RFC 8949), configured.
///
/// Defaults follow ugorji/go/codec's `CborHandle{}`: definite lengths,
/// floats at their Rust width (`f32` as `fa`, `f64` as `fb`), times as tag 1
/// with epoch seconds, unknown tags rejected when decoding into typed
/// targets. The RFC's preferred serialization and core deterministic
/// encoding are options of their own.
///
/// ```
/// use codec_cbor::CborHandle;
/// let h = CborHandle::default().preferred_serialization(true);
/// assert_eq!(codec_core::to_vec(&1.5f64, &h).unwrap(), [0xf9, 0x3e, 0x00]);
/// ```
#[derive(Debug, Clone)]
pub struct CborHandle {
    /// Options shared by every handle (ugorji's `BasicHandle`). `canonical`
    /// sorts map keys in ugorji's order (strings bytewise, integers
    /// numerically, other keys by their encoded bytes), which is **not** the
    /// RFC 8949 order; see [`CborHandle::deterministic`] for that.
    pub options: Options,
    /// Write arrays and maps with indefinite lengths (`9f`/`bf` … `ff`) and
    /// strings and byte strings as chunks (`7f`/`5f` … `ff`) of `len/4` bytes
    /// (64 when `len < 4`, at most 1024), as ugorji v1.2.14 does. ugorji's
    /// `IndefiniteLength`.
    ///
    /// Divergence from ugorji: a text string is never split inside a UTF-8
    /// character (RFC 8949 §3.2.3 requires every chunk to be valid UTF-8).
    /// Chunk `k` ends at the last character boundary at or before
    /// `k * (len/4)`; empty chunks are not written. Byte strings, and text
    /// whose grid points fall on character boundaries, are chunked exactly
    /// as ugorji does. Ignored under `preferred_serialization` and
    /// `deterministic`, which require definite lengths.
    pub indefinite_length: bool,
    /// Write times as tag 0 with an RFC 3339 string (nanoseconds, offset
    /// kept) instead of tag 1 with epoch seconds. ugorji's `TimeRFC3339`.
    pub time_rfc3339: bool,
    /// Write each float in the smallest of f64 → f32 → f16 that holds it
    /// exactly, as ugorji's `OptimumSize` does: an `f64` NaN stays `fb…`
    /// (the f64 → f32 test compares with `==`), an `f32` NaN becomes `f9`
    /// when its payload fits (`f97e00` for the usual quiet NaN).
    pub optimum_size: bool,
    /// RFC 8949 §4.1 preferred serialization: the shortest float that is
    /// exact (every NaN written as `f97e00`, payloads dropped), and definite
    /// lengths. Integers and lengths are always shortest.
    pub preferred_serialization: bool,
    /// RFC 8949 §4.2.1 core deterministic encoding: preferred serialization
    /// and map keys sorted by the bytewise order of their encoded bytes
    /// (shorter keys first for strings: `"b"` before `"aa"`). Independent of
    /// `options.encode.canonical` (ugorji's order), which it overrides.
    pub deterministic: bool,
    /// When decoding into a typed target, skip tags that the target does
    /// not expect instead of failing; decoding into `Value` drops them too,
    /// as ugorji does for `interface{}`. ugorji's `SkipUnexpectedTags`.
    pub skip_unexpected_tags: bool,
    /// When decoding into `Value`, a map with the same key twice is an error,
    /// at the repeated key (as [`ValueMaps::RejectDuplicates`](codec_core::ValueMaps::RejectDuplicates)).
    pub reject_duplicate_keys: bool,
    /// When decoding into `Value`, tags 0 and 1 become `Value::Time`
    /// (ugorji: the time is converted to UTC and rounded to microseconds).
    /// When false they stay `Value::Tagged` like any other tag, which keeps
    /// the exact input (typed `Time`/`SystemTime` targets read them either way).
    pub decode_time_tags: bool,
}

impl Default for CborHandle {
    fn default() -> Self {
        CborHandle {
            options: Options::default(),
            indefinite_length: false,
            time_rfc3339: false,
            optimum_size: false,
            preferred_serialization: false,
            deterministic: false,
            skip_unexpected_tags: false,
            reject_duplicate_keys: false,
            decode_time_tags: true,
        }
    }
}

impl CborHandle {
    /// A handle with ugorji's defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the shared options (the same setter on every handle).
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Sets [`CborHandle::indefinite_length`].
    pub fn indefinite_length(mut self, on: bool) -> Self {
        self.indefinite_length = on;
        self
    }

    /// Sets [`CborHandle::time_rfc3339`].
    pub fn time_rfc3339(mut self, on: bool) -> Self {
        self.time_rfc3339 = on;
        self
    }

    /// Sets [`CborHandle::optimum_size`].
    pub fn optimum_size(mut self, on: bool) -> Self {
        self.optimum_size = on;
        self
    }

    /// Sets [`CborHandle::preferred_serialization`].
    pub fn preferred_serialization(mut self, on: bool) -> Self {
        self.preferred_serialization = on;
        self
    }

    /// Sets [`CborHandle::deterministic`].
    pub fn deterministic(mut self, on: bool) -> Self {
        self.deterministic = on;
        self
    }

    /// Sets [`CborHandle::skip_unexpected_tags`].
    pub fn skip_unexpected_tags(mut self, on: bool) -> Self {
        self.skip_unexpected_tags = on;
        self
    }

    /// Sets [`CborHandle::reject_duplicate_keys`].
    pub fn reject_duplicate_keys(mut self, on: bool) -> Self {
        self.reject_duplicate_keys = on;
        self
    }

    /// Sets [`CborHandle::decode_time_tags`].
    pub fn decode_time_tags(mut self, on: bool) -> Self {
        self.decode_time_tags = on;
        self
    }

    /// Sets `options.encode.canonical` (ugorji's `Canonical` order).
    pub fn canonical(mut self, on: bool) -> Self {
        self.options.encode.canonical = on;
        self
    }
}

impl Handle for CborHandle {
    type Enc = CborEncoder;
    type Dec = CborDecoder;

    fn options(&self) -> &Options {
        &self.options
    }

    fn enc_format(&self) -> CborEncoder {
        CborEncoder::new(self)
    }

    fn dec_format(&self) -> CborDecoder {
        CborDecoder::new(self)
    }
}

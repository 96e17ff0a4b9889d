//! [`Raw`] and [`RawRef`]: one already-encoded value of the handle's format,
//! written verbatim and captured on decode without parsing its inside
//! (ugorji's `Raw`). Use them to pass a value through untouched or to defer
//! decoding a field until its type is known.
//!
//! ```
//! # #[cfg(any())] {
//! #[derive(Codec)]
//! struct Envelope<'a> { kind: String, body: RawRef<'a> }
//! let env: Envelope<'_> = from_slice(&bytes, &h)?;
//! let body: Payload = env.body.decode(&h)?;
//! # }
//! ```
//!
//! The bytes belong to one format: writing a `Raw` captured from CBOR into a
//! msgpack stream produces garbage, exactly as in ugorji. An empty `Raw` (the
//! default) is written as nil, so output stays well-formed.

use crate::decode::{Decode, Decoder};
use crate::encode::{Encode, Encoder};
use crate::error::{Error, Result};
use crate::format::{DecodeFormat, EncodeFormat};
use crate::handle::{Handle, from_slice};
use crate::read::{Read, Reference};
use crate::write::Write;

/// One encoded value, owned.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Raw(pub Vec<u8>);

/// One encoded value, borrowed from the input slice (decoding from a reader
/// fails: use [`Raw`] there).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RawRef<'de>(pub &'de [u8]);

impl Raw {
    /// The encoded bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Decodes the held value with `h` (which must be the format it came from).
    pub fn decode<'a, T: Decode<'a>, H: Handle>(&'a self, h: &H) -> Result<T> {
        from_slice(&self.0, h)
    }

    /// Encodes `v` with `h` into a new `Raw`.
    pub fn encode<T: Encode + ?Sized, H: Handle>(v: &T, h: &H) -> Result<Self> {
        crate::handle::to_vec(v, h).map(Raw)
    }
}

impl<'de> RawRef<'de> {
    /// The encoded bytes.
    #[inline]
    pub fn as_bytes(&self) -> &'de [u8] {
        self.0
    }

    /// Decodes the held value with `h` (which must be the format it came from).
    pub fn decode<T: Decode<'de>, H: Handle>(&self, h: &H) -> Result<T> {
        from_slice(self.0, h)
    }

    /// An owned copy.
    pub fn to_raw(&self) -> Raw {
        Raw(self.0.to_vec())
    }
}

#[inline]
fn encode_raw<W: Write, F: EncodeFormat>(bytes: &[u8], e: &mut Encoder<W, F>) -> Result<()> {
    if bytes.is_empty() {
        e.encode_nil()
    } else {
        e.encode_raw(bytes)
    }
}

impl Encode for Raw {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        encode_raw(&self.0, e)
    }
}

impl Encode for RawRef<'_> {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        encode_raw(self.0, e)
    }
}

impl<'de> Decode<'de> for Raw {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        Ok(Raw(d.capture_raw()?.to_vec()))
    }

    /// Reuses the buffer.
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        let bytes = d.capture_raw()?;
        self.0.clear();
        self.0.extend_from_slice(&bytes);
        Ok(())
    }
}

impl<'de> Decode<'de> for RawRef<'de> {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let off = d.offset();
        match d.capture_raw()? {
            Reference::Borrowed(b) => Ok(RawRef(b)),
            Reference::Copied(_) => Err(Error::unsupported(
                "a RawRef borrows from the input: decode from a slice, or use Raw",
            )
            .at(off)),
        }
    }
}

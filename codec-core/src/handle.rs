//! [`Handle`]: a configured format, and the one-call conveniences built on it.

use crate::decode::{Decode, DecodeOwned, Decoder};
use crate::encode::{Encode, Encoder};
use crate::error::Result;
use crate::format::{DecodeFormat, EncodeFormat};
use crate::options::Options;
use crate::read::{IoReader, SliceReader};
use crate::write::{IoWriter, Write};

/// A configured format: a cheap, clonable value that builds encoders and decoders.
///
/// Each format crate provides one (`MsgpackHandle`, `CborHandle`, ...).
pub trait Handle {
    /// The encoding driver.
    type Enc: EncodeFormat;
    /// The decoding driver.
    type Dec: DecodeFormat;

    /// The format's name.
    fn name(&self) -> &'static str {
        <Self::Enc as EncodeFormat>::NAME
    }

    /// The shared options.
    fn options(&self) -> &Options;

    /// A fresh encoding driver with this handle's settings.
    fn enc_format(&self) -> Self::Enc;

    /// A fresh decoding driver with this handle's settings.
    fn dec_format(&self) -> Self::Dec;

    /// An encoder writing into `w`.
    fn encoder<W: Write>(&self, w: W) -> Encoder<W, Self::Enc> {
        Encoder::new(w, self.enc_format(), self.options().encode.clone())
    }

    /// A decoder reading from a slice; values may borrow from it.
    fn decoder<'de>(&self, input: &'de [u8]) -> Decoder<'de, SliceReader<'de>, Self::Dec> {
        Decoder::new(
            SliceReader::new(input),
            self.dec_format(),
            self.options().decode.clone(),
        )
    }

    /// A decoder reading from an [`std::io::Read`].
    fn io_decoder<'de, R: std::io::Read>(&self, r: R) -> Decoder<'de, IoReader<R>, Self::Dec> {
        Decoder::new(
            IoReader::new(r),
            self.dec_format(),
            self.options().decode.clone(),
        )
    }
}

/// Encodes `v` into a new `Vec<u8>`.
///
/// ```
/// # #[cfg(any())] {
/// let bytes = codec_core::to_vec(&vec![1u32, 2, 3], &MsgpackHandle::default())?;
/// # }
/// ```
pub fn to_vec<T: Encode + ?Sized, H: Handle>(v: &T, h: &H) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    encode_into(v, h, &mut out)?;
    Ok(out)
}

/// Encodes `v`, appending to `out` (reuse one buffer for many values).
pub fn encode_into<T: Encode + ?Sized, H: Handle>(v: &T, h: &H, out: &mut Vec<u8>) -> Result<()> {
    let mut e = h.encoder(out);
    v.encode(&mut e)
}

/// Encodes `v` into an [`std::io::Write`] (buffered, flushed at the end).
pub fn to_writer<T: Encode + ?Sized, H: Handle, W: std::io::Write>(
    v: &T,
    h: &H,
    w: W,
) -> Result<()> {
    let mut e = h.encoder(IoWriter::new(w));
    v.encode(&mut e)?;
    e.into_writer().flush()
}

/// Decodes one value that must fill the whole slice; it may borrow from `input`.
pub fn from_slice<'de, T: Decode<'de>, H: Handle>(input: &'de [u8], h: &H) -> Result<T> {
    h.decoder(input).decode_exact()
}

/// Decodes one value from an [`std::io::Read`]; the input must end after it.
pub fn from_reader<T: DecodeOwned, H: Handle, R: std::io::Read>(r: R, h: &H) -> Result<T> {
    h.io_decoder(r).decode_exact()
}

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
///
/// `Interrupted` errors of the writer are retried. Every error says how many
/// bytes reached the writer, in [`Error::bytes_written`](crate::Error::bytes_written)
/// (and its `Display`: `i/o error: ... (after 8192 bytes written)`): for a
/// failing writer, the bytes it accepted before failing; for a value that
/// cannot be encoded, the bytes encoded before it (they are flushed, as
/// dropping a `BufWriter` would).
pub fn to_writer<T: Encode + ?Sized, H: Handle, W: std::io::Write>(
    v: &T,
    h: &H,
    w: W,
) -> Result<()> {
    let mut e = h.encoder(IoWriter::new(w));
    match v.encode(&mut e) {
        Ok(()) => e.into_writer().flush(),
        Err(err) => Err(stopped(err, e.into_writer())),
    }
}

/// An encode error of [`to_writer`]: flushes what was encoded before it and
/// records how many bytes reached the writer.
#[cold]
fn stopped<W: std::io::Write>(err: crate::Error, mut w: IoWriter<W>) -> crate::Error {
    if err.bytes_written().is_some() {
        return err;
    }
    match w.flush() {
        Ok(()) => err.with_bytes_written(w.bytes_flushed()),
        // The writer failed while flushing: its error says how far it got.
        Err(flush_err) => {
            let n = flush_err.bytes_written().unwrap_or(w.bytes_flushed());
            err.with_bytes_written(n)
        }
    }
}

/// Decodes one value that must fill the whole slice; it may borrow from `input`.
pub fn from_slice<'de, T: Decode<'de>, H: Handle>(input: &'de [u8], h: &H) -> Result<T> {
    h.decoder(input).decode_exact()
}

/// Decodes one value that must fill the whole slice into `target`,
/// reusing what `target` holds where its type can ([`Decode::decode_into`]:
/// `String`, `Vec` and the maps keep their allocations, derived structs
/// decode field by field, a [`Document`](crate::Document) refills its two
/// buffers). For decoding many inputs in a loop into the same target.
pub fn from_slice_into<'de, T: Decode<'de>, H: Handle>(
    input: &'de [u8],
    h: &H,
    target: &mut T,
) -> Result<()> {
    h.decoder(input).decode_exact_into(target)
}

/// Decodes one value from an [`std::io::Read`]; the input must end after it.
pub fn from_reader<T: DecodeOwned, H: Handle, R: std::io::Read>(r: R, h: &H) -> Result<T> {
    h.io_decoder(r).decode_exact()
}

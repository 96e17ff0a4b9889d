//! Extensions: user types written under a tag number, each format its native
//! way (ugorji's `SetBytesExt` / `SetInterfaceExt`).
//!
//! # Two styles
//!
//! - [`BytesExt`]: the type turns itself into opaque bytes. msgpack writes an
//!   ext item, binc and simple a custom extension, CBOR the tag followed by a
//!   byte string, and JSON (which has no extensions) the bytes as a base64 string.
//! - [`InterfaceExt`]: the type turns itself into another encodable value (its
//!   `Repr`). CBOR writes the tag followed by the value, JSON the value alone,
//!   and msgpack, binc and simple an extension item whose bytes are the value
//!   encoded on its own in the same format (see [`ExtStyle`]).
//!
//! `#[derive(Codec)]` with `#[codec(ext = N)]` on a type makes the type's own
//! derived encoding the content of an interface-style extension with tag `N`.
//!
//! # Why static registration (a divergence from ugorji)
//!
//! ugorji registers extensions at run time on a handle, keyed by the Go type,
//! and looks them up through reflection while encoding. Rust has no run-time
//! reflection to drive such a lookup and the static path of this crate has no
//! virtual calls, so an extension is a property of the *type*: implement one
//! of the traits and generate its `Encode`/`Decode` impls with
//! [`impl_bytes_ext!`](crate::impl_bytes_ext) /
//! [`impl_interface_ext!`](crate::impl_interface_ext), or use the [`bytes`] /
//! [`interface`] modules as `#[codec(with = "...")]` on a field. The tag is a
//! constant, checked on decode. The same type thus behaves identically under
//! every handle, with no registry to keep in sync between encoder and decoder.
//!
//! # Choosing a tag
//!
//! msgpack, binc and simple write the tag in one byte, so a tag above 255 is
//! an encode error there; msgpack's spec leaves types 0..=127 to
//! applications (128..=255 are its reserved negative types, 255 = -1 its
//! timestamps, refused for other data). CBOR takes any tag, but tags 0 and 1
//! (times), 2 and 3 (bignums) and 55799 (self-describe) mean the same to
//! every CBOR decoder: decoding into [`Value`](crate::Value) reads them as a
//! time, an integer or nothing, so a type under such a tag does not come
//! back through `Value`. Take another number.
//!
//! # Unregistered extensions
//!
//! Decoding into [`Value`](crate::Value) keeps an extension it does not know
//! as `Value::Ext(tag, bytes)` (CBOR: `Value::Tagged(tag, value)`), which
//! re-encodes byte for byte. Decoding one into a typed target is an error that
//! names the tag.
//!
//! ```
//! use codec_core::{BytesExt, Result, impl_bytes_ext};
//! use std::borrow::Cow;
//!
//! /// An RGB colour written as a 3-byte extension with tag 7.
//! #[derive(Debug, PartialEq)]
//! struct Rgb(u8, u8, u8);
//!
//! impl BytesExt for Rgb {
//!     const TAG: u64 = 7;
//!     fn to_ext_bytes(&self) -> Result<Cow<'_, [u8]>> {
//!         Ok(Cow::Owned(vec![self.0, self.1, self.2]))
//!     }
//!     fn from_ext_bytes(data: &[u8]) -> Result<Self> {
//!         match *data {
//!             [r, g, b] => Ok(Rgb(r, g, b)),
//!             _ => Err(codec_core::Error::custom("an Rgb extension holds 3 bytes")),
//!         }
//!     }
//! }
//! impl_bytes_ext!(Rgb);
//! ```

use crate::decode::{Decode, DecodeOwned, Decoder};
use crate::encode::{Encode, Encoder};
use crate::error::{Error, Result};
use crate::format::{DecodeFormat, EncodeFormat, ExtStyle};
use crate::read::{IoReader, Read, Reference, SliceReader};
use crate::write::Write;
use std::borrow::Cow;

/// A type written as an extension of opaque bytes (ugorji's `BytesExt`).
pub trait BytesExt: Sized {
    /// The extension tag: msgpack ext type (0..=127), CBOR tag, binc/simple
    /// extension tag (0..=255).
    const TAG: u64;
    /// The bytes of the extension. Borrow them when the value holds them.
    fn to_ext_bytes(&self) -> Result<Cow<'_, [u8]>>;
    /// Rebuilds the value from the bytes of an extension with tag [`BytesExt::TAG`].
    fn from_ext_bytes(data: &[u8]) -> Result<Self>;
}

/// A type written as an extension whose content is another value (ugorji's
/// `InterfaceExt`).
pub trait InterfaceExt: Sized {
    /// The extension tag.
    const TAG: u64;
    /// The value that stands for `Self` inside the extension.
    type Repr: Encode + DecodeOwned;
    /// Converts to the representation (ugorji's `ConvertExt`).
    fn to_repr(&self) -> Self::Repr;
    /// Converts back (ugorji's `UpdateExt`).
    fn from_repr(repr: Self::Repr) -> Result<Self>;
}

/// The error for an extension (or tag) whose number is not the one expected.
#[cold]
pub(crate) fn wrong_tag(expected: u64, found: u64) -> Error {
    Error::type_mismatch(
        "extension",
        format_args!("extension with tag {found} (expected tag {expected})"),
    )
}

/// Encode and decode functions for a [`BytesExt`] type, usable as
/// `#[codec(with = "codec::ext::bytes")]` on a field.
pub mod bytes {
    use super::*;

    /// Writes `v` as an extension of bytes.
    #[inline]
    pub fn encode<T: BytesExt, W: Write, F: EncodeFormat>(
        v: &T,
        e: &mut Encoder<W, F>,
    ) -> Result<()> {
        let data = v.to_ext_bytes()?;
        e.encode_ext(T::TAG, &data)
    }

    /// Reads an extension of bytes with tag `T::TAG`.
    pub fn decode<'de, T: BytesExt, R: Read<'de>, F: DecodeFormat>(
        d: &mut Decoder<'de, R, F>,
    ) -> Result<T> {
        if F::EXT_STYLE == ExtStyle::Transparent {
            let data = d.decode_bytes()?;
            return T::from_ext_bytes(&data);
        }
        let off = d.offset();
        let (tag, data) = d.decode_ext()?;
        if tag != T::TAG {
            return Err(wrong_tag(T::TAG, tag).at(off));
        }
        T::from_ext_bytes(&data).map_err(|e| e.at(off))
    }
}

/// Encode and decode functions for an [`InterfaceExt`] type, usable as
/// `#[codec(with = "codec::ext::interface")]` on a field.
pub mod interface {
    use super::*;

    /// Writes `v` as an extension holding its representation.
    #[inline]
    pub fn encode<T: InterfaceExt, W: Write, F: EncodeFormat>(
        v: &T,
        e: &mut Encoder<W, F>,
    ) -> Result<()> {
        e.encode_ext_value(T::TAG, &v.to_repr())
    }

    /// Reads an extension with tag `T::TAG` holding a representation.
    pub fn decode<'de, T: InterfaceExt, R: Read<'de>, F: DecodeFormat>(
        d: &mut Decoder<'de, R, F>,
    ) -> Result<T> {
        let off = d.offset();
        let repr: T::Repr = d.decode_ext_value(T::TAG)?;
        T::from_repr(repr).map_err(|e| e.at(off))
    }
}

/// Implements `Encode` and `Decode` for a [`BytesExt`] type.
#[macro_export]
macro_rules! impl_bytes_ext {
    ($t:ty) => {
        impl $crate::Encode for $t {
            #[inline]
            fn encode<W: $crate::Write, F: $crate::EncodeFormat>(
                &self,
                e: &mut $crate::Encoder<W, F>,
            ) -> $crate::Result<()> {
                $crate::ext::bytes::encode(self, e)
            }
        }
        impl<'de> $crate::Decode<'de> for $t {
            #[inline]
            fn decode<R: $crate::Read<'de>, F: $crate::DecodeFormat>(
                d: &mut $crate::Decoder<'de, R, F>,
            ) -> $crate::Result<Self> {
                $crate::ext::bytes::decode(d)
            }
        }
    };
}

/// Implements `Encode` and `Decode` for an [`InterfaceExt`] type.
#[macro_export]
macro_rules! impl_interface_ext {
    ($t:ty) => {
        impl $crate::Encode for $t {
            #[inline]
            fn encode<W: $crate::Write, F: $crate::EncodeFormat>(
                &self,
                e: &mut $crate::Encoder<W, F>,
            ) -> $crate::Result<()> {
                $crate::ext::interface::encode(self, e)
            }
        }
        impl<'de> $crate::Decode<'de> for $t {
            #[inline]
            fn decode<R: $crate::Read<'de>, F: $crate::DecodeFormat>(
                d: &mut $crate::Decoder<'de, R, F>,
            ) -> $crate::Result<Self> {
                $crate::ext::interface::decode(d)
            }
        }
    };
}

impl<W: Write, F: EncodeFormat> Encoder<W, F> {
    /// Writes `v` as the content of an extension with tag `tag`, the format's
    /// native way ([`EncodeFormat::EXT_STYLE`]).
    pub fn encode_ext_value<T: Encode + ?Sized>(&mut self, tag: u64, v: &T) -> Result<()> {
        match F::EXT_STYLE {
            ExtStyle::Tagged => {
                self.encode_tag(tag)?;
                v.encode(self)
            }
            ExtStyle::Transparent => v.encode(self),
            _ => {
                // The content is encoded on its own by a fresh driver, into a
                // buffer the encoder keeps for reuse.
                let mut buf = self.take_side_buf();
                buf.clear();
                let res = {
                    let mut side =
                        Encoder::new(&mut buf, self.format().side(), self.options().clone());
                    v.encode(&mut side)
                };
                let res = res.and_then(|()| self.encode_ext(tag, &buf));
                self.put_side_buf(buf);
                res
            }
        }
    }
}

impl<'de, R: Read<'de>, F: DecodeFormat> Decoder<'de, R, F> {
    /// Reads the content of an extension with tag `tag` written by
    /// [`Encoder::encode_ext_value`]. Another tag is an error naming it.
    pub fn decode_ext_value<T: Decode<'de>>(&mut self, tag: u64) -> Result<T> {
        let off = self.offset();
        match F::EXT_STYLE {
            ExtStyle::Transparent => T::decode(self),
            ExtStyle::Tagged => {
                // Entered before the tag is read: a depth error points at it.
                self.enter_nested()?;
                let found = self.decode_tag()?;
                if found != tag {
                    return Err(wrong_tag(tag, found).at(off));
                }
                let v = T::decode(self)?;
                self.leave();
                Ok(v)
            }
            _ => {
                let Some(inner_f) = self.format_mut().side() else {
                    return Err(Error::unsupported(format!(
                        "{} cannot decode the content of an extension",
                        F::NAME
                    ))
                    .at(off));
                };
                let mut opts = self.options().clone();
                opts.max_depth = opts.max_depth.saturating_sub(self.depth() + 1);
                let (found, data) = self.decode_ext()?;
                if found != tag {
                    return Err(wrong_tag(tag, found).at(off));
                }
                let res = match data {
                    Reference::Borrowed(b) => {
                        Decoder::new(SliceReader::new(b), inner_f, opts).decode_exact()
                    }
                    // From a reader the payload lives in scratch space only:
                    // decode it through a reader that never lends (owned targets work).
                    Reference::Copied(c) => {
                        let owned = c.to_vec();
                        Decoder::new(IoReader::new(&owned[..]), inner_f, opts).decode_exact()
                    }
                };
                res.map_err(|e| match e.offset() {
                    Some(_) => e,
                    None => e.at(off),
                })
            }
        }
    }
}

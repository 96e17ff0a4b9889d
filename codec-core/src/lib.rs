//! # codec-core: the shared driver of the codec family
//!
//! `codec` encodes and decodes Rust types in MessagePack, CBOR, Binc, Simple
//! and JSON through one `#[derive(Codec)]`, like Go's `ugorji/go/codec`.
//! This crate is the layer that knows about *types*; each format crate
//! supplies a driver that knows about *bytes*.
//!
//! - [`Encode`] / [`Decode`]: what a type implements (usually derived).
//! - [`Encoder`] / [`Decoder`]: what derived code talks to; generic over a
//!   writer/reader and a format driver, so the static path has no virtual calls.
//! - [`EncodeFormat`] / [`DecodeFormat`]: the byte layer a format implements.
//! - [`Handle`]: a configured format; [`to_vec`], [`from_slice`],
//!   [`to_writer`], [`from_reader`] are the one-call entry points.
//! - [`Value`]: the dynamic document (its text a [`Text`]); [`Document`]: the
//!   same content in two flat buffers, faster to decode and drop, read through
//!   [`Node`]; [`Time`]: a timestamp with an optional offset.
//! - [`Error`]: kind, byte offset and path (`.users[3].name`) of every failure.
//!
//! Most users depend on the `codec` crate, which re-exports all of this with
//! the five handles. Writing an impl by hand:
//!
//! ```
//! use codec_core::{Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, Read, Result, Write};
//!
//! /// A point written as a two-item array.
//! #[derive(Debug, PartialEq)]
//! struct Point { x: i32, y: i32 }
//!
//! impl Encode for Point {
//!     fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
//!         (self.x, self.y).encode(e)
//!     }
//! }
//!
//! impl<'de> Decode<'de> for Point {
//!     fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
//!         let (x, y) = d.decode()?;
//!         Ok(Point { x, y })
//!     }
//! }
//! ```

// Lets the derive macro's `::codec::` paths resolve inside this crate too.
#[allow(unused_extern_crates)]
extern crate self as codec;

pub mod convert;
mod decode;
#[doc(hidden)]
pub mod derive_support;
mod document;
mod encode;
mod error;
pub mod ext;
mod format;
mod handle;
mod impls;
mod options;
mod raw;
mod read;
pub mod scalar;
mod text;
mod time;
mod value;
mod value_text;

pub use convert::{from_value, from_value_in, from_value_with, to_value};
pub use decode::{Decode, DecodeOwned, Decoder, skip_generic};
pub use document::{Document, DocumentBuilder, Entries, ItemHead, Items, Node, PADDED, TextTail};
pub use encode::{CanonicalKey, Encode, Encoder};
pub use error::{Error, ErrorKind, Found, PathSegment, Result};
pub use ext::{BytesExt, InterfaceExt};
pub use format::{
    DecodeFormat, EncodeFormat, ExtStyle, FieldName, KeyHint, KeyStep, Kind, Scalar, Seq,
    SignedInt, UnsignedInt, float_array_in_buffer, hint_in_buffer, key_in_buffer, take_from_buffer,
    write_array_each, write_rows_each,
};
pub use handle::{
    Handle, encode_into, from_reader, from_slice, from_slice_into, to_vec, to_writer,
};
pub use options::{DecodeOptions, EncodeOptions, Options, ValueMaps};
pub use raw::{Raw, RawRef};
pub use read::{IoReader, Read, Reference, SliceReader, be_uint};
pub use text::str_from_utf8;
pub use time::{Civil, Time};
pub use value::Value;
pub use value_text::Text;
pub use write::{IoWriter, Write, copy_short, short_word};

mod write;

#[cfg(feature = "derive")]
pub use codec_derive::Codec;

/// Seals [`SignedInt`] and [`UnsignedInt`]: implemented only for the
/// primitive integers (in `impls::primitives`).
mod sealed {
    pub trait Sealed {}
}

/// Items used by derived code. Not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use std::option::Option::{self, None, Some};
    pub use std::result::Result::{Err, Ok};
}

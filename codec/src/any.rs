//! [`AnyHandle`]: the format chosen at run time.

use codec_core::{Decode, DecodeOwned, Encode, Error, ErrorKind, Handle, Options, Result, Value};
use std::fmt;
use std::str::FromStr;

use crate::{BincHandle, CborHandle, JsonHandle, MsgpackHandle, SimpleHandle};

/// A handle of any of the five formats, chosen at run time by name or value.
///
/// Every call matches on the format once and then runs the fully
/// monomorphized static path, so the run-time choice costs one branch per
/// document, not one per item.
///
/// ```
/// use codec::{AnyHandle, Value};
///
/// let h: AnyHandle = "cbor".parse().unwrap();
/// let bytes = h.to_vec(&vec![1u8, 2, 3]).unwrap();
/// assert_eq!(bytes, [0x43, 1, 2, 3]); // a CBOR byte string
/// let back: Vec<u8> = h.from_slice(&bytes).unwrap();
/// assert_eq!(back, [1, 2, 3]);
///
/// assert!("yaml".parse::<AnyHandle>().is_err());
/// # let _ = Value::Nil;
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum AnyHandle {
    /// MessagePack.
    Msgpack(MsgpackHandle),
    /// CBOR (RFC 8949).
    Cbor(CborHandle),
    /// Binc.
    Binc(BincHandle),
    /// Simple.
    Simple(SimpleHandle),
    /// JSON (RFC 8259).
    Json(JsonHandle),
}

/// Runs `$body` with `$h` bound to the concrete handle inside `$any`.
macro_rules! dispatch {
    ($any:expr, $h:ident => $body:expr) => {
        match $any {
            AnyHandle::Msgpack($h) => $body,
            AnyHandle::Cbor($h) => $body,
            AnyHandle::Binc($h) => $body,
            AnyHandle::Simple($h) => $body,
            AnyHandle::Json($h) => $body,
        }
    };
}

impl AnyHandle {
    /// The names [`AnyHandle::from_name`] accepts.
    pub const NAMES: [&'static str; 5] = ["msgpack", "cbor", "binc", "simple", "json"];

    /// A handle with default settings for a format name: `"msgpack"`,
    /// `"cbor"`, `"binc"`, `"simple"` or `"json"` (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "msgpack" | "messagepack" => AnyHandle::Msgpack(MsgpackHandle::default()),
            "cbor" => AnyHandle::Cbor(CborHandle::default()),
            "binc" => AnyHandle::Binc(BincHandle::default()),
            "simple" => AnyHandle::Simple(SimpleHandle::default()),
            "json" => AnyHandle::Json(JsonHandle::default()),
            _ => return Err(Error::new(ErrorKind::UnknownHandle(name.to_owned()))),
        })
    }

    /// The format's name.
    pub fn name(&self) -> &'static str {
        dispatch!(self, h => h.name())
    }

    /// The shared options.
    pub fn options(&self) -> &Options {
        dispatch!(self, h => h.options())
    }

    /// The shared options, to change them.
    pub fn options_mut(&mut self) -> &mut Options {
        dispatch!(self, h => &mut h.options)
    }

    /// Encodes `v` into a new `Vec<u8>`.
    pub fn to_vec<T: Encode + ?Sized>(&self, v: &T) -> Result<Vec<u8>> {
        dispatch!(self, h => codec_core::to_vec(v, h))
    }

    /// Encodes `v`, appending to `out`.
    pub fn encode_into<T: Encode + ?Sized>(&self, v: &T, out: &mut Vec<u8>) -> Result<()> {
        dispatch!(self, h => codec_core::encode_into(v, h, out))
    }

    /// Encodes `v` into an [`std::io::Write`].
    pub fn to_writer<T: Encode + ?Sized, W: std::io::Write>(&self, v: &T, w: W) -> Result<()> {
        dispatch!(self, h => codec_core::to_writer(v, h, w))
    }

    /// Decodes one value that fills the whole slice; it may borrow from `input`.
    pub fn from_slice<'de, T: Decode<'de>>(&self, input: &'de [u8]) -> Result<T> {
        dispatch!(self, h => codec_core::from_slice(input, h))
    }

    /// Converts a [`Value`] into a typed value as decoding it with this
    /// handle would ([`codec_core::from_value_in`]): the content of an
    /// interface-style extension that msgpack, binc or simple left in a
    /// [`Value::Ext`], and JSON's base64 strings into bytes, read as the
    /// format reads them.
    ///
    /// ```
    /// use codec::{AnyHandle, InterfaceExt, Result, Value, impl_interface_ext};
    ///
    /// /// A point written as the extension 9 holding `[x, y]`.
    /// #[derive(Debug, PartialEq)]
    /// struct Point(i32, i32);
    /// impl InterfaceExt for Point {
    ///     const TAG: u64 = 9;
    ///     type Repr = (i32, i32);
    ///     fn to_repr(&self) -> (i32, i32) {
    ///         (self.0, self.1)
    ///     }
    ///     fn from_repr((x, y): (i32, i32)) -> Result<Self> {
    ///         Ok(Point(x, y))
    ///     }
    /// }
    /// impl_interface_ext!(Point);
    ///
    /// let h: AnyHandle = "msgpack".parse()?;
    /// let v: Value = h.from_slice(&h.to_vec(&vec![Point(3, -4)])?)?;
    /// // The extension's data is `[3, -4]` in msgpack: 92 03 fc.
    /// assert_eq!(v, Value::Array(vec![Value::Ext(9, Box::from(&[0x92, 0x03, 0xfc][..]))]));
    /// assert!(codec::from_value::<Vec<Point>>(&v).is_err());
    /// assert_eq!(h.from_value::<Vec<Point>>(&v)?, [Point(3, -4)]);
    /// # Ok::<(), codec::Error>(())
    /// ```
    pub fn from_value<T: DecodeOwned>(&self, v: &Value) -> Result<T> {
        dispatch!(self, h => codec_core::from_value_in(v, h))
    }

    /// Decodes one value that fills the whole slice into `target`, reusing
    /// what it holds where its type can ([`codec_core::from_slice_into`]).
    ///
    /// ```
    /// use codec::{AnyHandle, Document};
    ///
    /// let h: AnyHandle = "json".parse().unwrap();
    /// let mut doc = Document::default();
    /// let mut names = Vec::new();
    /// for input in [&br#"{"name":"Ada","langs":["en"]}"#[..], br#"{"name":"Grace"}"#] {
    ///     // The document's two buffers are refilled, not allocated again.
    ///     h.from_slice_into(input, &mut doc).unwrap();
    ///     names.push(doc.root().get("name").and_then(|n| n.as_str()).unwrap().to_owned());
    /// }
    /// assert_eq!(names, ["Ada", "Grace"]);
    /// // An error leaves the document nil.
    /// assert!(h.from_slice_into(b"[1,", &mut doc).is_err());
    /// assert!(doc.root().is_nil());
    /// ```
    pub fn from_slice_into<'de, T: Decode<'de>>(
        &self,
        input: &'de [u8],
        target: &mut T,
    ) -> Result<()> {
        dispatch!(self, h => codec_core::from_slice_into(input, h, target))
    }

    /// Decodes one value from an [`std::io::Read`]; the input must end after it.
    pub fn from_reader<T: DecodeOwned, R: std::io::Read>(&self, r: R) -> Result<T> {
        dispatch!(self, h => codec_core::from_reader(r, h))
    }
}

impl FromStr for AnyHandle {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        AnyHandle::from_name(s)
    }
}

impl fmt::Display for AnyHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! from_handle {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for AnyHandle {
            fn from(h: $t) -> Self {
                AnyHandle::$v(h)
            }
        }
    )*};
}

from_handle!(MsgpackHandle => Msgpack, CborHandle => Cbor, BincHandle => Binc, SimpleHandle => Simple, JsonHandle => Json);

//! # codec-msgpack: the MessagePack handle of the codec family
//!
//! [`MsgpackHandle`] reads and writes [MessagePack] for every type that
//! implements `codec_core::Encode` / `Decode` (usually through
//! `#[derive(Codec)]`), byte for byte as Go's `ugorji/go/codec`
//! `MsgpackHandle` does under the same options. It implements the whole
//! specification: every integer width, float32/float64, str and bin
//! (8/16/32), arrays and maps (fix/16/32), fixext/ext8/16/32 and the
//! timestamp extension (-1) in its 32-, 64- and 96-bit forms.
//!
//! ```
//! use codec_msgpack::MsgpackHandle;
//! use std::collections::BTreeMap;
//!
//! let h = MsgpackHandle::default();
//!
//! let v = vec![1u32, 300, 70_000];
//! let bytes = codec_core::to_vec(&v, &h).unwrap();
//! assert_eq!(bytes, [0x93, 0x01, 0xcd, 0x01, 0x2c, 0xce, 0x00, 0x01, 0x11, 0x70]);
//! let back: Vec<u32> = codec_core::from_slice(&bytes, &h).unwrap();
//! assert_eq!(back, v);
//!
//! let mut m = BTreeMap::new();
//! m.insert("a".to_string(), vec![1u8, 2]);
//! let bytes = codec_core::to_vec(&m, &h).unwrap();
//! assert_eq!(bytes, [0x81, 0xa1, b'a', 0xc4, 0x02, 1, 2]);
//! let back: BTreeMap<String, Vec<u8>> = codec_core::from_slice(&bytes, &h).unwrap();
//! assert_eq!(back, m);
//!
//! // Any document decodes into a dynamic Value.
//! let any: codec_core::Value = codec_core::from_slice(&bytes, &h).unwrap();
//! assert_eq!(any.get("a").and_then(|v| v.as_bytes()), Some(&[1u8, 2][..]));
//! ```
//!
//! The [`rpc`] module speaks MessagePack-RPC (requests, responses and
//! notifications over any `std::io::Read` / `Write`), like ugorji's
//! `MsgpackSpecRpc`, with a minimal client and server.
//!
//! ## Options (ugorji's names in brackets)
//!
//! - [`MsgpackHandle::write_ext`] (`WriteExt`): the current spec. **Default
//!   true here**, false in ugorji: Rust users get str8, bin and the
//!   timestamp extension unless they ask for the old "raw" spec
//!   ([`MsgpackHandle::ugorji_default`]).
//! - [`MsgpackHandle::positive_int_unsigned`] (`PositiveIntUnsigned`),
//!   [`MsgpackHandle::no_fixed_num`] (`NoFixedNum`): integer encodings.
//! - [`MsgpackHandle::raw_to_string`] (`RawToString`): old-spec strings
//!   decode into `Value` as text.
//!
//! ## How it matches ugorji, and where it does not
//!
//! - Signed Rust integers use fixint up to 127 and then the **signed**
//!   families (`128i64` is `d1 00 80`), unsigned ones `cc`..`cf`; floats keep
//!   their width. Decoding into `Value`, a positive fixint is `Value::Int`
//!   and `cc`..`cf` is `Value::Uint`, as ugorji's `int64`/`uint64`.
//! - Without `write_ext`, strings and byte strings both use the raw family
//!   (no `d9`, no `c4`), a time is its timestamp payload as a raw string,
//!   and decoding into `Value` gives bytes for str items except as map keys
//!   (text), as ugorji's `interface{}` decoding does. A raw map key that is
//!   not UTF-8 is an error here (Go keeps such bytes in a `string`).
//! - Extensions are always written as ext items, also without `write_ext`:
//!   `Value::Ext` is ugorji's `RawExt`, which ugorji always writes as an
//!   ext. (ugorji writes *registered* extensions tagless in the old spec;
//!   that loses the tag, so it is not reproduced.) Ext type -1 is kept for
//!   timestamps: writing other data under it is an error.
//! - A timestamp with nanoseconds above 999,999,999 is an error (ugorji
//!   normalises it; the spec forbids it). Go's zero time,
//!   [`Time::GO_ZERO`](codec_core::Time::GO_ZERO), is written as nil and nil
//!   read into a time is it, as ugorji does and as the other handles do.
//!
//! - Nil read into a scalar target (`u32`, `bool`, `String`...) is a type
//!   error, where ugorji gives the zero value; `Option<T>` takes it as
//!   `None` and containers as empty (`docs/ugorji-options.md`, "Nil into a
//!   typed target").
//!
//! [MessagePack]: https://github.com/msgpack/msgpack/blob/master/spec.md

mod decode;
mod document;
mod encode;
mod handle;
pub mod rpc;
mod spec;

pub use decode::MsgpackDecoder;
pub use encode::MsgpackEncoder;
pub use handle::MsgpackHandle;

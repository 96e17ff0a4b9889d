//! # codec-cbor: the CBOR handle of the codec family
//!
//! [`CborHandle`] reads and writes CBOR (RFC 8949) for every type that
//! implements `codec_core::Encode` / `Decode` (usually through
//! `#[derive(Codec)]`), byte for byte as Go's `ugorji/go/codec` v1.2.14
//! writes it under the same options, and conformant with the RFC.
//!
//! ```
//! use codec_cbor::CborHandle;
//! use codec_core::{from_slice, to_vec, Value};
//!
//! let h = CborHandle::default();
//! let bytes = to_vec(&vec![1u32, 2, 3], &h).unwrap();
//! assert_eq!(bytes, [0x83, 0x01, 0x02, 0x03]);
//! let back: Vec<u32> = from_slice(&bytes, &h).unwrap();
//! assert_eq!(back, [1, 2, 3]);
//!
//! // -2^64 is a plain CBOR integer; it decodes into Value as a BigInt.
//! let v: Value = from_slice(&[0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], &h).unwrap();
//! assert_eq!(v, Value::BigInt(-(1i128 << 64)));
//! ```
//!
//! ## What is written
//!
//! - Integers and lengths in their shortest head. `i128`/`u128` beyond the
//!   64-bit ranges: major type 1 down to -2^64, then bignum tags 2/3 with
//!   minimal big-endian bytes.
//! - Floats at their Rust width by default (ugorji: `f32` → `fa`, `f64` →
//!   `fb`); [`CborHandle::optimum_size`] narrows as ugorji's `OptimumSize`,
//!   [`CborHandle::preferred_serialization`] as RFC 8949 §4.1.
//! - Times: tag 1 with epoch seconds (an integer, or a float64 rounded to
//!   microseconds), or tag 0 with RFC 3339 text under
//!   [`CborHandle::time_rfc3339`]. Go's zero time is written as null.
//! - Extensions (`write_ext(tag, data)`): tag `tag` around a byte string.
//! - Map order: as given; `options.encode.canonical` gives ugorji's order
//!   (strings bytewise, integers numerically: **not** RFC 8949 order);
//!   [`CborHandle::deterministic`] gives RFC 8949 §4.2.1 order (keys sorted
//!   by their encoded bytes) with preferred serialization.
//!
//! ## What is read
//!
//! Every well-formed CBOR item: heads with 1/2/4/8-byte arguments, definite
//! and indefinite strings, arrays and maps, half/single/double floats (half
//! through the `half` crate; NaN payloads kept bit for bit), simple values,
//! tags. Into `Value`: unsigned integers become `Uint`, negative ones `Int`
//! (below `i64::MIN`: `BigInt`), tags 0/1 `Time` (UTC, rounded to
//! microseconds, as ugorji), tags 2/3 `BigInt` when the value fits `i128`,
//! tag 55799 is skipped, other tags become `Tagged`, undefined (`f7`)
//! becomes `Simple(23)`. Tag 55799 (self-described CBOR) is skipped by
//! every typed read too, and belongs to the item it precedes: a `Raw` of
//! the item holds it, also after a peek at the item's kind (which looks
//! past up to sixteen such tags without consuming them); a type error
//! found by such a peek points at the first tag, where the item begins.
//!
//! Strictness: reserved additional information (28-30), indefinite lengths
//! where none exist (integers, tags, `f8`-style simple), a break outside an
//! indefinite item, chunks of indefinite strings that are not definite
//! strings of the same major type, two-byte simple values below 32 and
//! text that is not UTF-8 (checked chunk by chunk, so a character split
//! across chunks is an error) are all errors. Declared lengths are never
//! trusted beyond the input; nesting is bounded by `max_depth` (tags count).
//!
//! ## Where we differ from ugorji, and why
//!
//! - **Indefinite text strings** are never split inside a UTF-8 character
//!   (ugorji's are, which RFC 8949 forbids); see [`CborHandle::indefinite_length`].
//! - **Decoding** is stricter: ugorji accepts `f8` simple values below 32
//!   in some paths and does not check chunk UTF-8 unless asked; we follow RFC 8949.
//! - **Bignums** (tags 2/3) decode to integers (`BigInt`, `i128`/`u128`
//!   targets), where ugorji decodes them to `float64` in `interface{}`. In a
//!   `Value`, a bignum is recognised by looking ahead at its content: one
//!   wider than 128 bits, longer than 64 bytes or written as an
//!   indefinite-length (chunked) byte string stays `Value::Tagged(2 | 3,
//!   Bytes)`; such a tag is written back with a definite byte string, which
//!   then reads as an integer when it fits (the number is the same).
//! - **Null** read into a scalar target (`u32`, `bool`, `String`...) is a
//!   type error, where ugorji gives the zero value; `Option<T>` takes it as
//!   `None` and containers as empty (`docs/ugorji-options.md`, "Nil into a
//!   typed target").
//! - **Undefined** (`f7`) is nil for typed targets (as ugorji), but stays
//!   `Value::Simple(23)` in `Value` so that it re-encodes unchanged.
//! - **simple(n)** values other than false/true/null/undefined decode to
//!   `Value::Simple(n)`; ugorji rejects them.

mod decode;
mod document;
mod encode;
mod handle;

pub use decode::CborDecoder;
pub use encode::CborEncoder;
pub use handle::CborHandle;

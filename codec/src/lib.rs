//! # codec: one derive, five formats
//!
//! Encode and decode Rust types in **MessagePack**, **CBOR**, **Binc**,
//! **Simple** and **JSON** through one `#[derive(Codec)]`, with the format
//! chosen at compile time (a concrete handle, fully monomorphized) or at run
//! time ([`AnyHandle`]). Byte-exact with Go's `ugorji/go/codec`, which it
//! follows in options and struct tags.
//!
//! ```
//! use codec::{AnyHandle, Codec, JsonHandle, MsgpackHandle};
//!
//! #[derive(Codec, Debug, PartialEq)]
//! struct Order {
//!     id: u64,
//!     #[codec(rename = "sku")]
//!     item: String,
//!     #[codec(omitempty)]
//!     note: Option<String>,
//!     lines: Vec<u32>,
//! }
//!
//! let order = Order { id: 7, item: "A-1".into(), note: None, lines: vec![2, 3] };
//!
//! // Compile-time choice.
//! let json = codec::to_vec(&order, &JsonHandle::default())?;
//! assert_eq!(json, br#"{"id":7,"sku":"A-1","lines":[2,3]}"#);
//!
//! // Run-time choice, by name.
//! let h: AnyHandle = "msgpack".parse()?;
//! let bytes = h.to_vec(&order)?;
//! let back: Order = h.from_slice(&bytes)?;
//! assert_eq!(back, order);
//! # let _ = MsgpackHandle::default();
//! # Ok::<(), codec::Error>(())
//! ```
//!
//! This crate re-exports everything of [`codec_core`] (the shared driver:
//! traits, [`Value`], [`Error`], options) and the five handles.

pub use codec_core::*;

pub use codec_binc::BincHandle;
pub use codec_cbor::CborHandle;
pub use codec_json::JsonHandle;
pub use codec_msgpack::MsgpackHandle;
pub use codec_simple::SimpleHandle;

/// The format crates, for their drivers and format-specific options.
pub mod formats {
    pub use codec_binc as binc;
    pub use codec_cbor as cbor;
    pub use codec_json as json;
    pub use codec_msgpack as msgpack;
    pub use codec_simple as simple;
}

mod any;
pub use any::AnyHandle;

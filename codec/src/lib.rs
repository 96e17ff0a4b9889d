//! codec facade (being written).
pub use codec_core::*;

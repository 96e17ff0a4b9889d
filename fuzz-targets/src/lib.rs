//! # codec-fuzz-targets: the fuzz targets of the codec family
//!
//! One function per target, each taking arbitrary bytes, shared by two runners:
//!
//! - the cargo-fuzz binaries in `fuzz/` (coverage-guided, libFuzzer), and
//! - the stable replay test `tests/replay.rs`, which runs every target over
//!   the seed corpus and a fixed number of deterministic mutations of it on
//!   every `cargo test --workspace`.
//!
//! A target panics only when the codec breaks a promise (see [`targets`]):
//! a panic inside a decoder, a disagreement between the slice and streaming
//! decoders, a value that does not round-trip, or a limit not enforced.
//!
//! ```
//! use codec_fuzz_targets::targets;
//!
//! // Arbitrary bytes: decoding fails cleanly, nothing panics.
//! targets::msgpack(&[0xdd, 0xff, 0xff, 0xff, 0xff]);
//! targets::json(b"[1, {\"a\": [true, null]}]");
//! ```

pub mod corpus;
pub mod mutate;
pub mod stream;
pub mod targets;
pub mod types;

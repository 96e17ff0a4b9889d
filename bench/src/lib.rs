//! Benchmarks of the `codec` crates against the Rust serialization ecosystem,
//! modelled on go-codec-bench (`CodecSuite`, `XSuite`, `CodecXSuite`) and on
//! the datasets of rust_serialization_benchmark.
//!
//! * [`datasets`]: the Rust types of every dataset and their deterministic
//!   generators (seeded with [`rng::Rng`], no `rand`).
//! * [`peers`]: the other libraries ("peers"), each wired to every dataset it
//!   can express, as a list of [`harness::Case`]s.
//! * [`harness`]: the case registry shared by the `report` binary, the
//!   criterion bench `codec_x_suite` and the round-trip tests.
//! * [`alloc`]: the counting global allocator behind the allocation figures.
//!
//! Every dataset type derives our `codec::Codec` beside the peers' derives,
//! with `#[codec(...)]` attributes mirroring what the serde attributes say;
//! our handles are wired in [`peers::ours`].

pub mod alloc;
pub mod datasets;
pub mod harness;
pub mod peers;
pub mod rng;
pub mod serde_helpers;

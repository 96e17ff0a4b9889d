//! The `ugorji_interop` harness: vectors parsing, Rust models of the Go types,
//! comparison rules, documented divergences and the per-handle runner.

pub(crate) mod compare;
pub(crate) mod divergence;
pub(crate) mod generic;
pub(crate) mod handles;
pub(crate) mod model;
pub(crate) mod runner;
pub(crate) mod typed;

//! The datasets: one module per dataset, each with its Rust types and a
//! deterministic constructor.

pub mod canada;
pub mod citm;
pub mod color_group;
pub mod fxcbor;
pub mod log;
pub mod mesh;
pub mod minecraft;
pub mod mk48;
pub mod polyglot;
pub mod test_struc;
pub mod twitter;

use std::path::PathBuf;

/// The folder holding `twitter.json`, `citm_catalog.json` and `canada.json`.
#[must_use]
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Reads one of the JSON documents of [`data_dir`].
///
/// # Panics
/// If the file cannot be read.
#[must_use]
pub fn read_document(name: &str) -> Vec<u8> {
    let path = data_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

//! Writes the seed corpus of every fuzz target: `seed-corpus [DIR]`
//! (default `fuzz/corpus` under the workspace root).

use codec_fuzz_targets::corpus::{workspace_root, write_corpus};
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let root = workspace_root();
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("fuzz/corpus"));
    let n = write_corpus(&dir, &root)?;
    println!("wrote {n} seed files under {}", dir.display());
    Ok(())
}

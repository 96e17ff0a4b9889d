//! Runs every fuzz target over the seed corpus and a fixed number of
//! deterministic mutations of it: fuzzing on stable, on every test run.
//!
//! `CODEC_FUZZ_ITERS` sets the mutations per handle (default below); the
//! seed of the mutator is fixed, so a failure reproduces exactly.

use codec_fuzz_targets::corpus::{Seed, seeds, workspace_root};
use codec_fuzz_targets::mutate::{Rng, mutate};
use codec_fuzz_targets::targets;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Mutated inputs per handle in a default run.
const DEFAULT_ITERS: usize = 30_000;

fn iters() -> usize {
    std::env::var("CODEC_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_ITERS)
}

fn hex(data: &[u8]) -> String {
    data.iter().map(|b| format!("{b:02x}")).collect()
}

fn run(target: fn(&[u8]), what: &str, data: &[u8]) {
    if catch_unwind(AssertUnwindSafe(|| target(data))).is_err() {
        panic!("target {what} failed on input {}", hex(data));
    }
}

fn replay(handle: &str, target: fn(&[u8]), seed: u64) {
    let corpus: Vec<Seed> = seeds(handle, &workspace_root());
    assert!(
        corpus.len() >= 40,
        "{handle}: only {} seeds found: is the repository complete?",
        corpus.len()
    );
    for s in &corpus {
        run(target, &s.name, &s.data);
        // Every strict prefix of every seed, as the issues ask.
        for cut in 0..s.data.len().min(512) {
            run(target, &s.name, &s.data[..cut]);
        }
    }
    let mut rng = Rng::new(seed);
    let n = iters();
    for _ in 0..n {
        let a = &corpus[rng.below(corpus.len())].data;
        let b = &corpus[rng.below(corpus.len())].data;
        let input = mutate(&mut rng, a, b, 4096);
        run(target, "mutation", &input);
    }
    println!(
        "replay {handle}: {} seeds (with prefixes) and {n} mutations passed",
        corpus.len()
    );
}

#[test]
fn replay_msgpack() {
    replay("msgpack", targets::msgpack, 0x6d70);
}

#[test]
fn replay_cbor() {
    replay("cbor", targets::cbor, 0xcb0e);
}

#[test]
fn replay_binc() {
    replay("binc", targets::binc, 0xb1c);
}

#[test]
fn replay_simple() {
    replay("simple", targets::simple, 0x5153);
}

#[test]
fn replay_json() {
    replay("json", targets::json, 0x150e);
}

#[test]
fn replay_json_whitespace() {
    // The target's first byte seeds where whitespace goes: each seed with a few.
    let corpus: Vec<Seed> = seeds("json", &workspace_root());
    for s in &corpus {
        for b in [0u8, 1, 7, 0x5a, 0xff] {
            let mut data = vec![b];
            data.extend_from_slice(&s.data);
            run(targets::json_whitespace, &s.name, &data);
        }
    }
    let mut rng = Rng::new(0x3a7e);
    let n = iters() / 3;
    for _ in 0..n {
        let a = &corpus[rng.below(corpus.len())].data;
        let b = &corpus[rng.below(corpus.len())].data;
        let input = mutate(&mut rng, a, b, 4096);
        run(targets::json_whitespace, "mutation", &input);
    }
    println!(
        "replay json_whitespace: {} seeds and {n} mutations passed",
        corpus.len()
    );
}

/// Every input a cargo-fuzz campaign found (crash or timeout), kept in
/// `tests/regressions/<target>-<kind>-<hash>` and replayed through its target.
#[test]
fn regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/regressions") {
        let path = entry.expect("dir entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let Some((target, _)) = name.split_once('-') else {
            continue;
        };
        let f: fn(&[u8]) = match target {
            "msgpack" => targets::msgpack,
            "cbor" => targets::cbor,
            "binc" => targets::binc,
            "simple" => targets::simple,
            "json" => targets::json,
            "json_whitespace" => targets::json_whitespace,
            other => panic!("{name}: unknown target {other}"),
        };
        let data = std::fs::read(&path).expect("read regression input");
        run(f, name, &data);
        n += 1;
    }
    assert!(
        n >= 2,
        "only {n} regression inputs found in {}",
        dir.display()
    );
}

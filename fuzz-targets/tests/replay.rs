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

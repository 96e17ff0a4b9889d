//! Decodes one JSON document again and again, as a user's own loop would,
//! in a process that does nothing else, and prints the time per document
//! and the page faults taken (Linux; from `/proc/self/stat`):
//!
//! ```text
//! cargo run --release -p bench --example bare_loop -- FILE IMPLEMENTATION [ITERATIONS]
//! ```
//!
//! IMPLEMENTATION: `document` (a fresh `codec::Document` per input, with
//! `codec::from_slice`), `document-into` (one `Document` refilled with
//! `codec::from_slice_into`), `value` (`codec::Value`), `sonic-rs`
//! (`sonic_rs::Value`), `serde_json` (`serde_json::Value`). The document
//! is first re-encoded compact, as the report's `_value` cases are.
//!
//! The report times each case in a process that has already built every
//! dataset, so the allocator has room at hand. Here nothing else has run:
//! a document's buffers may be taken from the system and given back to it
//! on every decode, each page faulted in again, which the page-fault count
//! shows. Run each implementation in a process of its own.

use std::hint::black_box;
use std::time::Instant;

/// Minor page faults of this process so far (`None` off Linux).
fn minor_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // After the command name in parentheses: state, ppid, pgrp, session,
    // tty_nr, tpgid, flags, minflt.
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split(' ').nth(7)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, implementation, rest @ ..] = args.as_slice() else {
        eprintln!("usage: bare_loop FILE IMPLEMENTATION [ITERATIONS]");
        std::process::exit(2);
    };
    let iterations: u32 = match rest.first().map(|n| n.parse()) {
        None => 200,
        Some(Ok(n)) if n > 0 => n,
        _ => {
            eprintln!("ITERATIONS: a whole number from 1 up");
            std::process::exit(2);
        }
    };
    let text = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(1);
    });
    let h = codec::JsonHandle::default();
    let parsed: codec::Value = codec::from_slice(&text, &h).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(1);
    });
    let input = codec::to_vec(&parsed, &h).expect("a decoded Value encodes");
    drop(parsed);

    let mut doc = codec::Document::default();
    let mut run: Box<dyn FnMut()> = match implementation.as_str() {
        "document" => Box::new(|| {
            let d: codec::Document = codec::from_slice(&input, &h).expect("decode");
            black_box(d);
        }),
        "document-into" => Box::new(|| {
            codec::from_slice_into(&input, &h, &mut doc).expect("decode");
            black_box(&doc);
        }),
        "value" => Box::new(|| {
            let v: codec::Value = codec::from_slice(&input, &h).expect("decode");
            black_box(v);
        }),
        "sonic-rs" => Box::new(|| {
            let v: sonic_rs::Value = sonic_rs::from_slice(&input).expect("decode");
            black_box(v);
        }),
        "serde_json" => Box::new(|| {
            let v: serde_json::Value = serde_json::from_slice(&input).expect("decode");
            black_box(v);
        }),
        other => {
            eprintln!("unknown implementation {other}");
            std::process::exit(2);
        }
    };
    let faults = minor_faults();
    let start = Instant::now();
    for _ in 0..iterations {
        run();
    }
    let per_doc = start.elapsed() / iterations;
    let faults = match (faults, minor_faults()) {
        (Some(a), Some(b)) => format!("{:.1}", (b - a) as f64 / f64::from(iterations)),
        _ => "n/a".to_owned(),
    };
    println!("{implementation}: {per_doc:.2?} per document, {faults} page faults per document");
}

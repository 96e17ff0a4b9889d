//! Runs one registered case in a loop, for profilers:
//!
//! ```text
//! cargo build --release -p bench --example profile_case
//! valgrind --tool=callgrind --toggle-collect='profile_case::hot_loop' \
//!     target/release/examples/profile_case log msgpack Decode 20
//! perf record -g target/release/examples/profile_case mesh cbor Encode 200
//! ```
//!
//! Arguments: dataset, implementation (exact name, e.g. `msgpack`,
//! `AnyHandle-json`, `zerompk`), op (`Encode`, `Decode`, `DecodeBorrowed`),
//! iterations (default 100). Only that dataset is built; the case is
//! round-trip checked as usual before it runs.

use std::time::Instant;

use bench::harness::Case;

/// The loop a profiler isolates (callgrind: `--toggle-collect`).
#[inline(never)]
fn hot_loop(case: &mut Case, iterations: u64) {
    for _ in 0..iterations {
        (case.run)();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dataset, implementation, op, rest @ ..] = args.as_slice() else {
        eprintln!("usage: profile_case DATASET IMPLEMENTATION OP [ITERATIONS]");
        std::process::exit(2);
    };
    let iterations: u64 = match rest.first().map(|n| n.parse()) {
        None => 100,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("iterations: {e}");
            std::process::exit(2);
        }
    };
    let reg = bench::peers::registry(Some(&format!("{dataset}/{implementation}")));
    for f in &reg.failures {
        eprintln!(
            "round trip failed: {}/{}: {}",
            f.dataset, f.implementation, f.message
        );
    }
    let Some(mut case) = reg.cases.into_iter().find(|c| {
        c.dataset == *dataset && c.implementation == *implementation && c.op.name() == op
    }) else {
        eprintln!("no case {dataset}/{implementation}/{op}");
        std::process::exit(1);
    };
    let start = Instant::now();
    hot_loop(&mut case, iterations);
    let elapsed = start.elapsed();
    eprintln!(
        "{}: {iterations} runs, {:.1} ns/op",
        case.id(),
        elapsed.as_nanos() as f64 / iterations as f64
    );
}

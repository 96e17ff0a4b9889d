//! `cargo run --release -p bench --bin report [-- --quick] [--filter TERMS] [--json PATH]`
//!
//! Runs every registered case (see `bench::peers`) for a short fixed time per
//! round, interleaving all cases round after round so that machine drift
//! (frequency scaling, other load) spreads evenly over them, and prints one
//! markdown table per dataset: ns/op (median over rounds), MB/s (encoded
//! bytes per second), encoded size, allocations and allocated bytes per op
//! (from the counting global allocator), and for each of our handles the
//! ratio to the fastest peer of the same format family and op.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use bench::alloc;
use bench::harness::{Case, Family, Op, Registry};

struct Options {
    quick: bool,
    filter: Option<String>,
    json: Option<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut opts = Options {
        quick: false,
        filter: None,
        json: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => opts.quick = true,
            "--filter" => opts.filter = Some(args.next().ok_or("--filter needs a value")?),
            "--json" => opts.json = Some(args.next().ok_or("--json needs a path")?),
            "--bench" => {} // passed by `cargo bench`
            "-h" | "--help" => {
                println!(
                    "report [--quick] [--filter TERM[,TERM...]] [--json PATH]\n\
                     TERM is a substring of <dataset>/<implementation>"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(opts)
}

/// Measurements of one case.
#[derive(Default, serde::Serialize)]
struct Measured {
    dataset: String,
    implementation: String,
    family: String,
    op: String,
    ours: bool,
    positional: bool,
    ns_per_op: f64,
    mb_per_s: f64,
    encoded_len: usize,
    allocs_per_op: f64,
    alloc_bytes_per_op: f64,
    iterations: u64,
    ratio_to_fastest_peer: Option<f64>,
    /// Ratio to the fastest peer of the same family, op and struct layout
    /// (field names or positional), when such a peer exists.
    ratio_to_same_layout_peer: Option<f64>,
}

struct State {
    case: Case,
    batch: u64,
    per_round_ns: Vec<f64>,
    iterations: u64,
    allocs: u64,
    bytes: u64,
}

/// Times `batch` runs of the case (allocations are not counted meanwhile).
fn time_batch(case: &mut Case, batch: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..batch {
        (case.run)();
    }
    start.elapsed()
}

/// Runs of each case whose allocations are counted, apart from the timed ones.
const COUNTED_RUNS: u64 = 3;

/// Counts the allocations of [`COUNTED_RUNS`] runs of the case.
fn count_allocs(case: &mut Case) -> alloc::AllocStats {
    let before = alloc::snapshot();
    let on = alloc::count_allocations();
    for _ in 0..COUNTED_RUNS {
        (case.run)();
    }
    drop(on);
    alloc::snapshot().since(before)
}

fn main() {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let (rounds, slice) = if opts.quick {
        (3, Duration::from_millis(25))
    } else {
        (7, Duration::from_millis(150))
    };

    let setup = Instant::now();
    let reg: Registry = bench::peers::registry(opts.filter.as_deref());
    eprintln!(
        "set-up: {} cases in {:.1?} ({} round-trip failures)",
        reg.cases.len(),
        setup.elapsed(),
        reg.failures.len()
    );
    let Registry {
        cases,
        failures,
        gaps,
        ..
    } = reg;

    // Calibrate: how many runs fill one time slice.
    let mut states: Vec<State> = cases
        .into_iter()
        .map(|mut case| {
            let t = time_batch(&mut case, 1); // also warms up
            let t2 = time_batch(&mut case, 1);
            let counted = count_allocs(&mut case);
            let one = t.min(t2).max(Duration::from_nanos(1));
            let batch = (slice.as_nanos() / one.as_nanos()).clamp(1, 1 << 32) as u64;
            State {
                case,
                batch,
                per_round_ns: Vec::new(),
                iterations: 0,
                allocs: counted.allocations,
                bytes: counted.bytes,
            }
        })
        .collect();

    // Interleaved rounds: every case once per round, in a rotating order.
    let n = states.len();
    for round in 0..rounds {
        for k in 0..n {
            let s = &mut states[(k + round * 7) % n.max(1)];
            let t = time_batch(&mut s.case, s.batch);
            s.per_round_ns.push(t.as_nanos() as f64 / s.batch as f64);
            s.iterations += s.batch;
        }
        eprintln!("round {}/{rounds} done", round + 1);
    }

    let mut results: Vec<Measured> = states
        .iter_mut()
        .map(|s| {
            s.per_round_ns.sort_by(f64::total_cmp);
            let ns = s.per_round_ns[s.per_round_ns.len() / 2];
            Measured {
                dataset: s.case.dataset.clone(),
                implementation: s.case.implementation.clone(),
                family: s.case.family.name().to_owned(),
                op: s.case.op.name().to_owned(),
                ours: s.case.ours,
                positional: s.case.positional,
                ns_per_op: ns,
                mb_per_s: s.case.encoded_len as f64 / ns * 1e3,
                encoded_len: s.case.encoded_len,
                allocs_per_op: s.allocs as f64 / COUNTED_RUNS as f64,
                alloc_bytes_per_op: s.bytes as f64 / COUNTED_RUNS as f64,
                iterations: s.iterations,
                ratio_to_fastest_peer: None,
                ratio_to_same_layout_peer: None,
            }
        })
        .collect();

    // Ratio of each of our handles to the fastest peer of its family and op,
    // and to the fastest peer that also writes structs the same way (with
    // field names, or positionally).
    let mut fastest: BTreeMap<(String, String, String), f64> = BTreeMap::new();
    let mut fastest_layout: BTreeMap<(String, String, String, bool), f64> = BTreeMap::new();
    for r in results.iter().filter(|r| !r.ours) {
        let key = (r.dataset.clone(), r.family.clone(), r.op.clone());
        let e = fastest.entry(key.clone()).or_insert(f64::INFINITY);
        *e = e.min(r.ns_per_op);
        let e = fastest_layout
            .entry((key.0, key.1, key.2, r.positional))
            .or_insert(f64::INFINITY);
        *e = e.min(r.ns_per_op);
    }
    for r in results.iter_mut().filter(|r| r.ours) {
        let key = (r.dataset.clone(), r.family.clone(), r.op.clone());
        let ratio = |f: &f64| Some(r.ns_per_op / f).filter(|x| x.is_finite());
        r.ratio_to_fastest_peer = fastest.get(&key).and_then(ratio);
        r.ratio_to_same_layout_peer = fastest_layout
            .get(&(key.0, key.1, key.2, r.positional))
            .and_then(ratio);
    }

    print_markdown(&results, &failures, &gaps, opts.quick, rounds, slice);

    if let Some(path) = opts.json {
        let doc = serde_json::json!({
            "rounds": rounds,
            "slice_ms": slice.as_millis() as u64,
            "results": results,
            "failures": failures.iter().map(|f| serde_json::json!({
                "dataset": f.dataset, "implementation": f.implementation, "message": f.message
            })).collect::<Vec<_>>(),
            "gaps": gaps.iter().map(|g| serde_json::json!({
                "dataset": g.dataset, "implementation": g.implementation, "reason": g.reason
            })).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&doc).expect("serialize report");
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("writing {path}: {e}");
            std::process::exit(1);
        }
        eprintln!("wrote {path}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

fn human_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn print_markdown(
    results: &[Measured],
    failures: &[bench::harness::Failure],
    gaps: &[bench::harness::Gap],
    quick: bool,
    rounds: usize,
    slice: Duration,
) {
    println!("# codec benchmark report\n");
    println!(
        "{} rounds × {:?} per case per round, interleaved{}. ns/op is the median over rounds; \
         MB/s is encoded bytes per second; allocations count every alloc/realloc through the \
         global allocator, in 3 separate runs per case (not while timing). Encoders write into a reused buffer where the API allows it \
         (see `bench::peers`). Ratios compare each of our handles to the fastest peer of the \
         same format family and op (< 1 is faster); \"same layout\" compares only with peers \
         that also write structs with field names (or, for `msgpack-toarray`, positionally: \
         msgpacker).\n",
        rounds,
        slice,
        if quick { " (--quick)" } else { "" }
    );
    let mut by_dataset: BTreeMap<&str, Vec<&Measured>> = BTreeMap::new();
    for r in results {
        by_dataset.entry(&r.dataset).or_default().push(r);
    }
    let family_order = |f: &str| {
        [
            Family::Json,
            Family::MsgPack,
            Family::Cbor,
            Family::Binc,
            Family::Simple,
            Family::Binary,
        ]
        .iter()
        .position(|x| x.name() == f)
    };
    let op_order = |o: &str| {
        [Op::Encode, Op::Decode, Op::DecodeBorrowed, Op::DecodeReader]
            .iter()
            .position(|x| x.name() == o)
    };
    for (dataset, mut rows) in by_dataset {
        rows.sort_by(|a, b| {
            (
                op_order(&a.op),
                family_order(&a.family),
                !a.ours,
                a.ns_per_op.to_bits(),
            )
                .cmp(&(
                    op_order(&b.op),
                    family_order(&b.family),
                    !b.ours,
                    b.ns_per_op.to_bits(),
                ))
        });
        println!("## {dataset}\n");
        println!(
            "| op | format | implementation | ns/op | MB/s | size (B) | allocs/op | alloc B/op | vs fastest peer | same layout |"
        );
        println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for r in rows {
            let show = |x: Option<f64>| x.map_or_else(String::new, |x| format!("{x:.2}×"));
            let ratio = show(r.ratio_to_fastest_peer);
            let same = show(r.ratio_to_same_layout_peer);
            println!(
                "| {} | {} | {}{} | {} | {:.1} | {} | {:.1} | {:.0} | {} | {} |",
                r.op,
                r.family,
                if r.ours { "**" } else { "" },
                if r.ours {
                    format!("{}**", r.implementation)
                } else {
                    r.implementation.clone()
                },
                human_ns(r.ns_per_op),
                r.mb_per_s,
                r.encoded_len,
                r.allocs_per_op,
                r.alloc_bytes_per_op,
                ratio,
                same
            );
        }
        let missing: Vec<_> = gaps.iter().filter(|g| g.dataset == dataset).collect();
        if !missing.is_empty() {
            println!();
            for g in missing {
                println!("- no {}: {}", g.implementation, g.reason);
            }
        }
        println!();
    }
    print_summary(results);
    if !failures.is_empty() {
        println!("## Round-trip failures (not timed)\n");
        for f in failures {
            println!("- {} / {}: {}", f.dataset, f.implementation, f.message);
        }
    }
}

/// The two summary tables: each of our handles against the fastest peer of
/// its family, and the run-time path (`AnyHandle-<handle>`) against the
/// static path, per dataset and op.
fn print_summary(results: &[Measured]) {
    let find = |dataset: &str, op: &str, name: &str| {
        results
            .iter()
            .find(|r| r.dataset == dataset && r.op == op && r.implementation == name)
    };
    let mut keys: Vec<(&str, &str)> = results
        .iter()
        .filter(|r| r.ours)
        .map(|r| (r.dataset.as_str(), r.op.as_str()))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let fmt = |x: Option<f64>| x.map_or_else(|| "–".to_owned(), |x| format!("{x:.2}×"));

    println!("## Summary: our handles / fastest peer of the same format\n");
    println!(
        "Time ratio (< 1: we are faster). In parentheses where it differs: against the \
         fastest peer with the same struct layout (field names; for `msgpack-toarray`, \
         positional).\n"
    );
    let handles = ["msgpack", "msgpack-toarray", "cbor", "json"];
    println!("| dataset | op | {} |", handles.join(" | "));
    println!("|---|---|{}", "---:|".repeat(handles.len()));
    for &(dataset, op) in &keys {
        let cells: Vec<String> = handles
            .iter()
            .map(|h| match find(dataset, op, h) {
                None => "–".to_owned(),
                Some(r) => {
                    let all = fmt(r.ratio_to_fastest_peer);
                    let same = fmt(r.ratio_to_same_layout_peer);
                    if all == same {
                        all
                    } else {
                        format!("{all} ({same})")
                    }
                }
            })
            .collect();
        println!("| {dataset} | {op} | {} |", cells.join(" | "));
    }
    println!();

    println!("## Dynamic documents: `Document` and `Value`\n");
    println!(
        "Decoding into and encoding from `codec::Document` (flat) and `codec::Value` (a tree), \
         each as a time ratio to the fastest peer's own dynamic value in that format \
         (< 1: we are faster).\n"
    );
    println!("| dataset | op | handle | Document | Value | Document / Value |");
    println!("|---|---|---|---:|---:|---:|");
    for &(dataset, op) in &keys {
        for h in ["msgpack", "cbor", "json"] {
            let (Some(doc), Some(value)) = (
                find(dataset, op, &format!("{h}-document")),
                find(dataset, op, h),
            ) else {
                continue;
            };
            println!(
                "| {dataset} | {op} | {h} | {} | {} | {:.2}× |",
                fmt(doc.ratio_to_fastest_peer),
                fmt(value.ratio_to_fastest_peer),
                doc.ns_per_op / value.ns_per_op
            );
        }
    }
    println!();

    println!("## Run-time path: AnyHandle-<handle> / <handle>\n");
    let handles = ["msgpack", "cbor", "binc", "simple", "json"];
    println!("| dataset | op | {} |", handles.join(" | "));
    println!("|---|---|{}", "---:|".repeat(handles.len()));
    for &(dataset, op) in &keys {
        let cells: Vec<String> = handles
            .iter()
            .map(|h| {
                let any = find(dataset, op, &format!("AnyHandle-{h}"));
                let stat = find(dataset, op, h);
                fmt(any.zip(stat).map(|(a, s)| a.ns_per_op / s.ns_per_op))
            })
            .collect();
        if cells.iter().any(|c| c != "–") {
            println!("| {dataset} | {op} | {} |", cells.join(" | "));
        }
    }
    println!();
}

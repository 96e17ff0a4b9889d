//! Criterion suite with go-codec-bench's naming:
//!
//! * `CodecSuite/<dataset>/<handle>/<op>`: our handles (static path; the
//!   run-time path is `AnyHandle-<handle>`);
//! * `XSuite/<dataset>/<peer>/<op>`: the peers;
//! * `CodecXSuite`: both. Criterion's filter is a regex on the id, and no id
//!   contains `CodecXSuite`, so that word is rewritten to
//!   `^(CodecSuite|XSuite)/` here.
//!
//! ```text
//! cargo bench -p bench --bench codec_x_suite -- CodecXSuite   # everything
//! cargo bench -p bench --bench codec_x_suite -- XSuite        # peers only
//! cargo bench -p bench --bench codec_x_suite -- CodecSuite    # ours only
//! cargo bench -p bench --bench codec_x_suite -- 'XSuite/log/' # one dataset
//! ```
//!
//! Only the datasets whose names occur in the filter are built (all of them
//! for the three suite names).

use std::time::Duration;

use criterion::Criterion;

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .configure_from_args();
    if filter.as_deref() == Some("CodecXSuite") {
        criterion = criterion.with_filter("^(CodecSuite|XSuite)/");
    }
    // Build only the datasets named in the filter, if it names any.
    let dataset_filter = filter.as_deref().and_then(|f| {
        let parts: Vec<&str> = f.split('/').collect();
        let ds = match parts.first() {
            Some(&"CodecXSuite" | &"XSuite" | &"CodecSuite") => parts.get(1).copied(),
            _ => Some(parts[0]),
        };
        ds.filter(|d| !d.is_empty() && bench::peers::DATASETS.iter().any(|n| n.contains(d)))
    });
    let reg = bench::peers::registry(dataset_filter);
    for f in &reg.failures {
        eprintln!(
            "round trip failed, not benchmarked: {}/{}: {}",
            f.dataset, f.implementation, f.message
        );
    }
    for mut case in reg.cases {
        let id = case.id();
        criterion.bench_function(&id, |b| b.iter(&mut case.run));
    }
    criterion.final_summary();
}

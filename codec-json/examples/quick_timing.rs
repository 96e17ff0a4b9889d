//! A rough side-by-side timing against serde_json (the bench crate has the
//! real suite): decode into the dynamic value and encode it back, for the
//! three benchmark documents. Run with `cargo run --release --example quick_timing`.

use codec_core::{Value, from_slice, to_vec};
use codec_json::JsonHandle;
use std::time::Instant;

fn time<F: FnMut()>(mut f: F) -> f64 {
    f();
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed().as_millis() < 400 {
        f();
        n += 1;
    }
    start.elapsed().as_secs_f64() / n as f64
}

fn main() {
    let h = JsonHandle::default();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let input = std::fs::read(dir.join(name)).expect("data file");
        let mb = input.len() as f64 / 1e6;
        let ours: Value = from_slice(&input, &h).expect("decode");
        let theirs: serde_json::Value = serde_json::from_slice(&input).expect("serde_json");
        let d_ours = time(|| {
            let v: Value = from_slice(&input, &h).expect("decode");
            std::hint::black_box(v);
        });
        let d_sj = time(|| {
            let v: serde_json::Value = serde_json::from_slice(&input).expect("decode");
            std::hint::black_box(v);
        });
        let e_ours = time(|| {
            std::hint::black_box(to_vec(&ours, &h).expect("encode"));
        });
        let e_sj = time(|| {
            std::hint::black_box(serde_json::to_vec(&theirs).expect("encode"));
        });
        println!(
            "{name:18} decode Value: codec-json {:7.1} MB/s, serde_json {:7.1} MB/s | encode Value: codec-json {:7.1} MB/s, serde_json {:7.1} MB/s",
            mb / d_ours,
            mb / d_sj,
            mb / e_ours,
            mb / e_sj
        );
    }
}

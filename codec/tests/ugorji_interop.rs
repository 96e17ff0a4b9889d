//! Interoperability with Go's `ugorji/go/codec` v1.2.14, checked against golden
//! vectors (`tests/data/ugorji-interop.jsonl`, or the file named by `CODEC_VECTORS`).
//!
//! For every case of every implemented handle, three checks:
//! 1. **encode**: the case's value, as the Rust type standing for its Go type, encoded
//!    under a handle configured from the case's options, gives exactly `hex` (or, for a
//!    documented divergence, our valid bytes derived from `hex` by rule);
//! 2. **typed decode**: those bytes decode into the same Rust type and equal `value`
//!    (or `roundtrip_same_type.value` when ugorji's round trip changes the value);
//! 3. **dynamic decode**: those bytes decode into `Value` and match `decoded_dynamic`.
//!
//! Struct cases are also encoded generically, as a `Value` laid out by the vectors'
//! struct rules, so a vectors file with other struct shapes still runs. A case passes
//! only if all its checks pass; an option we do not support is a failure.
//!
//! Run: `cargo test -p codec --test ugorji_interop -- --nocapture`.

mod interop;

use interop::divergence::Rule;
use interop::handles::{HANDLES, run};
use interop::runner::{Dispatch, Visit, dispatch};
use interop::typed::{Case, parse_case};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn vectors_path() -> PathBuf {
    match std::env::var_os("CODEC_VECTORS") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/ugorji-interop.jsonl"
        )),
    }
}

/// The cases, and the lines that could not be parsed (attributed to a handle when known).
fn load() -> (Vec<Case>, Vec<(String, String)>) {
    let path = vectors_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the vectors file {}: {e}", path.display()));
    let mut cases = Vec::new();
    let mut bad = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_case(line) {
            Ok(c) => cases.push(c),
            Err((id, e)) => bad.push((id.unwrap_or_else(|| format!("line {}", n + 1)), e)),
        }
    }
    (cases, bad)
}

#[test]
fn ugorji_interop() {
    let (cases, bad) = load();
    println!(
        "ugorji_interop: {} cases from {}",
        cases.len(),
        vectors_path().display()
    );
    let mut failed_total = bad.len();
    for (id, e) in &bad {
        println!("  FAIL {id}: cannot parse the case: {e}");
    }
    let mut divergences: BTreeMap<Rule, Vec<String>> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    for &handle in HANDLES {
        let mine: Vec<&Case> = cases.iter().filter(|c| c.handle == handle).collect();
        match run(handle, &mine) {
            None => println!("ugorji_interop {handle}: not implemented"),
            Some(r) => {
                println!(
                    "ugorji_interop {handle}: {} passed, {} failed",
                    r.passed,
                    r.failed.len()
                );
                if r.generic_only > 0 {
                    println!(
                        "  ({} struct cases of shapes without a derived model were checked generically only)",
                        r.generic_only
                    );
                }
                failed_total += r.failed.len();
                for (k, ids) in r.divergences {
                    divergences.entry(k).or_default().extend(ids);
                }
                for (id, errs) in r.failed {
                    failures.push(format!("  FAIL {id}"));
                    failures.extend(errs.into_iter().map(|e| format!("      {e}")));
                }
            }
        }
    }
    let others: Vec<&Case> = cases
        .iter()
        .filter(|c| !HANDLES.contains(&c.handle.as_str()))
        .collect();
    for c in &others {
        failures.push(format!("  FAIL {}: unknown handle {:?}", c.id, c.handle));
    }
    failed_total += others.len();
    for f in &failures {
        println!("{f}");
    }
    println!("ugorji_interop: documented divergences (asserting our valid bytes), by rule:");
    if divergences.is_empty() {
        println!("  none");
    }
    for (rule, ids) in &divergences {
        println!("  {} case(s): {}", ids.len(), rule.describe());
        println!("    ({})", ids.join(", "));
    }
    assert_eq!(
        failed_total, 0,
        "{failed_total} ugorji_interop case(s) failed; see the list above"
    );
}

/// Checks the harness itself, with no handle involved: every case's value builds its
/// Rust type, and that value converts (`to_value`, the derive's own view) to the
/// vectors' layout, and back (`from_value`) to a value that converts the same.
struct SelfCheck<'a> {
    case: &'a Case,
    errs: Vec<String>,
}

impl Visit for SelfCheck<'_> {
    fn visit<T: interop::model::Model>(&mut self) {
        self.also_encode::<T>();
    }

    fn also_encode_unordered<T: interop::model::Model>(&mut self) {
        self.also_encode::<T>();
    }

    fn also_encode<T: interop::model::Model>(&mut self) {
        use interop::compare::{Rules, value_matches};
        let ty = interop::runner::type_label::<T>();
        let v = match T::from_typed(&self.case.value) {
            Ok(v) => v,
            Err(e) => return self.errs.push(format!("building {ty}: value{e}")),
        };
        let no_keys = |_: &codec::Value| Err("no key encoder without canonical".to_string());
        let want = match interop::generic::wire_value(&self.case.value, false, &no_keys) {
            Ok(w) => w,
            Err(e) => return self.errs.push(format!("generic value: {e}")),
        };
        let got = match codec::to_value(&v) {
            Ok(g) => g,
            Err(e) => return self.errs.push(format!("to_value({ty}): {e}")),
        };
        // Every handle writes Go's zero time as nil; a `Value` keeps the time.
        let layout = match &got {
            codec::Value::Time(t) if t.is_go_zero() => &codec::Value::Nil,
            other => other,
        };
        if let Err(e) = value_matches(layout, &want, &Rules::default()) {
            self.errs.push(format!(
                "to_value({ty}) differs from the vectors' layout: at value{e}"
            ));
        }
        // Back through from_value: fields the type does not write (skip) are lost, so
        // compare what the decoded value writes.
        match codec::from_value::<T>(&got).and_then(|back| codec::to_value(&back)) {
            Ok(again) => {
                if let Err(e) = value_matches(&again, &got, &Rules::default()) {
                    self.errs
                        .push(format!("from_value({ty}) then to_value: at value{e}"));
                }
            }
            Err(e) => self.errs.push(format!("from_value({ty}): {e}")),
        }
    }
}

#[test]
fn vectors_build_their_rust_values() {
    let (cases, bad) = load();
    assert!(bad.is_empty(), "unparsable cases: {bad:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let mut s = SelfCheck {
            case,
            errs: Vec::new(),
        };
        match dispatch(&case.go_type, &case.value, &mut s) {
            Dispatch::Done => {}
            // A struct shape without a derived model: the main test checks it generically.
            Dispatch::UnknownStruct if case.category == "struct" => {}
            other => s
                .errs
                .push(format!("go_type {:?}: {other:?}", case.go_type)),
        }
        if !s.errs.is_empty() {
            failures.push(format!("{}: {}", case.id, s.errs.join("; ")));
        }
    }
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed the harness self-check",
        failures.len()
    );
}

//! Comparing decoded values with what the vectors expect.
//!
//! Rules (each is a property of the vectors' notation, not of one case):
//! - integers compare exactly, including the signed/unsigned choice (`Int` vs `Uint`);
//! - floats compare by their IEEE-754 bits; ugorji returns float64 for every float in
//!   `interface{}`, while our `Value` keeps float32 as `F32`, so an `F32` matches an
//!   expected float64 whose bits equal the exactly widened float32;
//! - NaN payloads compare exactly, except for a format whose NaN has no payload on the
//!   wire (binc's single NaN byte): there any NaN matches any NaN;
//! - maps compare as multisets of (key, value) pairs: TYPED pair order carries no
//!   meaning (wire order is checked by the encode check);
//! - times compare by instant; a `Z` in the vectors (UTC, or a zero offset: Go prints
//!   both as `Z`) matches offset `None` or `Some(0)`, any other offset must be equal.

use codec::{Time, Value};

/// Comparison settings of one handle.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Rules {
    /// The wire form of NaN carries no payload (binc): any NaN matches any NaN.
    pub(crate) nan_without_payload: bool,
}

pub(crate) fn f64_matches(got: f64, want: f64, r: &Rules) -> bool {
    got.to_bits() == want.to_bits() || (r.nan_without_payload && got.is_nan() && want.is_nan())
}

pub(crate) fn f32_matches(got: f32, want: f32, r: &Rules) -> bool {
    got.to_bits() == want.to_bits() || (r.nan_without_payload && got.is_nan() && want.is_nan())
}

pub(crate) fn time_matches(got: &Time, want: &Time) -> bool {
    let norm = |o: Option<i32>| o.filter(|&o| o != 0);
    got.unix_seconds() == want.unix_seconds()
        && got.nanos() == want.nanos()
        && norm(got.offset()) == norm(want.offset())
}

fn describe(v: &Value) -> String {
    let s = match v {
        Value::F32(f) => format!("F32({f:?}, bits {:08x})", f.to_bits()),
        Value::F64(f) => format!("F64({f:?}, bits {:016x})", f.to_bits()),
        Value::Time(t) => format!("Time({t}, offset {:?})", t.offset()),
        other => format!("{other:?}"),
    };
    if s.len() > 160 {
        let mut cut = 157;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &s[..cut])
    } else {
        s
    }
}

/// Checks that `got` (decoded) matches `want` (expected); the error names the path.
pub(crate) fn value_matches(got: &Value, want: &Value, r: &Rules) -> Result<(), String> {
    let mismatch = || {
        Err(format!(
            ": expected {}, got {}",
            describe(want),
            describe(got)
        ))
    };
    match (got, want) {
        (Value::F64(g), Value::F64(w)) if f64_matches(*g, *w, r) => Ok(()),
        (Value::F32(g), Value::F32(w)) if f32_matches(*g, *w, r) => Ok(()),
        (Value::F32(g), Value::F64(w)) if f64_matches(f64::from(*g), *w, r) => Ok(()),
        (Value::F64(g), Value::F32(w)) if f64_matches(*g, f64::from(*w), r) => Ok(()),
        (Value::Time(g), Value::Time(w)) if time_matches(g, w) => Ok(()),
        (Value::Array(g), Value::Array(w)) => {
            if g.len() != w.len() {
                return Err(format!(
                    ": expected an array of {} items, got {}",
                    w.len(),
                    g.len()
                ));
            }
            for (i, (g, w)) in g.iter().zip(w).enumerate() {
                value_matches(g, w, r).map_err(|e| format!("[{i}]{e}"))?;
            }
            Ok(())
        }
        (Value::Map(g), Value::Map(w)) => map_matches(g, w, r),
        (Value::Tagged(gt, g), Value::Tagged(wt, w)) if gt == wt => {
            value_matches(g, w, r).map_err(|e| format!("<tag {gt}>{e}"))
        }
        (
            Value::F32(_)
            | Value::F64(_)
            | Value::Time(_)
            | Value::Array(_)
            | Value::Map(_)
            | Value::Tagged(..),
            _,
        ) => mismatch(),
        (g, w) if g == w => Ok(()),
        _ => mismatch(),
    }
}

/// Maps as multisets of pairs: every expected pair must match a distinct got pair.
fn map_matches(got: &[(Value, Value)], want: &[(Value, Value)], r: &Rules) -> Result<(), String> {
    if got.len() != want.len() {
        let keys: Vec<String> = got.iter().map(|(k, _)| describe(k)).collect();
        return Err(format!(
            ": expected a map of {} entries, got {} (keys {})",
            want.len(),
            got.len(),
            keys.join(", ")
        ));
    }
    let mut used = vec![false; got.len()];
    for (wk, wv) in want {
        let mut key_found: Option<String> = None;
        let mut matched = false;
        for (i, (gk, gv)) in got.iter().enumerate() {
            if used[i] || value_matches(gk, wk, r).is_err() {
                continue;
            }
            match value_matches(gv, wv, r) {
                Ok(()) => {
                    used[i] = true;
                    matched = true;
                    break;
                }
                Err(e) => key_found = Some(e),
            }
        }
        if !matched {
            let k = describe(wk);
            return Err(match key_found {
                Some(e) => format!("{{{k}}}{e}"),
                None => {
                    let keys: Vec<String> = got.iter().map(|(k, _)| describe(k)).collect();
                    format!(
                        ": expected key {k}, not among the decoded keys {}",
                        keys.join(", ")
                    )
                }
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        let r = Rules::default();
        assert!(value_matches(&Value::F32(2.5), &Value::F64(2.5), &r).is_ok());
        assert!(value_matches(&Value::F32(0.1), &Value::F64(0.1), &r).is_err());
        assert!(value_matches(&Value::Int(7), &Value::Uint(7), &r).is_err());
        let m1 = Value::Map(vec![
            (Value::from("a"), Value::Int(1)),
            (Value::from("b"), Value::Int(2)),
        ]);
        let m2 = Value::Map(vec![
            (Value::from("b"), Value::Int(2)),
            (Value::from("a"), Value::Int(1)),
        ]);
        assert!(value_matches(&m1, &m2, &r).is_ok());
        let m3 = Value::Map(vec![
            (Value::from("b"), Value::Int(3)),
            (Value::from("a"), Value::Int(1)),
        ]);
        assert!(value_matches(&m1, &m3, &r).is_err());
        let nan1 = Value::F64(f64::from_bits(0x7ff8_0000_0000_0001));
        let nan0 = Value::F64(f64::NAN);
        assert!(value_matches(&nan0, &nan1, &r).is_err());
        assert!(
            value_matches(
                &nan0,
                &nan1,
                &Rules {
                    nan_without_payload: true
                }
            )
            .is_ok()
        );
        let t = Time::from_unix(5, 0).unwrap();
        assert!(value_matches(&Value::Time(t.with_offset(0)), &Value::Time(t), &r).is_ok());
        assert!(value_matches(&Value::Time(t.with_offset(60)), &Value::Time(t), &r).is_err());
    }
}

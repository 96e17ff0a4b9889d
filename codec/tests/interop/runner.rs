//! Running the three checks (encode, typed decode, dynamic decode) on every case of
//! one handle, plus the generic `Value` check for struct cases.

use super::compare::{Rules, value_matches};
use super::divergence::{Expect, Rule, expect};
use super::generic::wire_value;
use super::model::{
    Bench, BenchOmitEmpty, BenchRenamed, BenchToArray, ColorGroup, Event, KNOWN_STRUCTS, Model,
    Outer, Scalars,
};
use super::typed::{Case, Typed, to_hex};
use codec::{Handle, Time, Value, from_slice, to_vec};
use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Receives the Rust type chosen for a case's Go type.
pub(crate) trait Visit {
    /// The case's type: encode, typed decode.
    fn visit<T: Model>(&mut self);
    /// Another type that must encode to the same bytes.
    fn also_encode<T: Model>(&mut self);
    /// A type whose maps iterate in arbitrary order (`HashMap`): it must encode to
    /// the same bytes when the order is fixed (`Canonical`, or no map of more than
    /// one entry).
    fn also_encode_unordered<T: Model>(&mut self);
}

/// What [`dispatch`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Dispatch {
    Done,
    /// A struct type without a derived model here (checked generically only).
    UnknownStruct,
    Unknown,
}

macro_rules! nilable {
    ($v:expr, $value:expr, $t:ty) => {
        if $value.is_nil() {
            $v.visit::<Option<$t>>()
        } else {
            $v.visit::<$t>()
        }
    };
}

fn fixed_bytes<V: Visit>(n: &str, v: &mut V) -> Dispatch {
    match n {
        "1" => v.visit::<[u8; 1]>(),
        "2" => v.visit::<[u8; 2]>(),
        "3" => v.visit::<[u8; 3]>(),
        "4" => v.visit::<[u8; 4]>(),
        "8" => v.visit::<[u8; 8]>(),
        "16" => v.visit::<[u8; 16]>(),
        "32" => v.visit::<[u8; 32]>(),
        _ => return Dispatch::Unknown,
    }
    Dispatch::Done
}

fn fixed_ints<V: Visit>(n: &str, v: &mut V) -> Dispatch {
    match n {
        "1" => v.visit::<[i64; 1]>(),
        "2" => v.visit::<[i64; 2]>(),
        "3" => v.visit::<[i64; 3]>(),
        "4" => v.visit::<[i64; 4]>(),
        _ => return Dispatch::Unknown,
    }
    Dispatch::Done
}

fn structs<V: Visit>(go: &str, value: &Typed, v: &mut V) -> Dispatch {
    let (ptr, slice, base) = if let Some(b) = go.strip_prefix('*') {
        (true, false, b)
    } else if let Some(b) = go.strip_prefix("[]") {
        (false, true, b)
    } else {
        (false, false, go)
    };
    macro_rules! pick {
        ($($s:ident),*) => {
            match base {
                $(stringify!($s) => {
                    if ptr {
                        v.visit::<Option<Box<$s>>>();
                    } else if slice {
                        nilable!(v, value, Vec<$s>);
                    } else {
                        v.visit::<$s>();
                    }
                    Dispatch::Done
                })*
                _ if base.starts_with(|c: char| c.is_ascii_uppercase()) && !base.contains(['[', ']', '*']) => {
                    Dispatch::UnknownStruct
                }
                _ => Dispatch::Unknown,
            }
        };
    }
    pick!(
        Bench,
        BenchToArray,
        BenchOmitEmpty,
        BenchRenamed,
        ColorGroup,
        Event,
        Outer,
        Scalars
    )
}

/// Chooses the Rust type of a Go type (see `model` for the mapping rules).
pub(crate) fn dispatch<V: Visit>(go: &str, value: &Typed, v: &mut V) -> Dispatch {
    match go {
        "bool" => v.visit::<bool>(),
        "int" | "int64" => v.visit::<i64>(),
        "int8" => v.visit::<i8>(),
        "int16" => v.visit::<i16>(),
        "int32" => v.visit::<i32>(),
        "uint" | "uint64" => v.visit::<u64>(),
        "uint8" => v.visit::<u8>(),
        "uint16" => v.visit::<u16>(),
        "uint32" => v.visit::<u32>(),
        "float32" => v.visit::<f32>(),
        "float64" => v.visit::<f64>(),
        "string" => v.visit::<String>(),
        "[]byte" | "[]uint8" => nilable!(v, value, Vec<u8>),
        "[]int" | "[]int64" => nilable!(v, value, Vec<i64>),
        "[]uint64" | "[]uint" => nilable!(v, value, Vec<u64>),
        "[]int32" => nilable!(v, value, Vec<i32>),
        "[]uint32" => nilable!(v, value, Vec<u32>),
        "[]string" => nilable!(v, value, Vec<String>),
        "[]float32" => nilable!(v, value, Vec<f32>),
        "[]float64" => nilable!(v, value, Vec<f64>),
        "[]bool" => nilable!(v, value, Vec<bool>),
        "[][]int" => nilable!(v, value, Vec<Option<Vec<i64>>>),
        "[]interface {}" => nilable!(v, value, Vec<Value>),
        "map[string]string" => {
            nilable!(v, value, BTreeMap<String, String>);
            v.also_encode_unordered::<Option<HashMap<String, String>>>();
        }
        "map[string]int" => {
            nilable!(v, value, BTreeMap<String, i64>);
            v.also_encode_unordered::<Option<HashMap<String, i64>>>();
        }
        "map[string]map[string]int" => {
            nilable!(v, value, BTreeMap<String, Option<BTreeMap<String, i64>>>);
            v.also_encode_unordered::<Option<HashMap<String, Option<HashMap<String, i64>>>>>();
        }
        "map[uint64]bool" => {
            nilable!(v, value, BTreeMap<u64, bool>);
            v.also_encode_unordered::<Option<HashMap<u64, bool>>>();
        }
        "map[int]string" => {
            nilable!(v, value, BTreeMap<i64, String>);
            v.also_encode_unordered::<Option<HashMap<i64, String>>>();
        }
        "map[string][]int" => {
            nilable!(v, value, BTreeMap<String, Option<Vec<i64>>>);
            v.also_encode_unordered::<Option<HashMap<String, Option<Vec<i64>>>>>();
        }
        "map[string]interface {}" => {
            nilable!(v, value, BTreeMap<String, Value>);
            v.also_encode_unordered::<Option<HashMap<String, Value>>>();
        }
        "map[interface {}]interface {}" => {
            v.visit::<Value>();
            nilable!(v, value, BTreeMap<Value, Value>);
            v.also_encode_unordered::<Option<HashMap<Value, Value>>>();
        }
        "map[string]bool" => {
            nilable!(v, value, BTreeMap<String, bool>);
            v.also_encode_unordered::<Option<HashMap<String, bool>>>();
        }
        "map[string]float64" => {
            nilable!(v, value, BTreeMap<String, f64>);
            v.also_encode_unordered::<Option<HashMap<String, f64>>>();
        }
        "time.Time" => {
            if value.is_nil() {
                v.visit::<Option<Time>>();
                v.visit::<Time>();
            } else {
                v.visit::<Time>();
                v.also_encode::<Option<Time>>();
            }
        }
        "*int" => v.visit::<Option<i64>>(),
        "interface{} (nil)" | "interface {}" => {
            v.visit::<Value>();
            v.also_encode::<Option<()>>();
        }
        _ => {
            if let Some(n) = go
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix("]uint8").or(r.strip_suffix("]byte")))
            {
                return fixed_bytes(n, v);
            }
            if let Some(n) = go.strip_prefix('[').and_then(|r| r.strip_suffix("]int")) {
                return fixed_ints(n, v);
            }
            return structs(go, value, v);
        }
    }
    Dispatch::Done
}

/// A readable Rust type name (module paths dropped).
pub(crate) fn type_label<T>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::new();
    let mut word = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(&word));
            word.clear();
            out.push(c);
        }
    }
    out.push_str(word.rsplit("::").next().unwrap_or(&word));
    out
}

/// Describes two byte strings that differ: whole when short, else a window.
pub(crate) fn show_diff(want: &[u8], got: &[u8], json: bool) -> String {
    let first = want
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len().min(got.len()));
    if json {
        let w = String::from_utf8_lossy(want);
        let g = String::from_utf8_lossy(got);
        if want.len() <= 200 && got.len() <= 200 {
            return format!("expected {w:?}, got {g:?}");
        }
    }
    if want.len() <= 64 && got.len() <= 64 {
        return format!("expected {}, got {}", to_hex(want), to_hex(got));
    }
    let lo = first.saturating_sub(16);
    let win = |b: &[u8]| to_hex(&b[lo.min(b.len())..(first + 32).min(b.len())]);
    format!(
        "expected {} bytes, got {}; first difference at byte {first}: expected ..{}.., got ..{}.. (from byte {lo})",
        want.len(),
        got.len(),
        win(want),
        win(got)
    )
}

/// The three checks of one case under one handle.
pub(crate) struct Checks<'a, H: Handle> {
    pub(crate) case: &'a Case,
    pub(crate) exp: &'a Expect,
    pub(crate) h: &'a H,
    pub(crate) rules: Rules,
    pub(crate) errs: Vec<String>,
}

impl<H: Handle> Checks<'_, H> {
    fn encode_check<T: Model>(&mut self, v: &T, ty: &str) {
        match to_vec(v, self.h) {
            Ok(b) if b == self.exp.hex => {}
            Ok(b) => {
                let d = show_diff(&self.exp.hex, &b, self.case.handle == "json");
                self.errs.push(format!("encode as {ty}: {d}"));
            }
            Err(e) => self.errs.push(format!("encode as {ty}: error: {e}")),
        }
    }

    /// Decodes into `Value` and compares with `decoded_dynamic`.
    pub(crate) fn dynamic_check(&mut self) {
        match from_slice::<Value, H>(&self.exp.input, self.h) {
            Ok(got) => {
                if let Err(e) = value_matches(&got, &self.exp.dynamic.to_value(), &self.rules) {
                    self.errs.push(format!("dynamic decode: at value{e}"));
                }
            }
            Err(e) => self.errs.push(format!("dynamic decode: error: {e}")),
        }
    }

    /// Encodes the struct value generically (as a `Value` in wire order).
    pub(crate) fn generic_check(&mut self, plain: &H) {
        let main = self.h;
        let enc = |k: &Value| to_vec(k, main).map_err(|e| format!("encoding key {k}: {e}"));
        let v = match wire_value(&self.case.value, self.case.canonical(), &enc) {
            Ok(v) => v,
            Err(e) => {
                self.errs.push(format!("generic Value: {e}"));
                return;
            }
        };
        match to_vec(&v, plain) {
            Ok(b) if b == self.exp.hex => {}
            Ok(b) => {
                let d = show_diff(&self.exp.hex, &b, self.case.handle == "json");
                self.errs.push(format!("encode generically as Value: {d}"));
            }
            Err(e) => self
                .errs
                .push(format!("encode generically as Value: error: {e}")),
        }
    }
}

impl<H: Handle> Visit for Checks<'_, H> {
    fn visit<T: Model>(&mut self) {
        let ty = type_label::<T>();
        let v = match T::from_typed(&self.case.value) {
            Ok(v) => v,
            Err(e) => {
                self.errs
                    .push(format!("building the value as {ty}: value{e}"));
                return;
            }
        };
        self.encode_check(&v, &ty);
        match from_slice::<T, H>(&self.exp.input, self.h) {
            Ok(got) => match T::from_typed(&self.exp.roundtrip) {
                Ok(want) => {
                    if let Err(e) = got.same(&want, &self.rules) {
                        self.errs.push(format!("typed decode as {ty}: at value{e}"));
                    }
                }
                Err(e) => self
                    .errs
                    .push(format!("building the round-trip value as {ty}: value{e}")),
            },
            Err(e) => self.errs.push(format!("typed decode as {ty}: error: {e}")),
        }
    }

    fn also_encode<T: Model>(&mut self) {
        let ty = type_label::<T>();
        match T::from_typed(&self.case.value) {
            Ok(v) => self.encode_check(&v, &ty),
            Err(e) => self
                .errs
                .push(format!("building the value as {ty}: value{e}")),
        }
    }

    fn also_encode_unordered<T: Model>(&mut self) {
        if self.case.canonical() || self.case.value.max_map_len() <= 1 {
            self.also_encode::<T>();
        }
    }
}

/// Results of one handle.
#[derive(Debug, Default)]
pub(crate) struct HandleReport {
    pub(crate) passed: usize,
    pub(crate) failed: Vec<(String, Vec<String>)>,
    pub(crate) divergences: BTreeMap<Rule, Vec<String>>,
    /// Struct cases of a shape with no derived model here: checked generically.
    pub(crate) generic_only: usize,
}

/// Builds a handle configured as a case says; `canonical` overrides `Canonical`.
pub(crate) type Build<H> = fn(&Case, Option<bool>) -> Result<H, String>;

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_owned()
    }
}

/// One case: all checks; the failures found (empty when it passes).
fn run_case<H: Handle>(
    case: &Case,
    build: Build<H>,
    rules: Rules,
    report: &mut HandleReport,
) -> Vec<String> {
    let h = match build(case, None) {
        Ok(h) => h,
        Err(e) => return vec![format!("handle options: {e}")],
    };
    let exp = match expect(case) {
        Ok(e) => e,
        Err(e) => return vec![format!("expectation: {e}")],
    };
    if let Some(rule) = exp.rule {
        report
            .divergences
            .entry(rule)
            .or_default()
            .push(case.id.clone());
    }
    let mut c = Checks {
        case,
        exp: &exp,
        h: &h,
        rules,
        errs: Vec::new(),
    };
    match dispatch(&case.go_type, &case.value, &mut c) {
        Dispatch::Done => {}
        Dispatch::UnknownStruct if case.category == "struct" => report.generic_only += 1,
        Dispatch::UnknownStruct | Dispatch::Unknown => c.errs.push(format!(
            "unknown go_type {:?}: the test has no Rust type for it (known structs: {})",
            case.go_type,
            KNOWN_STRUCTS.join(", ")
        )),
    }
    c.dynamic_check();
    if case.value.contains_struct() {
        match build(case, Some(false)) {
            Ok(plain) => c.generic_check(&plain),
            Err(e) => c.errs.push(format!("handle options: {e}")),
        }
    }
    c.errs
}

/// Runs every case of one handle; a panic in the code under test is a failure.
pub(crate) fn run_handle<H: Handle>(
    cases: &[&Case],
    build: Build<H>,
    rules: Rules,
) -> HandleReport {
    let mut report = HandleReport::default();
    for case in cases {
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut local = HandleReport::default();
            let errs = run_case(case, build, rules, &mut local);
            (errs, local)
        }));
        let errs = match result {
            Ok((errs, local)) => {
                for (k, ids) in local.divergences {
                    report.divergences.entry(k).or_default().extend(ids);
                }
                report.generic_only += local.generic_only;
                errs
            }
            Err(p) => vec![format!("panicked: {}", panic_message(&*p))],
        };
        if errs.is_empty() {
            report.passed += 1;
        } else {
            report.failed.push((case.id.clone(), errs));
        }
    }
    report
}

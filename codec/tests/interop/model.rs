//! Rust types for the vectors' Go types: how to build each from a TYPED value, and
//! how to compare a decoded value with an expected one.
//!
//! Go's nil-able types (slices, maps, pointers) map to `Option<..>` where they may be
//! nil, following DESIGN.md ("omitempty follows Rust types": a Go slice that can be nil
//! is `Option<Vec<T>>`). Go's zero `time.Time`, which ugorji writes as nil, is
//! `Option<Time>::None`, and `Time::GO_ZERO` in a `Time`.

use super::compare::{Rules, f32_matches, f64_matches, time_matches, value_matches};
use super::typed::{StructT, Typed};
use codec::{Codec, DecodeOwned, Encode, Time, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::hash::Hash;

/// A Rust type that stands for a Go type of the vectors.
pub(crate) trait Model: Encode + DecodeOwned + Debug + Sized {
    /// Builds the value from its TYPED form.
    fn from_typed(t: &Typed) -> Result<Self, String>;

    /// Compares `self` (decoded) with `want`; the error starts with the path.
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String>;

    /// For `u8`: the element of a TYPED `bytes` value.
    fn from_byte(_b: u8) -> Option<Self> {
        None
    }
}

fn wrong(want: &str, t: &Typed) -> String {
    format!(": expected a TYPED {want}, the vector has {}", t.short())
}

fn differ<T: Debug>(got: &T, want: &T) -> Result<(), String> {
    Err(format!(": expected {want:?}, got {got:?}"))
}

macro_rules! int_model {
    ($($t:ty),*) => {$(
        impl Model for $t {
            fn from_typed(t: &Typed) -> Result<Self, String> {
                let n: i128 = match t {
                    Typed::Int(v) => i128::from(*v),
                    Typed::Uint(v) => i128::from(*v),
                    other => return Err(wrong("integer", other)),
                };
                <$t>::try_from(n).map_err(|_| format!(": {n} does not fit in {}", stringify!($t)))
            }
            fn same(&self, want: &Self, _: &Rules) -> Result<(), String> {
                if self == want { Ok(()) } else { differ(self, want) }
            }
        }
    )*};
}

int_model!(i8, i16, i32, i64, u16, u32, u64);

impl Model for u8 {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        match t {
            Typed::Uint(v) => u8::try_from(*v).map_err(|_| format!(": {v} does not fit in u8")),
            Typed::Int(v) => u8::try_from(*v).map_err(|_| format!(": {v} does not fit in u8")),
            other => Err(wrong("integer", other)),
        }
    }
    fn same(&self, want: &Self, _: &Rules) -> Result<(), String> {
        if self == want {
            Ok(())
        } else {
            differ(self, want)
        }
    }
    fn from_byte(b: u8) -> Option<Self> {
        Some(b)
    }
}

impl Model for bool {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        match t {
            Typed::Bool(b) => Ok(*b),
            other => Err(wrong("bool", other)),
        }
    }
    fn same(&self, want: &Self, _: &Rules) -> Result<(), String> {
        if self == want {
            Ok(())
        } else {
            differ(self, want)
        }
    }
}

impl Model for f32 {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        match t {
            Typed::F32(b) => Ok(f32::from_bits(*b)),
            other => Err(wrong("f32", other)),
        }
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        if f32_matches(*self, *want, r) {
            Ok(())
        } else {
            Err(format!(
                ": expected {want:?} (bits {:08x}), got {self:?} (bits {:08x})",
                want.to_bits(),
                self.to_bits()
            ))
        }
    }
}

impl Model for f64 {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        match t {
            Typed::F64(b) => Ok(f64::from_bits(*b)),
            other => Err(wrong("f64", other)),
        }
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        if f64_matches(*self, *want, r) {
            Ok(())
        } else {
            Err(format!(
                ": expected {want:?} (bits {:016x}), got {self:?} (bits {:016x})",
                want.to_bits(),
                self.to_bits()
            ))
        }
    }
}

/// Go's untyped nil (`interface{}` holding nothing), as `Option<()>::None`.
impl Model for () {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        match t {
            Typed::Nil => Ok(()),
            other => Err(wrong("nil", other)),
        }
    }
    fn same(&self, _: &Self, _: &Rules) -> Result<(), String> {
        Ok(())
    }
}

impl Model for String {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        match t {
            Typed::Str(s) => Ok(s.clone()),
            other => Err(wrong("str", other)),
        }
    }
    fn same(&self, want: &Self, _: &Rules) -> Result<(), String> {
        if self == want {
            Ok(())
        } else {
            differ(self, want)
        }
    }
}

impl Model for Time {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        match t {
            Typed::Time(Some(t)) => Ok(*t),
            // Written as nil, read back from nil into a `Time`.
            Typed::Time(None) => Ok(Time::GO_ZERO),
            other => Err(wrong("time", other)),
        }
    }
    fn same(&self, want: &Self, _: &Rules) -> Result<(), String> {
        if time_matches(self, want) {
            Ok(())
        } else {
            Err(format!(
                ": expected {want} (offset {:?}), got {self} (offset {:?})",
                want.offset(),
                self.offset()
            ))
        }
    }
}

impl Model for Value {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        if t.contains_struct() {
            return Err(": a struct inside an interface{} value is not supported".to_string());
        }
        Ok(t.to_value())
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        value_matches(self, want, r)
    }
}

impl<T: Model> Model for Option<T> {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        if t.is_nil() {
            Ok(None)
        } else {
            T::from_typed(t).map(Some)
        }
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        match (self, want) {
            (Some(g), Some(w)) => g.same(w, r),
            (None, None) => Ok(()),
            (None, Some(w)) => Err(format!(": expected Some({w:?}), got None")),
            (Some(g), None) => Err(format!(": expected None, got Some({g:?})")),
        }
    }
}

impl<T: Model> Model for Box<T> {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        T::from_typed(t).map(Box::new)
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        (**self).same(want, r)
    }
}

fn items<T: Model>(t: &Typed) -> Result<Vec<T>, String> {
    match t {
        Typed::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| T::from_typed(x).map_err(|e| format!("[{i}]{e}")))
            .collect(),
        Typed::Bytes(b) => b
            .iter()
            .map(|&x| T::from_byte(x).ok_or_else(|| wrong("array", t)))
            .collect(),
        other => Err(wrong("array", other)),
    }
}

fn same_items<T: Model>(got: &[T], want: &[T], r: &Rules) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            ": expected {} items, got {}",
            want.len(),
            got.len()
        ));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        g.same(w, r).map_err(|e| format!("[{i}]{e}"))?;
    }
    Ok(())
}

impl<T: Model> Model for Vec<T> {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        items(t)
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        same_items(self, want, r)
    }
}

impl<T: Model, const N: usize> Model for [T; N] {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        let v: Vec<T> = items(t)?;
        let n = v.len();
        v.try_into()
            .map_err(|_| format!(": expected {N} items for [_; {N}], the vector has {n}"))
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        same_items(self, want, r)
    }
}

fn pairs<K: Model, V: Model>(t: &Typed) -> Result<Vec<(K, V)>, String> {
    match t {
        Typed::Map(m) => m
            .iter()
            .map(|(k, v)| {
                let key = K::from_typed(k).map_err(|e| format!("{{key {}}}{e}", k.short()))?;
                let val = V::from_typed(v).map_err(|e| format!("{{{}}}{e}", k.short()))?;
                Ok((key, val))
            })
            .collect(),
        other => Err(wrong("map", other)),
    }
}

impl<K: Model + Ord, V: Model> Model for BTreeMap<K, V> {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        let p: Vec<(K, V)> = pairs(t)?;
        let n = p.len();
        let m: BTreeMap<K, V> = p.into_iter().collect();
        if m.len() != n {
            return Err(": the vector's map has duplicate keys".to_string());
        }
        Ok(m)
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        if self.len() != want.len() {
            return Err(format!(
                ": expected {} entries, got {}",
                want.len(),
                self.len()
            ));
        }
        for (k, w) in want {
            match self.get(k) {
                Some(g) => g.same(w, r).map_err(|e| format!("{{{k:?}}}{e}"))?,
                None => return Err(format!(": missing key {k:?}")),
            }
        }
        Ok(())
    }
}

impl<K: Model + Eq + Hash, V: Model> Model for HashMap<K, V> {
    fn from_typed(t: &Typed) -> Result<Self, String> {
        let p: Vec<(K, V)> = pairs(t)?;
        let n = p.len();
        let m: HashMap<K, V> = p.into_iter().collect();
        if m.len() != n {
            return Err(": the vector's map has duplicate keys".to_string());
        }
        Ok(m)
    }
    fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
        if self.len() != want.len() {
            return Err(format!(
                ": expected {} entries, got {}",
                want.len(),
                self.len()
            ));
        }
        for (k, w) in want {
            match self.get(k) {
                Some(g) => g.same(w, r).map_err(|e| format!("{{{k:?}}}{e}"))?,
                None => return Err(format!(": missing key {k:?}")),
            }
        }
        Ok(())
    }
}

/// Takes the fields of a TYPED struct by Go name, checking that every field of
/// the vector is used exactly once.
pub(crate) struct Fields<'a> {
    s: &'a StructT,
    used: Vec<bool>,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(s: &'a StructT) -> Self {
        Fields {
            s,
            used: vec![false; s.fields.len()],
        }
    }

    pub(crate) fn take<T: Model>(&mut self, name: &str) -> Result<T, String> {
        let i = self
            .s
            .fields
            .iter()
            .position(|(n, _)| n == name)
            .ok_or_else(|| format!(": struct {} in the vector has no field {name}", self.s.name))?;
        self.used[i] = true;
        T::from_typed(&self.s.fields[i].1).map_err(|e| format!(".{name}{e}"))
    }

    pub(crate) fn finish(self) -> Result<(), String> {
        let extra: Vec<&str> = self
            .s
            .fields
            .iter()
            .zip(&self.used)
            .filter(|(_, u)| !**u)
            .map(|(f, _)| f.0.as_str())
            .collect();
        if extra.is_empty() {
            Ok(())
        } else {
            Err(format!(
                ": struct {} in the vector has fields the Rust model lacks: {}",
                self.s.name,
                extra.join(", ")
            ))
        }
    }
}

/// Declares a `#[derive(Codec)]` struct whose field names are the Go names, and its
/// [`Model`] impl.
macro_rules! model_struct {
    ($(#[$m:meta])* struct $name:ident { $($(#[$fm:meta])* $f:ident : $t:ty),* $(,)? }) => {
        #[derive(Debug, Clone, Default, Codec)]
        #[allow(non_snake_case)]
        $(#[$m])*
        pub(crate) struct $name {
            $($(#[$fm])* pub(crate) $f: $t,)*
        }

        impl Model for $name {
            fn from_typed(t: &Typed) -> Result<Self, String> {
                let mut fields = Fields::new(t.as_struct(stringify!($name)).map_err(|e| format!(": {e}"))?);
                let v = $name { $($f: fields.take(stringify!($f))?,)* };
                fields.finish()?;
                Ok(v)
            }
            fn same(&self, want: &Self, r: &Rules) -> Result<(), String> {
                $(self.$f.same(&want.$f, r).map_err(|e| format!(".{}{e}", stringify!($f)))?;)*
                Ok(())
            }
        }
    };
}

model_struct! {
    /// fxamacker's benchmark struct; nil-able Go slices and maps are `Option`.
    struct Bench {
        T: bool,
        Ui: u64,
        I: i64,
        F: f64,
        B: Option<Vec<u8>>,
        S: String,
        Slci: Option<Vec<i64>>,
        Mss: Option<BTreeMap<String, String>>,
    }
}

model_struct! {
    #[codec(toarray)]
    struct BenchToArray {
        T: bool,
        Ui: u64,
        I: i64,
        F: f64,
        B: Option<Vec<u8>>,
        S: String,
        Slci: Option<Vec<i64>>,
        Mss: Option<BTreeMap<String, String>>,
    }
}

model_struct! {
    /// `Some(vec![])` is kept and `None` dropped, as ugorji keeps an empty non-nil
    /// slice and drops a nil one.
    struct BenchOmitEmpty {
        #[codec(omitempty)] T: bool,
        #[codec(omitempty)] Ui: u64,
        #[codec(omitempty)] I: i64,
        #[codec(omitempty)] F: f64,
        #[codec(omitempty)] B: Option<Vec<u8>>,
        #[codec(omitempty)] S: String,
        #[codec(omitempty)] Slci: Option<Vec<i64>>,
        #[codec(omitempty)] Mss: Option<BTreeMap<String, String>>,
    }
}

model_struct! {
    struct BenchRenamed {
        #[codec(rename = "z_t")] T: bool,
        #[codec(rename = "u")] Ui: u64,
        #[codec(rename = "int")] I: i64,
        #[codec(rename = "f64")] F: f64,
        #[codec(rename = "bytes")] B: Option<Vec<u8>>,
        #[codec(rename = "str")] S: String,
        #[codec(rename = "ints")] Slci: Option<Vec<i64>>,
        #[codec(rename = "dict")] Mss: Option<BTreeMap<String, String>>,
        #[codec(skip)] Skip: String,
    }
}

model_struct! {
    struct ColorGroup {
        ID: i64,
        Name: String,
        Colors: Option<Vec<String>>,
    }
}

model_struct! {
    struct Event {
        Name: String,
        At: Value,
        #[codec(rename = "tags", omitempty)] Tags: Option<Vec<String>>,
    }
}

model_struct! {
    struct Base {
        BaseID: u64,
        Tag: String,
    }
}

model_struct! {
    struct Inner {
        X: i64,
        Y: String,
    }
}

model_struct! {
    struct Outer {
        #[codec(flatten)] Base: Base,
        Name: String,
        Ptr: Option<Box<Inner>>,
        Count: Option<i64>,
        Child: Inner,
        List: Option<Vec<Inner>>,
    }
}

model_struct! {
    struct Scalars {
        I8: i8,
        I16: i16,
        I32: i32,
        U8: u8,
        U16: u16,
        U32: u32,
        F32: f32,
        Tm: Option<Time>,
    }
}

/// Names of the Go structs modelled above.
pub(crate) const KNOWN_STRUCTS: &[&str] = &[
    "Bench",
    "BenchToArray",
    "BenchOmitEmpty",
    "BenchRenamed",
    "ColorGroup",
    "Event",
    "Outer",
    "Scalars",
];

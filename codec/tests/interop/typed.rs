//! The vectors file: cases and their language-neutral TYPED values, parsed with
//! `serde_json` (an oracle independent of the code under test).
//!
//! Times are parsed here too, by a small RFC 3339 parser of the test's own, so
//! that no expected value comes from the code under test.

use codec::{Time, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// A Go value as the vectors describe it (README, "TYPED encoding").
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Typed {
    Nil,
    Bool(bool),
    Int(i64),
    Uint(u64),
    /// IEEE-754 bits (authoritative).
    F32(u32),
    /// IEEE-754 bits (authoritative).
    F64(u64),
    Str(String),
    Bytes(Vec<u8>),
    Array(Vec<Typed>),
    Map(Vec<(Typed, Typed)>),
    /// A `time.Time`; `None` is Go's zero time (written as nil by ugorji).
    Time(Option<Time>),
    Struct(StructT),
}

/// A Go struct: exported fields in declaration order, under their Go names.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StructT {
    pub(crate) name: String,
    pub(crate) fields: Vec<(String, Typed)>,
    pub(crate) to_array: bool,
    pub(crate) codec_tags: BTreeMap<String, String>,
    pub(crate) embedded: Vec<String>,
}

impl Typed {
    pub(crate) fn is_nil(&self) -> bool {
        matches!(self, Typed::Nil | Typed::Time(None))
    }

    /// The struct of this value (or of the value a pointer points to).
    pub(crate) fn as_struct(&self, name: &str) -> Result<&StructT, String> {
        match self {
            Typed::Struct(s) if s.name == name => Ok(s),
            Typed::Struct(s) => Err(format!(
                "expected struct {name}, the vector has struct {}",
                s.name
            )),
            other => Err(format!(
                "expected struct {name}, the vector has {}",
                other.short()
            )),
        }
    }

    /// Whether a struct occurs anywhere inside.
    pub(crate) fn contains_struct(&self) -> bool {
        match self {
            Typed::Struct(_) => true,
            Typed::Array(a) => a.iter().any(Typed::contains_struct),
            Typed::Map(m) => m
                .iter()
                .any(|(k, v)| k.contains_struct() || v.contains_struct()),
            _ => false,
        }
    }

    /// The largest number of entries of any map inside.
    pub(crate) fn max_map_len(&self) -> usize {
        match self {
            Typed::Map(m) => m
                .iter()
                .map(|(k, v)| k.max_map_len().max(v.max_map_len()))
                .fold(m.len(), usize::max),
            Typed::Array(a) => a.iter().map(Typed::max_map_len).max().unwrap_or(0),
            Typed::Struct(s) => s
                .fields
                .iter()
                .map(|(_, v)| v.max_map_len())
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }

    /// A one-line description for messages.
    pub(crate) fn short(&self) -> String {
        let s = format!("{self:?}");
        if s.len() > 120 {
            let mut cut = 117;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}...", &s[..cut])
        } else {
            s
        }
    }

    /// Go's "all bytes zero" test used by `omitempty` in ugorji's default build:
    /// nil, false, 0, +0.0, "", the zero time, and structs whose fields are all
    /// zero. Non-nil empty slices and maps are not zero.
    pub(crate) fn is_go_zero(&self) -> bool {
        match self {
            Typed::Nil | Typed::Time(None) => true,
            Typed::Bool(b) => !b,
            Typed::Int(v) => *v == 0,
            Typed::Uint(v) => *v == 0,
            Typed::F32(b) => *b == 0,
            Typed::F64(b) => *b == 0,
            Typed::Str(s) => s.is_empty(),
            Typed::Struct(s) => s.fields.iter().all(|(_, v)| v.is_go_zero()),
            Typed::Bytes(_) | Typed::Array(_) | Typed::Map(_) | Typed::Time(Some(_)) => false,
        }
    }

    /// The dynamic [`Value`] this TYPED value stands for: int -> Int, uint -> Uint,
    /// floats keep their width, the zero time is nil. Structs become maps under
    /// their Go field names in declaration order (use `generic` for wire names).
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Typed::Nil | Typed::Time(None) => Value::Nil,
            Typed::Bool(b) => Value::Bool(*b),
            Typed::Int(v) => Value::Int(*v),
            Typed::Uint(v) => Value::Uint(*v),
            Typed::F32(b) => Value::F32(f32::from_bits(*b)),
            Typed::F64(b) => Value::F64(f64::from_bits(*b)),
            Typed::Str(s) => Value::Str(s.as_str().into()),
            Typed::Bytes(b) => Value::Bytes(b.clone()),
            Typed::Array(a) => Value::Array(a.iter().map(Typed::to_value).collect()),
            Typed::Map(m) => Value::Map(
                m.iter()
                    .map(|(k, v)| (k.to_value(), v.to_value()))
                    .collect(),
            ),
            Typed::Time(Some(t)) => Value::Time(*t),
            Typed::Struct(s) => Value::Map(
                s.fields
                    .iter()
                    .map(|(k, v)| (Value::Str(k.as_str().into()), v.to_value()))
                    .collect(),
            ),
        }
    }
}

/// One line of the vectors file.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub(crate) id: String,
    pub(crate) handle: String,
    pub(crate) category: String,
    /// Go option names and their JSON values, in file order.
    pub(crate) options: Vec<(String, Json)>,
    pub(crate) value: Typed,
    pub(crate) hex: Vec<u8>,
    pub(crate) go_type: String,
    pub(crate) decoded_dynamic: Typed,
    /// What decoding `hex` into `go_type` gave: `value` itself when `equal` is true.
    pub(crate) roundtrip: Typed,
}

impl Case {
    /// Whether `Canonical` is set.
    pub(crate) fn canonical(&self) -> bool {
        self.options
            .iter()
            .any(|(k, v)| k == "Canonical" && v.as_bool() == Some(true))
    }
}

fn field<'a>(o: &'a serde_json::Map<String, Json>, k: &str) -> Result<&'a Json, String> {
    o.get(k).ok_or_else(|| format!("missing field {k:?}"))
}

fn str_field<'a>(o: &'a serde_json::Map<String, Json>, k: &str) -> Result<&'a str, String> {
    field(o, k)?
        .as_str()
        .ok_or_else(|| format!("field {k:?} is not a string"))
}

/// Parses one line. The error says what is wrong; the id is returned when known.
pub(crate) fn parse_case(line: &str) -> Result<Case, (Option<String>, String)> {
    let j: Json = serde_json::from_str(line).map_err(|e| (None, format!("not JSON: {e}")))?;
    let o = j
        .as_object()
        .ok_or((None, "line is not a JSON object".to_string()))?;
    let id = o.get("id").and_then(Json::as_str).map(str::to_owned);
    let err = |m: String| (id.clone(), m);
    let handle = str_field(o, "handle").map_err(err)?.to_owned();
    let category = str_field(o, "category").map_err(err)?.to_owned();
    let go_type = str_field(o, "go_type").map_err(err)?.to_owned();
    let hex = parse_hex(str_field(o, "hex").map_err(err)?).map_err(|e| err(format!("hex: {e}")))?;
    let options = field(o, "options")
        .map_err(err)?
        .as_object()
        .ok_or_else(|| err("options is not an object".into()))?
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let value =
        parse_typed(field(o, "value").map_err(err)?).map_err(|e| err(format!("value: {e}")))?;
    let decoded_dynamic = parse_typed(field(o, "decoded_dynamic").map_err(err)?)
        .map_err(|e| err(format!("decoded_dynamic: {e}")))?;
    let roundtrip = match o.get("roundtrip_same_type") {
        None => value.clone(),
        Some(rt) => {
            let rt = rt
                .as_object()
                .ok_or_else(|| err("roundtrip_same_type is not an object".into()))?;
            match rt.get("equal").and_then(Json::as_bool) {
                Some(true) => value.clone(),
                Some(false) => parse_typed(field(rt, "value").map_err(err)?)
                    .map_err(|e| err(format!("roundtrip_same_type.value: {e}")))?,
                None => return Err(err("roundtrip_same_type.equal is not a bool".into())),
            }
        }
    };
    Ok(Case {
        id: id.clone().unwrap_or_default(),
        handle,
        category,
        options,
        value,
        hex,
        go_type,
        decoded_dynamic,
        roundtrip,
    })
}

pub(crate) fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", b.len()));
    }
    b.chunks(2)
        .map(|p| {
            let hi = (p[0] as char).to_digit(16);
            let lo = (p[1] as char).to_digit(16);
            match (hi, lo) {
                (Some(h), Some(l)) => Ok((h * 16 + l) as u8),
                _ => Err(format!("bad hex digits {:?}", String::from_utf8_lossy(p))),
            }
        })
        .collect()
}

pub(crate) fn to_hex(b: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

fn single(o: &serde_json::Map<String, Json>) -> Result<(&str, &Json), String> {
    let key = [
        "nil", "bool", "int", "uint", "f32", "f64", "str", "bytes", "array", "map", "time",
        "struct",
    ]
    .into_iter()
    .find(|k| o.contains_key(*k))
    .ok_or_else(|| {
        format!(
            "unknown TYPED object with keys {:?}",
            o.keys().collect::<Vec<_>>()
        )
    })?;
    let v = o.get(key).ok_or_else(|| format!("missing {key}"))?;
    Ok((key, v))
}

/// Parses a TYPED value.
pub(crate) fn parse_typed(j: &Json) -> Result<Typed, String> {
    let o = j
        .as_object()
        .ok_or_else(|| format!("TYPED value is not an object: {j}"))?;
    let (kind, v) = single(o)?;
    let text = || {
        v.as_str()
            .ok_or_else(|| format!("{kind}: expected a string, found {v}"))
    };
    Ok(match kind {
        "nil" => Typed::Nil,
        "bool" => Typed::Bool(v.as_bool().ok_or_else(|| format!("bool: {v}"))?),
        "int" => Typed::Int(text()?.parse().map_err(|e| format!("int {v}: {e}"))?),
        "uint" => Typed::Uint(text()?.parse().map_err(|e| format!("uint {v}: {e}"))?),
        "f32" => {
            let bits = field(o, "bits")?
                .as_str()
                .ok_or("f32: bits is not a string")?;
            Typed::F32(u32::from_str_radix(bits, 16).map_err(|e| format!("f32 bits {bits}: {e}"))?)
        }
        "f64" => {
            let bits = field(o, "bits")?
                .as_str()
                .ok_or("f64: bits is not a string")?;
            Typed::F64(u64::from_str_radix(bits, 16).map_err(|e| format!("f64 bits {bits}: {e}"))?)
        }
        "str" => Typed::Str(text()?.to_owned()),
        "bytes" => Typed::Bytes(parse_hex(text()?)?),
        "array" => Typed::Array(
            v.as_array()
                .ok_or("array: not a JSON array")?
                .iter()
                .map(parse_typed)
                .collect::<Result<_, _>>()?,
        ),
        "map" => {
            let pairs = v.as_array().ok_or("map: not a JSON array")?;
            let mut m = Vec::with_capacity(pairs.len());
            for p in pairs {
                match p.as_array().map(Vec::as_slice) {
                    Some([k, v]) => m.push((parse_typed(k)?, parse_typed(v)?)),
                    _ => return Err(format!("map: entry is not a [key, value] pair: {p}")),
                }
            }
            Typed::Map(m)
        }
        "time" => Typed::Time(parse_go_time(text()?)?),
        "struct" => {
            let s = v.as_object().ok_or("struct: not an object")?;
            let name = str_field(s, "name")?.to_owned();
            let mut fields = Vec::new();
            for f in field(s, "fields")?
                .as_array()
                .ok_or("struct: fields is not an array")?
            {
                match f.as_array().map(Vec::as_slice) {
                    Some([Json::String(n), v]) => fields.push((n.clone(), parse_typed(v)?)),
                    _ => return Err(format!("struct {name}: bad field entry {f}")),
                }
            }
            let to_array = s.get("to_array").and_then(Json::as_bool).unwrap_or(false);
            let mut codec_tags = BTreeMap::new();
            if let Some(t) = s.get("codec_tags") {
                for (k, v) in t.as_object().ok_or("struct: codec_tags is not an object")? {
                    let tag = v.as_str().ok_or("struct: a codec tag is not a string")?;
                    codec_tags.insert(k.clone(), tag.to_owned());
                }
            }
            let mut embedded = Vec::new();
            if let Some(e) = s.get("embedded") {
                for n in e.as_array().ok_or("struct: embedded is not an array")? {
                    embedded.push(
                        n.as_str()
                            .ok_or("struct: embedded name is not a string")?
                            .to_owned(),
                    );
                }
            }
            Typed::Struct(StructT {
                name,
                fields,
                to_array,
                codec_tags,
                embedded,
            })
        }
        _ => return Err(format!("unknown TYPED kind {kind}")),
    })
}

/// Seconds from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Parses Go's RFC3339Nano output. `Z` is UTC (offset `None`); `+hh:mm` a fixed
/// offset. Go's zero time (`0001-01-01T00:00:00Z`) gives `None`.
pub(crate) fn parse_go_time(s: &str) -> Result<Option<Time>, String> {
    let bad = || format!("bad RFC 3339 time {s:?}");
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Result<i64, String> {
        let part = b.get(r).ok_or_else(bad)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        Ok(part.iter().fold(0i64, |a, d| a * 10 + i64::from(d - b'0')))
    };
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return Err(bad());
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, min, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut i = 19;
    let mut nanos = 0u32;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        let mut end = start;
        while b.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        let digits = end - start;
        if digits == 0 || digits > 9 {
            return Err(bad());
        }
        nanos = (num(start..end)? * 10i64.pow((9 - digits) as u32)) as u32;
        i = end;
    }
    let offset = match &b[i..] {
        b"Z" => None,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let o = (num(i + 1..i + 3)? * 3600 + num(i + 4..i + 6)? * 60) as i32;
            Some(if *sign == b'-' { -o } else { o })
        }
        _ => return Err(bad()),
    };
    let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + min * 60 + sec;
    let secs = local - i64::from(offset.unwrap_or(0));
    if secs == -62_135_596_800 && nanos == 0 && offset.is_none() {
        return Ok(None);
    }
    let t = Time::from_unix(secs, nanos).ok_or_else(bad)?;
    Ok(Some(match offset {
        Some(o) => t.with_offset(o),
        None => t,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_times_parse() {
        let t = parse_go_time("2021-03-04T10:36:07.5+05:30")
            .unwrap()
            .unwrap();
        assert_eq!(
            (t.unix_seconds(), t.nanos(), t.offset()),
            (1614834367, 500_000_000, Some(19800))
        );
        let t = parse_go_time("1969-12-31T23:59:59Z").unwrap().unwrap();
        assert_eq!((t.unix_seconds(), t.offset()), (-1, None));
        assert_eq!(parse_go_time("0001-01-01T00:00:00Z").unwrap(), None);
        assert!(parse_go_time("2021-03-04").is_err());
    }
}

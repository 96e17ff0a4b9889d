//! The generic path: any TYPED value (structs included) turned into a [`Value`]
//! laid out in ugorji's wire order, following only the rules of the vectors README.
//! Encoding it with canonical sorting off must give ugorji's bytes; this checks struct
//! cases of shapes the test has no derived type for.
//!
//! Rules: a struct in map form has its fields under their encoded names (`codec` tag
//! name, else the Go name), without `"-"` fields, without `omitempty` fields whose
//! value is all-zero, with embedded structs inlined; it is an array of its fields in
//! declaration order when `to_array`. Under `Canonical`, struct fields sort by encoded
//! name; map keys sort as ugorji does: strings bytewise, integers numerically, bools
//! false first, and mixed (`interface{}`) keys by their encoded bytes.

use super::typed::{StructT, Typed};
use codec::Value;
use std::cmp::Ordering;

/// Encodes one key on its own (for sorting `interface{}` keys by encoded bytes).
pub(crate) type KeyEncoder<'a> = &'a dyn Fn(&Value) -> Result<Vec<u8>, String>;

/// The value in wire order.
pub(crate) fn wire_value(t: &Typed, canonical: bool, enc: KeyEncoder<'_>) -> Result<Value, String> {
    Ok(match t {
        Typed::Struct(s) => {
            let fields = struct_fields(s, canonical, enc)?;
            if s.to_array {
                Value::Array(fields.into_iter().map(|(_, v)| v).collect())
            } else {
                let mut fields = fields;
                if canonical {
                    fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                }
                Value::Map(
                    fields
                        .into_iter()
                        .map(|(k, v)| (Value::Str(k.into()), v))
                        .collect(),
                )
            }
        }
        Typed::Array(a) => Value::Array(
            a.iter()
                .map(|x| wire_value(x, canonical, enc))
                .collect::<Result<_, _>>()?,
        ),
        Typed::Map(m) => {
            let mut entries: Vec<(Value, Value)> = m
                .iter()
                .map(|(k, v)| {
                    Ok((
                        wire_value(k, canonical, enc)?,
                        wire_value(v, canonical, enc)?,
                    ))
                })
                .collect::<Result<_, String>>()?;
            if canonical && entries.len() > 1 {
                sort_keys(&mut entries, enc)?;
            }
            Value::Map(entries)
        }
        other => other.to_value(),
    })
}

fn natural(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Str(a), Value::Str(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (Value::Bool(a), Value::Bool(b)) => Some(a.cmp(b)),
        _ => Some(a.as_i128()?.cmp(&b.as_i128()?)),
    }
}

fn sort_keys(entries: &mut [(Value, Value)], enc: KeyEncoder<'_>) -> Result<(), String> {
    let kind = |v: &Value| match v {
        Value::Str(_) => 0,
        Value::Bool(_) => 1,
        Value::Int(_) | Value::Uint(_) => 2,
        _ => 3,
    };
    let first = kind(&entries[0].0);
    if first != 3 && entries.iter().all(|(k, _)| kind(k) == first) {
        entries.sort_by(|a, b| natural(&a.0, &b.0).unwrap_or(Ordering::Equal));
        return Ok(());
    }
    let mut keyed: Vec<(Vec<u8>, (Value, Value))> = entries
        .iter()
        .map(|e| Ok((enc(&e.0)?, e.clone())))
        .collect::<Result<_, String>>()?;
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    for (slot, (_, e)) in entries.iter_mut().zip(keyed) {
        *slot = e;
    }
    Ok(())
}

/// Parses a `codec:"name,opt,..."` tag: (name, omitempty, skip).
fn parse_tag(tag: Option<&String>) -> (Option<&str>, bool, bool) {
    let Some(tag) = tag else {
        return (None, false, false);
    };
    if tag == "-" {
        return (None, false, true);
    }
    let mut parts = tag.split(',');
    let name = parts.next().filter(|n| !n.is_empty());
    let omitempty = parts.any(|p| p == "omitempty");
    (name, omitempty, false)
}

/// The fields of a struct as written, in declaration order (embedded inlined).
fn struct_fields(
    s: &StructT,
    canonical: bool,
    enc: KeyEncoder<'_>,
) -> Result<Vec<(String, Value)>, String> {
    let mut out = Vec::with_capacity(s.fields.len());
    for (name, v) in &s.fields {
        let (tag_name, omitempty, skip) = parse_tag(s.codec_tags.get(name));
        if skip {
            continue;
        }
        if tag_name.is_none() && s.embedded.iter().any(|e| e == name) {
            match v {
                Typed::Struct(inner) => out.extend(struct_fields(inner, canonical, enc)?),
                Typed::Nil => {}
                other => {
                    return Err(format!(
                        "embedded field {name} is not a struct: {}",
                        other.short()
                    ));
                }
            }
            continue;
        }
        if omitempty && !s.to_array && v.is_go_zero() {
            continue;
        }
        out.push((
            tag_name.unwrap_or(name).to_owned(),
            wire_value(v, canonical, enc)?,
        ));
    }
    Ok(out)
}

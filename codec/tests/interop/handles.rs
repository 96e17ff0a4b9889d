//! Each handle configured from a case's Go option names.
//!
//! A handle starts from ugorji's defaults (the zero Go handle), then each listed Go
//! option is mapped to our field. An option this table does not know is an error,
//! so the case fails instead of being skipped.

use super::compare::Rules;
use super::runner::{HandleReport, run_handle};
use super::typed::Case;
use serde_json::Value as Json;

fn flag(name: &str, v: &Json) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("option {name}={v} is not a bool"))
}

fn unsupported(handle: &str, name: &str, v: &Json) -> String {
    format!("option {name}={v} is not supported for {handle}")
}

fn msgpack(case: &Case, canonical: Option<bool>) -> Result<codec_msgpack::MsgpackHandle, String> {
    // ugorji's MsgpackHandle{} writes the old spec; ours defaults to the new one.
    let mut h = codec_msgpack::MsgpackHandle::ugorji_default();
    for (k, v) in &case.options {
        match k.as_str() {
            "Canonical" => h.options.encode.canonical = flag(k, v)?,
            "WriteExt" => h.write_ext = flag(k, v)?,
            "PositiveIntUnsigned" => h.positive_int_unsigned = flag(k, v)?,
            "NoFixedNum" => h.no_fixed_num = flag(k, v)?,
            "RawToString" => h.raw_to_string = flag(k, v)?,
            _ => return Err(unsupported("msgpack", k, v)),
        }
    }
    if let Some(c) = canonical {
        h.options.encode.canonical = c;
    }
    Ok(h)
}

fn binc(case: &Case, canonical: Option<bool>) -> Result<codec_binc::BincHandle, String> {
    let mut h = codec_binc::BincHandle::default();
    for (k, v) in &case.options {
        match k.as_str() {
            "Canonical" => h.options.encode.canonical = flag(k, v)?,
            // 0 (library choice) and 2 (never) write no symbols in v1.2.14; 1 always.
            "AsSymbols" => {
                h.as_symbols = match v.as_u64() {
                    Some(1) => true,
                    Some(0 | 2) => false,
                    _ => return Err(unsupported("binc", k, v)),
                }
            }
            _ => return Err(unsupported("binc", k, v)),
        }
    }
    if let Some(c) = canonical {
        h.options.encode.canonical = c;
    }
    Ok(h)
}

fn cbor(case: &Case, canonical: Option<bool>) -> Result<codec_cbor::CborHandle, String> {
    let mut h = codec_cbor::CborHandle::default();
    for (k, v) in &case.options {
        match k.as_str() {
            "Canonical" => h.options.encode.canonical = flag(k, v)?,
            "IndefiniteLength" => h.indefinite_length = flag(k, v)?,
            "TimeRFC3339" => h.time_rfc3339 = flag(k, v)?,
            "OptimumSize" => h.optimum_size = flag(k, v)?,
            "SkipUnexpectedTags" => h.skip_unexpected_tags = flag(k, v)?,
            _ => return Err(unsupported("cbor", k, v)),
        }
    }
    if let Some(c) = canonical {
        h.options.encode.canonical = c;
    }
    Ok(h)
}

fn simple(case: &Case, canonical: Option<bool>) -> Result<codec_simple::SimpleHandle, String> {
    let mut h = codec_simple::SimpleHandle::default();
    for (k, v) in &case.options {
        match k.as_str() {
            "Canonical" => h.options.encode.canonical = flag(k, v)?,
            "EncZeroValuesAsNil" => h.enc_zero_values_as_nil = flag(k, v)?,
            _ => return Err(unsupported("simple", k, v)),
        }
    }
    if let Some(c) = canonical {
        h.options.encode.canonical = c;
    }
    Ok(h)
}

fn json(case: &Case, canonical: Option<bool>) -> Result<codec_json::JsonHandle, String> {
    use codec_json::IntegerAsString;
    let mut h = codec_json::JsonHandle::default();
    for (k, v) in &case.options {
        match k.as_str() {
            "Canonical" => h.options.encode.canonical = flag(k, v)?,
            "Indent" => {
                h.indent = v
                    .as_i64()
                    .and_then(|n| i8::try_from(n).ok())
                    .ok_or_else(|| unsupported("json", k, v))?
            }
            // A Go byte, recorded as a one-letter string.
            "IntegerAsString" => {
                h.integer_as_string = match v.as_str() {
                    Some("A") => IntegerAsString::Always,
                    Some("L") => IntegerAsString::Large,
                    Some("") => IntegerAsString::Never,
                    _ => return Err(unsupported("json", k, v)),
                }
            }
            "HTMLCharsAsIs" => h.html_chars_as_is = flag(k, v)?,
            "MapKeyAsString" => h.map_key_as_string = flag(k, v)?,
            _ => return Err(unsupported("json", k, v)),
        }
    }
    if let Some(c) = canonical {
        h.options.encode.canonical = c;
    }
    Ok(h)
}

/// The handles in report order.
pub(crate) const HANDLES: &[&str] = &["msgpack", "binc", "cbor", "simple", "json"];

/// Runs the cases of one handle; `None` when the project does not implement it.
pub(crate) fn run(handle: &str, cases: &[&Case]) -> Option<HandleReport> {
    let plain = Rules::default();
    // binc writes every NaN as one byte with no payload.
    let binc_rules = Rules {
        nan_without_payload: true,
    };
    match handle {
        "msgpack" => Some(run_handle(cases, msgpack, plain)),
        "binc" => Some(run_handle(cases, binc, binc_rules)),
        "cbor" => Some(run_handle(cases, cbor, plain)),
        "simple" => Some(run_handle(cases, simple, plain)),
        "json" => Some(run_handle(cases, json, plain)),
        _ => None,
    }
}

//! Format names, handles configured from flags, the run-time dispatch to the
//! monomorphized code, and auto-detection of the input format.

use crate::args::{Opt, Parsed};
use crate::fail::{Failure, Place, decode_failure};
use codec::{AnyHandle, Error, Handle, Value};

/// Runs `$body` with `$h` bound to the concrete handle inside `&AnyHandle`,
/// so that everything inside is compiled once per format (no dynamic calls).
macro_rules! with_handle {
    ($any:expr, $h:ident => $body:expr) => {
        match $any {
            codec::AnyHandle::Msgpack($h) => $body,
            codec::AnyHandle::Cbor($h) => $body,
            codec::AnyHandle::Binc($h) => $body,
            codec::AnyHandle::Simple($h) => $body,
            codec::AnyHandle::Json($h) => $body,
            other => Err($crate::fail::Failure::Invalid(format!(
                "this build cannot handle the {} format",
                other.name()
            ))),
        }
    };
}
pub(crate) use with_handle;

/// The format names, in the order auto-detection tries them.
pub const NAMES: [&str; 5] = ["msgpack", "cbor", "binc", "simple", "json"];

/// A `--from` / `--format` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    /// Detect the format from the input.
    Auto,
    /// One of [`NAMES`].
    Named(&'static str),
}

/// Parses a format name for `--from` / `--format`, where `auto` is allowed.
pub fn parse_input_format(cmd: &str, flag: &str, s: &str) -> Result<FormatArg, Failure> {
    if s.eq_ignore_ascii_case("auto") {
        return Ok(FormatArg::Auto);
    }
    parse_format(cmd, flag, s, ", auto").map(FormatArg::Named)
}

/// Parses a format name (`also` lists extra accepted words for the message).
pub fn parse_format(cmd: &str, flag: &str, s: &str, also: &str) -> Result<&'static str, Failure> {
    let lower = s.to_ascii_lowercase();
    if lower == "messagepack" {
        return Ok("msgpack");
    }
    NAMES.iter().find(|n| **n == lower).copied().ok_or_else(|| {
        Failure::usage(
            cmd,
            format!(
                "--{flag}: unknown format {s:?} (expected msgpack, cbor, binc, simple, json{also})"
            ),
        )
    })
}

/// Whether `name` is a binary format (everything but json).
pub fn is_binary(name: &str) -> bool {
    name != "json"
}

/// Decoding options, accepted by every subcommand.
pub const DECODE_OPTS: &[Opt] = &[
    Opt::value("max-depth"),
    Opt::value("max-len"),
    Opt::value("max-str-len"),
    Opt::flag("msgpack-raw-to-string"),
    Opt::flag("cbor-reject-duplicate-keys"),
    Opt::flag("cbor-skip-tags"),
    Opt::flag("cbor-keep-time-tags"),
    Opt::flag("json-prefer-float"),
    Opt::flag("json-parse-quoted-keys"),
];

/// Encoding options, accepted by `transcode`.
pub const ENCODE_OPTS: &[Opt] = &[
    Opt::flag("canonical"),
    Opt::flag("pretty"),
    Opt::value("json-indent"),
    Opt::flag("msgpack-old-spec"),
    Opt::flag("msgpack-positive-int-unsigned"),
    Opt::flag("msgpack-no-fixnum"),
    Opt::flag("binc-symbols"),
    Opt::flag("cbor-indefinite"),
    Opt::flag("cbor-time-rfc3339"),
    Opt::flag("cbor-optimum-size"),
    Opt::flag("cbor-preferred"),
    Opt::flag("cbor-deterministic"),
    Opt::flag("json-html-chars-as-is"),
    Opt::value("json-integer-as-string"),
    Opt::flag("simple-zero-as-nil"),
];

/// Whether a format-specific flag changes how its format is read or written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
    /// Either: `msgpack-old-spec` reads old-spec raw strings as bytes too.
    Both,
}
use Side::{Both, Input, Output};

/// Which format, read or written, each format-specific flag belongs to.
const FLAG_FORMAT: &[(&str, &str, Side)] = &[
    ("pretty", "json", Output),
    ("json-indent", "json", Output),
    ("msgpack-old-spec", "msgpack", Both),
    ("msgpack-positive-int-unsigned", "msgpack", Output),
    ("msgpack-no-fixnum", "msgpack", Output),
    ("msgpack-raw-to-string", "msgpack", Input),
    ("binc-symbols", "binc", Output),
    ("cbor-indefinite", "cbor", Output),
    ("cbor-time-rfc3339", "cbor", Output),
    ("cbor-optimum-size", "cbor", Output),
    ("cbor-preferred", "cbor", Output),
    ("cbor-deterministic", "cbor", Output),
    ("cbor-reject-duplicate-keys", "cbor", Input),
    ("cbor-skip-tags", "cbor", Input),
    ("cbor-keep-time-tags", "cbor", Input),
    ("json-html-chars-as-is", "json", Output),
    ("json-integer-as-string", "json", Output),
    ("json-prefer-float", "json", Input),
    ("json-parse-quoted-keys", "json", Input),
    ("json-big-int-as-float", "json", Input),
    ("simple-zero-as-nil", "simple", Output),
];

/// Help text for the decoding options.
pub const DECODE_HELP: &str = "\
Decoding limits and options:
      --max-depth N       Deepest nesting of arrays, maps and tags accepted (default 256, at most 10000)
      --max-len N         Most items in one array or map
      --max-str-len N     Longest text or byte string, in bytes
      --msgpack-raw-to-string
                          msgpack input: read old-spec raw strings as text, not bytes
      --cbor-reject-duplicate-keys
                          cbor input: a map with the same key twice is invalid
      --cbor-skip-tags    cbor input: drop unknown tags, keep the tagged item
      --cbor-keep-time-tags
                          cbor input: keep tags 0 and 1 as tags (exact input) instead of times
      --json-prefer-float json input: read every number as a 64-bit float
      --json-parse-quoted-keys
                          json input: map keys that are numbers or bools in quotes become those";

/// Help text for the encoding options.
pub const ENCODE_HELP: &str = "\
Output options:
      --canonical         Deterministic output: map entries sorted by key (ugorji's Canonical)
      --pretty            json output: indent with 2 spaces (same as --json-indent 2)
      --json-indent N     json output: indent with N spaces, or |N| tabs when N < 0
      --msgpack-old-spec  msgpack output: the old spec, as ugorji's default (no str8/bin/ext)
      --msgpack-positive-int-unsigned
                          msgpack output: non-negative signed integers as unsigned (cc..cf)
      --msgpack-no-fixnum msgpack output: never the fixint forms
      --binc-symbols      binc output: string map keys as interned symbols (ugorji's AsSymbols)
      --cbor-indefinite   cbor output: indefinite-length arrays, maps and chunked strings
      --cbor-time-rfc3339 cbor output: times as tag 0 text instead of tag 1 epoch seconds
      --cbor-optimum-size cbor output: floats in the smallest exact width (ugorji's OptimumSize)
      --cbor-preferred    cbor output: RFC 8949 preferred serialization
      --cbor-deterministic
                          cbor output: RFC 8949 core deterministic encoding (keys by encoded bytes)
      --json-html-chars-as-is
                          json output: leave <, > and & unescaped
      --json-integer-as-string WHEN
                          json output: quote integers: never, large (beyond 2^53) or always
      --simple-zero-as-nil
                          simple output: false, 0, 0.0 and \"\" as nil (lossy; ugorji's EncZeroValuesAsNil)";

/// Most nesting `--max-depth` may allow: decoding recurses once per level, and
/// the work thread's stack is sized for this.
pub const MAX_DEPTH_CAP: u32 = 10_000;

/// Checks that every format-specific flag given applies to a format this
/// command reads (a decoding flag) or writes (an encoding flag).
pub fn check_flags(
    cmd: &str,
    p: &Parsed,
    input: &str,
    output: Option<&str>,
) -> Result<(), Failure> {
    for (flag, _) in &p.opts {
        let Some(&(_, fmt, side)) = FLAG_FORMAT.iter().find(|(f, _, _)| f == flag) else {
            continue;
        };
        let (applies, what) = match side {
            Input => (fmt == input, "input"),
            Output => (output == Some(fmt), "output"),
            Both => (fmt == input || output == Some(fmt), "input or output"),
        };
        if !applies {
            let doing = match output {
                Some(o) => format!("this command reads {input} and writes {o}"),
                None => format!("this command reads {input}"),
            };
            return Err(Failure::usage(
                cmd,
                format!("--{flag} applies to {fmt} {what}, but {doing}"),
            ));
        }
    }
    Ok(())
}

/// A handle for reading `name`, with the decoding flags applied.
pub fn input_handle(cmd: &str, name: &str, p: &Parsed) -> Result<AnyHandle, Failure> {
    let mut h = AnyHandle::from_name(name).map_err(|e| Failure::usage(cmd, e.to_string()))?;
    let o = h.options_mut();
    if let Some(d) = p.number::<u32>(cmd, "max-depth")? {
        if d > MAX_DEPTH_CAP {
            return Err(Failure::usage(
                cmd,
                format!("--max-depth: at most {MAX_DEPTH_CAP}"),
            ));
        }
        o.decode.max_depth = d;
    }
    if let Some(n) = p.number::<usize>(cmd, "max-len")? {
        o.decode.max_len = n;
    }
    if let Some(n) = p.number::<usize>(cmd, "max-str-len")? {
        o.decode.max_str_len = n;
    }
    match &mut h {
        AnyHandle::Msgpack(m) => {
            m.raw_to_string = p.has("msgpack-raw-to-string");
            // Old-spec input: raw strings decode as bytes, as ugorji does.
            if p.has("msgpack-old-spec") {
                m.write_ext = false;
            }
        }
        AnyHandle::Cbor(c) => {
            c.reject_duplicate_keys = p.has("cbor-reject-duplicate-keys");
            c.skip_unexpected_tags = p.has("cbor-skip-tags");
            if p.has("cbor-keep-time-tags") {
                c.decode_time_tags = false;
            }
        }
        AnyHandle::Json(j) => {
            j.prefer_float = p.has("json-prefer-float");
            j.parse_quoted_keys = p.has("json-parse-quoted-keys");
        }
        _ => {}
    }
    Ok(h)
}

/// A handle for writing `name`, with the encoding flags applied.
pub fn output_handle(cmd: &str, name: &str, p: &Parsed) -> Result<AnyHandle, Failure> {
    let mut h = AnyHandle::from_name(name).map_err(|e| Failure::usage(cmd, e.to_string()))?;
    if p.has("canonical") {
        h.options_mut().encode.canonical = true;
    }
    match &mut h {
        AnyHandle::Msgpack(m) => {
            m.write_ext = !p.has("msgpack-old-spec");
            m.positive_int_unsigned = p.has("msgpack-positive-int-unsigned");
            m.no_fixed_num = p.has("msgpack-no-fixnum");
        }
        AnyHandle::Binc(b) => {
            b.as_symbols = p.has("binc-symbols");
        }
        AnyHandle::Cbor(c) => {
            c.indefinite_length = p.has("cbor-indefinite");
            c.time_rfc3339 = p.has("cbor-time-rfc3339");
            c.optimum_size = p.has("cbor-optimum-size");
            c.preferred_serialization = p.has("cbor-preferred");
            c.deterministic = p.has("cbor-deterministic");
        }
        AnyHandle::Simple(s) => {
            s.enc_zero_values_as_nil = p.has("simple-zero-as-nil");
        }
        AnyHandle::Json(j) => {
            j.html_chars_as_is = p.has("json-html-chars-as-is");
            if let Some(w) = p.text(cmd, "json-integer-as-string")? {
                use codec::formats::json::IntegerAsString;
                j.integer_as_string = match w.to_ascii_lowercase().as_str() {
                    "never" => IntegerAsString::Never,
                    "large" | "l" => IntegerAsString::Large,
                    "always" | "a" => IntegerAsString::Always,
                    _ => {
                        return Err(Failure::usage(
                            cmd,
                            format!(
                                "--json-integer-as-string: {w:?} is not never, large or always"
                            ),
                        ));
                    }
                };
            }
            let mut indent: Option<i8> = None;
            if p.has("pretty") {
                indent = Some(2);
            }
            if let Some(n) = p.number::<i8>(cmd, "json-indent")? {
                if !(-16..=16).contains(&n) {
                    return Err(Failure::usage(cmd, "--json-indent: between -16 and 16"));
                }
                indent = Some(n);
            }
            if let Some(n) = indent {
                j.indent = n;
            }
        }
        _ => {}
    }
    Ok(h)
}

/// How many bytes stream-mode auto-detection looks at.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// Detects the format of `sample` (the whole input, or its first bytes in
/// stream mode: `complete` says whether the sample is the whole input).
///
/// The rule, also in `--help`:
/// 1. A CBOR self-describe tag (`d9 d9 f7`) means cbor.
/// 2. Each format tries to decode the sample (one document, or a sequence
///    of documents with `stream`; a document cut off by the end of an
///    incomplete sample counts as good so far). If exactly one succeeds, it is the format.
/// 3. If several succeed, json is chosen when it is one of them and the
///    sample is printable UTF-8 text (any byte below 0x80 is a whole msgpack
///    document, so every text is also a msgpack stream).
/// 4. Printable text that json does not read is json's error (where the
///    text breaks, at its line and column), not a binary format that
///    happens to read it (broken JSON Lines would otherwise pass as a
///    stream of msgpack integers); the message names such a format.
/// 5. Otherwise it is an error that names the candidates.
pub fn detect(
    cmd: &str,
    source: &str,
    sample: &[u8],
    stream: bool,
    complete: bool,
    p: &Parsed,
) -> Result<&'static str, Failure> {
    if sample.starts_with(&[0xd9, 0xd9, 0xf7]) {
        return Ok("cbor");
    }
    if complete && sample.iter().all(u8::is_ascii_whitespace) {
        return Err(Failure::Invalid(format!(
            "{source}: cannot detect the format of an empty input; pass --{} F",
            from_flag(cmd)
        )));
    }
    let mut found: Vec<&'static str> = Vec::new();
    let mut json_failed = None;
    for name in NAMES {
        let h = input_handle(cmd, name, p)?;
        let res: Result<Result<(), Probed>, Failure> =
            with_handle!(&h, h => Ok(probe(h, sample, stream, complete)));
        match res? {
            Ok(()) => found.push(name),
            Err(e) if name == "json" => json_failed = Some(e),
            Err(_) => {}
        }
    }
    let text = is_text(sample, complete);
    if let (true, Some(Probed { error, document })) = (text, json_failed) {
        // Text: json is what the user meant, so its error says where the
        // input breaks, with a hint for a binary format that reads it.
        let place = Place {
            source,
            format: "json",
            document: stream.then_some(document),
        };
        let Failure::Invalid(mut m) = decode_failure(&error, &place) else {
            return Err(decode_failure(&error, &place));
        };
        let flag = from_flag(cmd);
        m.push_str(&match found.first() {
            Some(other) => format!(
                " (auto-detected: text, so json; pass --{flag} {other} to read it as {other})"
            ),
            None => format!(" (auto-detected: text, so json; pass --{flag} F for another format)"),
        });
        return Err(Failure::Invalid(m));
    }
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(Failure::Invalid(format!(
            "{source}: cannot detect the format: the input is not valid {} in any of msgpack, cbor, binc, simple, json; pass --{} F to see where it fails",
            if stream {
                "as a stream"
            } else {
                "as one document"
            },
            from_flag(cmd)
        ))),
        many if many.contains(&"json") && text => Ok("json"),
        many => Err(Failure::usage(
            cmd,
            format!(
                "cannot detect the format of {source}: it is valid as {}; pass --{} F",
                many.join(" and as "),
                from_flag(cmd)
            ),
        )),
    }
}

fn from_flag(cmd: &str) -> &'static str {
    if cmd == "transcode" { "from" } else { "format" }
}

/// Why a sample does not decode in a format: the error, and the number
/// (from 1) of the document it is in.
struct Probed {
    error: codec::Error,
    document: u64,
}

/// Whether `sample` decodes in the format of `h`, else why not.
fn probe<H: Handle>(h: &H, sample: &[u8], stream: bool, complete: bool) -> Result<(), Probed> {
    let mut d = h.decoder(sample);
    let failed = |error, document| Err(Probed { error, document });
    if !stream {
        return match d.decode::<Value>().and_then(|_| d.finish()) {
            Ok(()) => Ok(()),
            Err(e) => failed(e, 1),
        };
    }
    let mut docs = 0u64;
    loop {
        // After a document, what follows belongs to its end (json: a
        // number or a literal needs whitespace or a delimiter after it).
        match d.at_end() {
            Ok(true) if docs > 0 => return Ok(()),
            Ok(true) => return failed(Error::eof().at(d.offset()), 1),
            Ok(false) => {}
            Err(e) if !complete && e.is_eof() => return Ok(()),
            Err(e) => return failed(e, docs.max(1)),
        }
        d.reset_for_next();
        match d.decode::<Value>() {
            Ok(_) => docs += 1,
            // The sample may end inside a document.
            Err(e) if !complete && e.is_eof() => return Ok(()),
            Err(e) => return failed(e, docs + 1),
        }
    }
}

/// Printable UTF-8 text: no control characters other than tab, CR and LF.
/// An incomplete sample may end inside a character.
fn is_text(sample: &[u8], complete: bool) -> bool {
    let text = match std::str::from_utf8(sample) {
        Ok(t) => t,
        Err(e) if !complete && e.error_len().is_none() => {
            match std::str::from_utf8(&sample[..e.valid_up_to()]) {
                Ok(t) => t,
                Err(_) => return false,
            }
        }
        Err(_) => return false,
    };
    text.chars()
        .all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_detection() {
        assert!(is_text(b"{\"a\": 1}\n", true));
        assert!(is_text("\"caf\u{e9}\"".as_bytes(), true));
        assert!(!is_text(b"\x82\x01\x02", true));
        assert!(!is_text(b"1\x00", true));
        // Cut inside a two-byte character.
        assert!(is_text(b"\"caf\xc3", false));
        assert!(!is_text(b"\"caf\xc3", true));
    }

    #[test]
    fn format_names() {
        assert_eq!(
            parse_input_format("t", "from", "MsgPack").unwrap(),
            FormatArg::Named("msgpack")
        );
        assert_eq!(
            parse_input_format("t", "from", "AUTO").unwrap(),
            FormatArg::Auto
        );
        assert!(parse_format("t", "to", "auto", "").is_err());
        assert!(parse_format("t", "to", "yaml", "").is_err());
    }
}

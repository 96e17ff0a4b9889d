//! `codec validate`: is the input one valid document (or a valid stream)?

use crate::args::{self, Opt};
use crate::fail::{Failure, Place, decode_failure};
use crate::formats::{self, FormatArg, with_handle};
use crate::io::Input;
use crate::transcode::sniff;
use codec::{Handle, Value};
use std::ffi::OsString;
use std::io::Read;

const CMD: &str = "validate";

/// The help text.
pub fn help() -> String {
    format!(
        "\
codec validate: check that the input is valid msgpack, cbor, binc, simple or json

Usage: codec validate [--format F] [--stream] [OPTIONS] [INPUT]

Exits 0 when INPUT (default: standard input) is exactly one valid document,
or with --stream a valid sequence of documents (json: separated by whitespace
or newlines, as JSON Lines; an empty stream is valid). Otherwise exits 1 with
one line on standard error naming the byte offset and what was expected.
Every value is decoded completely (text must be valid UTF-8, lengths must be
honoured, nesting must stay within --max-depth).

Options:
  -f, --format F          msgpack, cbor, binc, simple, json or auto (default auto)
      --stream            Accept a sequence of documents, read in bounded memory
  -q, --quiet             Print nothing on success
      --no-progress       No progress indicator on standard error
  -h, --help              This help

{}

Exit status: 0 valid, 1 invalid (or unreadable), 2 usage error.

Examples:
  codec validate --format json config.json
  codec validate --format json --stream events.jsonl
  codec validate --format cbor --max-depth 32 < untrusted.cbor && echo ok
  codec validate data.msgpack
",
        formats::DECODE_HELP
    )
}

fn spec() -> Vec<Opt> {
    let mut s = vec![
        Opt::value("format").short('f'),
        Opt::flag("stream"),
        Opt::flag("quiet").short('q'),
        Opt::flag("no-progress"),
    ];
    s.extend_from_slice(formats::DECODE_OPTS);
    s
}

/// Runs `codec validate` with the arguments after the subcommand.
pub fn run(argv: &[OsString]) -> Result<(), Failure> {
    let p = args::parse(CMD, &spec(), argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let format = match p.text(CMD, "format")? {
        Some(s) => formats::parse_input_format(CMD, "format", &s)?,
        None => FormatArg::Auto,
    };
    let stream = p.has("stream");
    let mut input = Input::open(p.single_input(CMD)?.as_ref(), !p.has("no-progress"))?;
    let (name, docs, bytes) = if stream {
        let mut reader: Box<dyn Read> =
            std::mem::replace(&mut input.reader, Box::new(std::io::empty()));
        let name = match format {
            FormatArg::Named(n) => n,
            FormatArg::Auto => {
                let (sample, complete) = sniff(&mut reader, &input.name)?;
                let n = formats::detect(CMD, &input.name, &sample, true, complete, &p)?;
                reader = Box::new(std::io::Cursor::new(sample).chain(reader));
                n
            }
        };
        formats::check_flags(CMD, &p, name, None)?;
        let h = formats::input_handle(CMD, name, &p)?;
        let place = Place {
            source: &input.name,
            format: name,
            document: None,
        };
        let (docs, bytes) = with_handle!(&h, h => stream_docs(h, reader, &place))?;
        (name, docs, bytes)
    } else {
        let bytes = input.read_all()?;
        let name = match format {
            FormatArg::Named(n) => n,
            FormatArg::Auto => formats::detect(CMD, &input.name, &bytes, false, true, &p)?,
        };
        formats::check_flags(CMD, &p, name, None)?;
        let h = formats::input_handle(CMD, name, &p)?;
        let place = Place {
            source: &input.name,
            format: name,
            document: None,
        };
        with_handle!(&h, h => one_doc(h, &bytes, &place))?;
        (name, 1, bytes.len() as u64)
    };
    if !p.has("quiet") {
        let what = if stream {
            format!("{docs} document{}", if docs == 1 { "" } else { "s" })
        } else {
            "one document".to_owned()
        };
        println!("{}: valid {name}, {what}, {bytes} bytes", input.name);
    }
    Ok(())
}

fn one_doc<H: Handle>(h: &H, bytes: &[u8], place: &Place<'_>) -> Result<(), Failure> {
    h.decoder(bytes)
        .decode_exact::<Value>()
        .map(drop)
        .map_err(|e| decode_failure(&e, place))
}

/// Decodes every document of a stream, one at a time; returns the count and the bytes read.
fn stream_docs<H: Handle>(
    h: &H,
    reader: Box<dyn Read>,
    place: &Place<'_>,
) -> Result<(u64, u64), Failure> {
    let mut d = h.io_decoder(reader);
    let mut n = 0u64;
    let at = |n: u64| Place {
        document: Some(n),
        ..*place
    };
    let mut end = d
        .at_end()
        .map_err(|e| decode_failure(&d.locate(e), &at(1)))?;
    while !end {
        let doc = at(n + 1);
        d.decode::<Value>()
            .map_err(|e| decode_failure(&d.locate(e), &doc))?;
        // What follows belongs to this document's end (json: a number or
        // a literal needs whitespace or a delimiter after it).
        end = d.at_end().map_err(|e| decode_failure(&d.locate(e), &doc))?;
        n += 1;
        d.reset_for_next();
    }
    Ok((n, d.offset()))
}

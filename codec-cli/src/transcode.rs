//! `codec transcode`: read documents in one format, write them in another,
//! through [`Value`].

use crate::args::{self, Opt};
use crate::fail::{Failure, Place, decode_failure, encode_failure};
use crate::formats::{self, FormatArg, with_handle};
use crate::io::{Input, Output, OutputTarget, write_whole};
use codec::{Handle, Value};
use std::ffi::OsString;
use std::io::Read;

const CMD: &str = "transcode";

/// The help text.
pub fn help() -> String {
    format!(
        "\
codec transcode: convert documents between msgpack, cbor, binc, simple and json

Usage: codec transcode [--from F] --to T [OPTIONS] [INPUT] [-o OUTPUT]

Reads one document (or, with --stream, a sequence of documents) in format F
and writes it in format T. Every value goes through the dynamic Value type,
so integers keep their sign, floats their width, and maps their order.
A json integer beyond the 64-bit ranges is kept exact (a cbor bignum, or
the same digits in json) up to 128 bits; a longer one, or one that the
output format cannot hold (msgpack, binc, simple), is an error rather than
a rounded float, unless --json-big-int-as-float asks for the float.
A cbor tag becomes, in msgpack, binc and simple, an extension whose data is
the tagged item in that format (as an interface extension is written), and
in json the item alone.
INPUT defaults to standard input and OUTPUT to standard output (`-` means
either). Binary output is refused when standard output is a terminal.

Options:
      --from F            Input format: msgpack, cbor, binc, simple, json or auto (default auto)
      --to T              Output format: msgpack, cbor, binc, simple or json (required)
      --stream            Read a sequence of concatenated documents (json: separated by
                          whitespace or newlines, as JSON Lines) and write each one as it
                          is read, in bounded memory. json output puts one document per line.
  -o, --output FILE       Write to FILE instead of standard output
      --no-progress       No progress indicator (shown on standard error for inputs of
                          32 MB or more when standard error is a terminal)
      --json-big-int-as-float
                          json input: integers beyond 64 bits become the nearest 64-bit
                          float, as ugorji and `validate` / `inspect` read them
  -h, --help              This help

{}

{}

Auto-detection (--from auto): a cbor self-describe tag (d9 d9 f7) means cbor;
otherwise each format tries to decode the input (the first 64 KiB with --stream)
and the one that succeeds is used. When several succeed, json wins if the
input is printable text; else the command stops and asks for --from. Printable
text that is not valid json fails with json's error, at its line and column
(pass --from to read it otherwise).

Errors: exit 1 with one line on standard error naming the byte offset. Without
--stream nothing is written unless the whole input converts. With --stream the
documents before the failing one have been written completely, the failing one
not at all, and the message names its number.

Exit status: 0 success, 1 invalid input or I/O error, 2 usage error.

Examples:
  codec transcode --from cbor --to json --pretty data.cbor
  codec transcode --to msgpack -o data.msgpack data.json
  codec transcode --from json --to cbor --stream events.jsonl -o events.cbor
  codec transcode --from msgpack --to json --stream < events.msgpack | head
  codec transcode --from json --to msgpack --canonical --msgpack-old-spec in.json > out.mp
",
        formats::ENCODE_HELP,
        formats::DECODE_HELP
    )
}

fn spec() -> Vec<Opt> {
    let mut s = vec![
        Opt::value("from"),
        Opt::value("to"),
        Opt::flag("stream"),
        Opt::value("output").short('o'),
        Opt::flag("no-progress"),
        Opt::flag("json-big-int-as-float"),
    ];
    s.extend_from_slice(formats::ENCODE_OPTS);
    s.extend_from_slice(formats::DECODE_OPTS);
    s
}

/// Runs `codec transcode` with the arguments after the subcommand.
pub fn run(argv: &[OsString]) -> Result<(), Failure> {
    let p = args::parse(CMD, &spec(), argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let from = match p.text(CMD, "from")? {
        Some(s) => formats::parse_input_format(CMD, "from", &s)?,
        None => FormatArg::Auto,
    };
    let to = match p.text(CMD, "to")? {
        Some(s) => formats::parse_format(CMD, "to", &s, "")?,
        None => {
            return Err(Failure::usage(
                CMD,
                "--to T is required (msgpack, cbor, binc, simple or json)",
            ));
        }
    };
    let stream = p.has("stream");
    let input_arg = p.single_input(CMD)?;
    let target = OutputTarget::new(p.os("output"));
    if formats::is_binary(to) && target.is_terminal() {
        return Err(Failure::usage(
            CMD,
            format!(
                "refusing to write binary {to} to a terminal; redirect it (> file), use -o FILE, \
                 or pipe it into `codec inspect`"
            ),
        ));
    }
    let mut input = Input::open(input_arg.as_ref(), !p.has("no-progress"))?;
    target.check_not_input(CMD, &input)?;
    // Format flags are checked against the input format once it is known.
    let ho = formats::output_handle(CMD, to, &p)?;

    if !stream {
        let bytes = input.read_all()?;
        let from = match from {
            FormatArg::Named(n) => n,
            FormatArg::Auto => formats::detect(CMD, &input.name, &bytes, false, true, &p)?,
        };
        formats::check_flags(CMD, &p, from, Some(to))?;
        let hi = input_handle(from, &p)?;
        let place = Place {
            source: &input.name,
            format: from,
            document: None,
        };
        let out: Vec<u8> =
            with_handle!(&hi, hi => with_handle!(&ho, ho => one(hi, ho, &bytes, &place)))?;
        return write_whole(&target, &out);
    }

    let mut reader: Box<dyn Read> =
        std::mem::replace(&mut input.reader, Box::new(std::io::empty()));
    let from = match from {
        FormatArg::Named(n) => n,
        FormatArg::Auto => {
            let (sample, complete) = sniff(&mut reader, &input.name)?;
            let name = formats::detect(CMD, &input.name, &sample, true, complete, &p)?;
            reader = Box::new(std::io::Cursor::new(sample).chain(reader));
            name
        }
    };
    formats::check_flags(CMD, &p, from, Some(to))?;
    let hi = input_handle(from, &p)?;
    let place = Place {
        source: &input.name,
        format: from,
        document: None,
    };
    let mut out = target.open()?;
    let res: Result<u64, Failure> =
        with_handle!(&hi, hi => with_handle!(&ho, ho => many(hi, ho, reader, &mut out, &place)));
    match res {
        Ok(_) => out.finish(),
        Err(e) => {
            // The documents before the failing one are complete: deliver them.
            let _ = out.finish();
            Err(e)
        }
    }
}

/// The handle that reads `from`: the decoding flags applied and, for json,
/// integers beyond 64 bits kept exact (`JsonHandle::exact_integers`) unless
/// `--json-big-int-as-float` asks for ugorji's rounded float.
fn input_handle(from: &str, p: &args::Parsed) -> Result<codec::AnyHandle, Failure> {
    let mut h = formats::input_handle(CMD, from, p)?;
    if let codec::AnyHandle::Json(j) = &mut h {
        j.exact_integers = !p.has("json-big-int-as-float");
    }
    Ok(h)
}

/// Reads up to [`formats::SNIFF_BYTES`] for auto-detection; true when that is the whole input.
pub fn sniff(reader: &mut dyn Read, name: &str) -> Result<(Vec<u8>, bool), Failure> {
    let mut sample = Vec::with_capacity(formats::SNIFF_BYTES);
    reader
        .take(formats::SNIFF_BYTES as u64)
        .read_to_end(&mut sample)
        .map_err(|e| Failure::io(format!("reading {name}"), &e))?;
    let complete = sample.len() < formats::SNIFF_BYTES;
    Ok((sample, complete))
}

/// One document: decode it whole, then encode it whole. Nothing is written
/// by the caller unless both succeed.
fn one<HI: Handle, HO: Handle>(
    hi: &HI,
    ho: &HO,
    bytes: &[u8],
    place: &Place<'_>,
) -> Result<Vec<u8>, Failure> {
    let v: Value = hi
        .decoder(bytes)
        .decode_exact()
        .map_err(|e| decode_failure(&e, place))?;
    let mut out = Vec::with_capacity(bytes.len() + 16);
    codec::encode_into(&v, ho, &mut out).map_err(|e| encode_failure(&e, ho.name(), None))?;
    if !formats::is_binary(ho.name()) {
        out.push(b'\n');
    }
    Ok(out)
}

/// A stream: one document at a time from a buffered reader, each written out
/// as soon as it is encoded, so memory is bounded by the largest document.
fn many<HI: Handle, HO: Handle>(
    hi: &HI,
    ho: &HO,
    reader: Box<dyn Read>,
    out: &mut Output,
    place: &Place<'_>,
) -> Result<u64, Failure> {
    let text_out = !formats::is_binary(ho.name());
    let mut d = hi.io_decoder(reader);
    let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
    let mut n: u64 = 0;
    let at = |n: u64| Place {
        document: Some(n),
        ..*place
    };
    let mut end = d
        .at_end()
        .map_err(|e| decode_failure(&d.locate(e), &at(1)))?;
    while !end {
        let doc = at(n + 1);
        let v: Value = d.decode().map_err(|e| decode_failure(&d.locate(e), &doc))?;
        // The document is complete only with what follows it (json: a
        // number or a literal needs whitespace or a delimiter after it).
        end = d.at_end().map_err(|e| decode_failure(&d.locate(e), &doc))?;
        n += 1;
        buf.clear();
        codec::encode_into(&v, ho, &mut buf).map_err(|e| encode_failure(&e, ho.name(), Some(n)))?;
        if text_out {
            buf.push(b'\n');
        }
        out.write(&buf)?;
        // A huge document must not pin its buffer for the rest of the stream.
        if buf.capacity() > 16 * 1024 * 1024 {
            buf = Vec::with_capacity(64 * 1024);
        }
        d.reset_for_next();
    }
    Ok(n)
}

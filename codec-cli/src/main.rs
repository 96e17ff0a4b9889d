//! # codec: the command-line tool of the codec family
//!
//! Transcode, validate and inspect documents in MessagePack, CBOR, Binc,
//! Simple and JSON:
//!
//! ```text
//! codec transcode --from cbor --to json --pretty data.cbor
//! codec validate --format json --stream events.jsonl
//! codec inspect data.msgpack
//! ```
//!
//! Every subcommand has `--help` with examples. The format is chosen once
//! per run (`AnyHandle`); everything after that runs monomorphized code for
//! the chosen pair of handles. Streams are decoded one document at a time
//! from a buffered reader, so memory stays bounded by the largest document.
//!
//! Exit status: 0 success, 1 invalid input (or an I/O error), 2 usage error.
//! Invalid input never makes the command panic.

mod args;
mod fail;
mod formats;
mod inspect;
mod io;
mod transcode;
mod validate;

use fail::Failure;
use std::ffi::OsString;
use std::process::ExitCode;

/// Stack of the work thread. Decoding recurses once per nesting level,
/// which `--max-depth` caps at [`formats::MAX_DEPTH_CAP`]; the stack is
/// reserved address space, only the pages touched become resident.
const STACK: usize = 512 * 1024 * 1024;

fn top_help() -> String {
    format!(
        "\
codec {}: transcode, validate and inspect msgpack, cbor, binc, simple and json

Usage: codec <COMMAND> [OPTIONS] [INPUT]

Commands:
  transcode   Convert documents from one format to another (--from F --to T)
  validate    Check that the input is a valid document (or a valid stream)
  inspect     Show the items of a document, one per line (or as JSON Lines)
  help [CMD]  This help, or the help of CMD

Formats: msgpack, cbor, binc, simple, json (and auto for input: detected by
content where that is unambiguous).

Options:
  -h, --help      This help
  -V, --version   The version

Exit status: 0 success, 1 invalid input or I/O error, 2 usage error.

Examples:
  codec transcode --from cbor --to json --pretty data.cbor
  codec transcode --from json --to msgpack --stream events.jsonl -o events.msgpack
  codec validate --format json --stream events.jsonl
  codec inspect data.msgpack

Run 'codec <COMMAND> --help' for the options of each command.
",
        env!("CARGO_PKG_VERSION")
    )
}

fn run(argv: Vec<OsString>) -> Result<(), Failure> {
    let Some((cmd, rest)) = argv.split_first() else {
        print!("{}", top_help());
        return Err(Failure::usage("", "no command given"));
    };
    match cmd.to_str() {
        Some("transcode") => transcode::run(rest),
        Some("validate") => validate::run(rest),
        Some("inspect") => inspect::run(rest),
        Some("help") => match rest.first().and_then(|c| c.to_str()) {
            None => {
                print!("{}", top_help());
                Ok(())
            }
            Some("transcode") => {
                print!("{}", transcode::help());
                Ok(())
            }
            Some("validate") => {
                print!("{}", validate::help());
                Ok(())
            }
            Some("inspect") => {
                print!("{}", inspect::help());
                Ok(())
            }
            Some(other) => Err(Failure::usage("", format!("no such command: {other}"))),
        },
        Some("-h" | "--help") => {
            print!("{}", top_help());
            Ok(())
        }
        Some("-V" | "--version") => {
            println!("codec {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        _ => Err(Failure::usage(
            "",
            format!(
                "no such command: {} (expected transcode, validate or inspect)",
                cmd.to_string_lossy()
            ),
        )),
    }
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
    let worker = std::thread::Builder::new()
        .name("codec".to_owned())
        .stack_size(STACK)
        .spawn(move || run(argv));
    let result = match worker {
        Ok(handle) => match handle.join() {
            Ok(r) => r,
            // A panic has already printed its message; keep Rust's exit status for it.
            Err(_) => return ExitCode::from(101),
        },
        Err(e) => Err(Failure::Io(format!("cannot start the work thread: {e}"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if let Some(m) = f.message() {
                eprintln!("{m}");
            }
            ExitCode::from(f.exit_code())
        }
    }
}

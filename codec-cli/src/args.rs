//! A small command-line parser: long options (`--name`, `--name=value`,
//! `--name value`), a few short ones (`-o FILE`, `-h`), `--` to end options,
//! and positional arguments kept as `OsString` (paths need not be UTF-8).
//!
//! Each subcommand declares the options it accepts as a table of [`Opt`];
//! anything else is a usage error (exit 2) that names the option and points
//! at `--help`.

use crate::fail::Failure;
use std::ffi::{OsStr, OsString};

/// One option a subcommand accepts.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// Long name without the dashes, e.g. `"max-depth"`.
    pub long: &'static str,
    /// Short letter, e.g. `Some('o')` for `-o`.
    pub short: Option<char>,
    /// Whether the option takes a value.
    pub takes_value: bool,
}

impl Opt {
    /// A flag without a value.
    pub const fn flag(long: &'static str) -> Self {
        Opt {
            long,
            short: None,
            takes_value: false,
        }
    }

    /// An option with a value.
    pub const fn value(long: &'static str) -> Self {
        Opt {
            long,
            short: None,
            takes_value: true,
        }
    }

    /// Adds a short letter.
    pub const fn short(mut self, c: char) -> Self {
        self.short = Some(c);
        self
    }
}

/// The parsed command line of one subcommand.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Options in the order given: long name and value (if the option takes one).
    pub opts: Vec<(&'static str, Option<OsString>)>,
    /// Positional arguments.
    pub positionals: Vec<OsString>,
    /// Whether `-h` / `--help` was given.
    pub help: bool,
}

impl Parsed {
    /// Whether a flag was given.
    pub fn has(&self, long: &str) -> bool {
        self.opts.iter().any(|(n, _)| *n == long)
    }

    /// The last value given for an option, as text.
    pub fn text(&self, cmd: &str, long: &str) -> Result<Option<String>, Failure> {
        match self.opts.iter().rev().find(|(n, _)| *n == long) {
            None => Ok(None),
            Some((_, v)) => {
                let v = v.clone().unwrap_or_default();
                v.into_string()
                    .map(Some)
                    .map_err(|v| Failure::usage(cmd, format!("--{long}: {v:?} is not valid UTF-8")))
            }
        }
    }

    /// The last value given for an option, as a path-like string.
    pub fn os(&self, long: &str) -> Option<OsString> {
        self.opts
            .iter()
            .rev()
            .find(|(n, _)| *n == long)
            .and_then(|(_, v)| v.clone())
    }

    /// The last value given for an option, parsed as a number.
    pub fn number<T: std::str::FromStr>(
        &self,
        cmd: &str,
        long: &str,
    ) -> Result<Option<T>, Failure> {
        match self.text(cmd, long)? {
            None => Ok(None),
            Some(s) => s.trim().parse().map(Some).map_err(|_| {
                Failure::usage(cmd, format!("--{long}: {s:?} is not a valid number here"))
            }),
        }
    }

    /// At most one positional argument (the input); more is a usage error.
    pub fn single_input(&self, cmd: &str) -> Result<Option<OsString>, Failure> {
        match self.positionals.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(one.clone())),
            [_, extra, ..] => Err(Failure::usage(
                cmd,
                format!(
                    "unexpected argument {:?} (one INPUT at most; use -o for the output)",
                    extra
                ),
            )),
        }
    }
}

/// Parses `args` (everything after the subcommand name) against `spec`.
pub fn parse(cmd: &str, spec: &[Opt], args: &[OsString]) -> Result<Parsed, Failure> {
    let mut out = Parsed::default();
    let mut i = 0;
    let mut only_positionals = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_positionals {
            out.positionals.push(arg.clone());
            continue;
        }
        let bytes = arg.as_encoded_bytes();
        if bytes == b"--" {
            only_positionals = true;
            continue;
        }
        if bytes == b"-" || !bytes.starts_with(b"-") {
            out.positionals.push(arg.clone());
            continue;
        }
        if bytes == b"-h" || bytes == b"--help" {
            out.help = true;
            continue;
        }
        // Split off an attached value (`--name=value`, `-oFILE`).
        let (name, attached, long) = if let Some(rest) = bytes.strip_prefix(b"--") {
            match rest.iter().position(|&b| b == b'=') {
                Some(eq) => (&rest[..eq], Some(os_from_bytes(&rest[eq + 1..])), true),
                None => (rest, None, true),
            }
        } else {
            // A short option: one letter, maybe followed by its value (`-oFILE`).
            let (letter, rest) = bytes[1..].split_at(1);
            let value = (!rest.is_empty()).then(|| os_from_bytes(rest));
            (letter, value, false)
        };
        let name = std::str::from_utf8(name).unwrap_or("?");
        let found = spec.iter().find(|o| {
            if long {
                o.long == name
            } else {
                o.short.is_some_and(|c| name.chars().eq(std::iter::once(c)))
            }
        });
        let Some(opt) = found else {
            let shown = if long {
                format!("--{name}")
            } else {
                format!("-{name}")
            };
            return Err(Failure::usage(cmd, format!("unknown option {shown}")));
        };
        if opt.takes_value {
            let value = match attached {
                Some(v) => v,
                None => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        v.clone()
                    }
                    None => {
                        return Err(Failure::usage(cmd, format!("--{} needs a value", opt.long)));
                    }
                },
            };
            out.opts.push((opt.long, Some(value)));
        } else {
            if attached.is_some() {
                return Err(Failure::usage(
                    cmd,
                    format!("--{} takes no value", opt.long),
                ));
            }
            out.opts.push((opt.long, None));
        }
    }
    Ok(out)
}

/// Rebuilds an `OsString` from a sub-slice of `OsStr::as_encoded_bytes`.
///
/// The sub-slices taken above start after an ASCII `=` or `-` and run to the
/// end of the argument, so they are valid encoded bytes; a lossy UTF-8
/// round trip covers any other case without `unsafe`.
fn os_from_bytes(b: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(b).to_os_string()
    }
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(b).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    const SPEC: &[Opt] = &[
        Opt::value("from"),
        Opt::flag("stream"),
        Opt::value("output").short('o'),
    ];

    #[test]
    fn long_short_attached_and_positional() {
        let p = parse(
            "t",
            SPEC,
            &os(&["--from=json", "in.json", "--stream", "-o", "x", "-oy"]),
        )
        .unwrap();
        assert_eq!(p.text("t", "from").unwrap().as_deref(), Some("json"));
        assert!(p.has("stream"));
        assert_eq!(p.os("output"), Some(OsString::from("y")));
        assert_eq!(p.positionals, os(&["in.json"]));
    }

    #[test]
    fn double_dash_and_dash() {
        let p = parse("t", SPEC, &os(&["-", "--", "--stream"])).unwrap();
        assert_eq!(p.positionals, os(&["-", "--stream"]));
        assert!(!p.has("stream"));
    }

    #[test]
    fn errors() {
        assert!(parse("t", SPEC, &os(&["--nope"])).is_err());
        assert!(parse("t", SPEC, &os(&["--from"])).is_err());
        assert!(parse("t", SPEC, &os(&["--stream=1"])).is_err());
        assert!(parse("t", SPEC, &os(&["-x"])).is_err());
        let p = parse("t", SPEC, &os(&["a", "b"])).unwrap();
        assert!(p.single_input("t").is_err());
    }

    #[test]
    fn help_anywhere() {
        assert!(
            parse("t", SPEC, &os(&["--from", "json", "-h"]))
                .unwrap()
                .help
        );
    }
}

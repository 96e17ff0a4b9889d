//! Decoding from an `io::Read` gives the slice decoder's results, for every
//! handle: when the reader delivers one byte at a time, returns `Interrupted`
//! between bytes, delivers odd-sized chunks, ends mid-value, or fails mid-value.

use codec::{AnyHandle, ErrorKind, Value};
use std::io;

/// How the test reader misbehaves.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    OneByte,
    Interrupted,
    Chunks,
}

struct Hostile<'a> {
    data: &'a [u8],
    pos: usize,
    calls: usize,
    mode: Mode,
    /// Fail with a hard error once this many bytes are delivered.
    fail_at: Option<usize>,
}

impl<'a> Hostile<'a> {
    fn new(data: &'a [u8], mode: Mode) -> Self {
        Hostile {
            data,
            pos: 0,
            calls: 0,
            mode,
            fail_at: None,
        }
    }
}

impl io::Read for Hostile<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.mode == Mode::Interrupted && self.calls % 2 == 1 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.fail_at.is_some_and(|n| self.pos >= n) {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionReset,
                "peer went away",
            ));
        }
        let mut want = match self.mode {
            Mode::OneByte | Mode::Interrupted => 1,
            Mode::Chunks => [1, 2, 3, 5, 8, 13][self.calls % 6],
        };
        if let Some(n) = self.fail_at {
            want = want.min(n - self.pos);
        }
        let n = want.min(self.data.len() - self.pos).min(buf.len());
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The golden vectors of one handle (the bytes ugorji wrote).
fn vectors(handle: &str) -> Vec<Vec<u8>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/ugorji-interop.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("vectors file");
    let mut out = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        if v["handle"] != handle {
            continue;
        }
        let hex = v["hex"].as_str().expect("hex");
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digit"))
            .collect();
        out.push(bytes);
    }
    out
}

/// At most 32 bytes of `b`, in hex, for messages.
fn short(b: &[u8]) -> String {
    let mut s: String = b.iter().take(32).map(|x| format!("{x:02x}")).collect();
    if b.len() > 32 {
        s.push_str(&format!("... ({} bytes)", b.len()));
    }
    s
}

fn handles() -> Vec<AnyHandle> {
    AnyHandle::NAMES
        .iter()
        .map(|n| AnyHandle::from_name(n).unwrap())
        .collect()
}

fn same(a: &codec::Result<Value>, b: &codec::Result<Value>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => x == y,
        (Err(x), Err(y)) => x.to_string() == y.to_string(),
        _ => false,
    }
}

#[test]
fn hostile_readers_give_the_slice_result() {
    for h in handles() {
        let vs = vectors(h.name());
        assert!(vs.len() > 50, "{}: {} vectors", h.name(), vs.len());
        for bytes in &vs {
            // Some vectors are not valid `Value`s with default options (a
            // msgpack str holding bytes that are not UTF-8): compare anyway.
            let want: codec::Result<Value> = h.from_slice(bytes);
            for mode in [Mode::OneByte, Mode::Interrupted, Mode::Chunks] {
                let got: codec::Result<Value> = h.from_reader(Hostile::new(bytes, mode));
                assert!(
                    same(&want, &got),
                    "{} {mode:?} {}: {want:?} vs {got:?}",
                    h.name(),
                    short(bytes)
                );
            }
        }
    }
}

#[test]
fn input_ending_mid_value_is_the_same_eof() {
    for h in handles() {
        for bytes in vectors(h.name()) {
            // Every cut of small vectors; about 64 cuts of large ones.
            let step = (bytes.len() / 64).max(1);
            for cut in (0..bytes.len()).step_by(step) {
                let part = &bytes[..cut];
                let want: codec::Result<Value> = h.from_slice(part);
                // A strict prefix is an error, except where the format
                // allows a shorter document (JSON: `12` is a prefix of `123`).
                if want.is_ok() {
                    assert_eq!(h.name(), "json", "{} decoded: {want:?}", short(part));
                }
                for mode in [Mode::OneByte, Mode::Interrupted, Mode::Chunks] {
                    let got: codec::Result<Value> = h.from_reader(Hostile::new(part, mode));
                    match (&want, &got) {
                        (Ok(x), Ok(y)) => assert_eq!(x, y),
                        (Err(x), Err(y)) => {
                            // From a slice a declared length longer than the
                            // rest is refused at its header; a stream reads up
                            // to the end. Both are end-of-input errors.
                            assert_eq!(
                                x.is_eof(),
                                y.is_eof(),
                                "{} {}: {x} vs {y}",
                                h.name(),
                                short(part)
                            );
                            if y.is_eof() && h.name() != "json" {
                                assert_eq!(
                                    y.offset(),
                                    Some(cut as u64),
                                    "{} {}: {y}",
                                    h.name(),
                                    short(part)
                                );
                            }
                        }
                        _ => panic!("{} {mode:?} {}: {want:?} vs {got:?}", h.name(), short(part)),
                    }
                }
            }
        }
    }
}

#[test]
fn reader_failing_mid_value_reports_io_error_at_its_offset() {
    for h in handles() {
        for bytes in vectors(h.name()).iter().filter(|b| b.len() > 2) {
            let fail_at = bytes.len() / 2;
            let mut r = Hostile::new(bytes, Mode::Interrupted);
            r.fail_at = Some(fail_at);
            let err = h.from_reader::<Value, _>(r).unwrap_err();
            match err.kind() {
                ErrorKind::Io(e) => assert_eq!(e.kind(), io::ErrorKind::ConnectionReset),
                other => panic!("{} {}: {other:?}", h.name(), short(bytes)),
            }
            assert_eq!(
                err.offset(),
                Some(fail_at as u64),
                "{} {}: {err}",
                h.name(),
                short(bytes)
            );
            assert!(err.to_string().contains("peer went away"), "{err}");
        }
    }
}

#[test]
fn a_stream_of_values_reads_one_value_at_a_time() {
    // Two values back to back through one reader: the first decode must not
    // consume the second (formats without delimiters read exactly one item).
    for h in handles() {
        let mut both = h.to_vec(&vec![1u32, 2]).unwrap();
        if h.name() == "json" {
            both.push(b' ');
        }
        both.extend(h.to_vec("next").unwrap());
        let mut d = match &h {
            AnyHandle::Msgpack(x) => Some(codec::Handle::io_decoder(
                x,
                Hostile::new(&both, Mode::OneByte),
            )),
            _ => None,
        };
        if let Some(d) = d.as_mut() {
            assert_eq!(d.decode::<Vec<u32>>().unwrap(), [1, 2]);
            assert_eq!(d.decode::<String>().unwrap(), "next");
            assert!(d.at_end().unwrap());
        }
    }
}

/// Counts the bytes a decoder takes from an endless reader.
struct Counted<R> {
    inner: R,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// `max_str_len` bounds what a reader copies: a string declaring more is
/// refused at its header, and a JSON string (or a CBOR chunked one) as soon
/// as its text passes the limit, at its first byte, with the error a slice
/// gives; the decoder reads no more than its buffer ahead (here 200 MiB of
/// string body would follow).
#[test]
fn max_str_len_stops_a_reader_at_the_limit() {
    use std::io::Read as _;
    let big = 200u32 << 20;
    let be = big.to_be_bytes();
    let cases: Vec<(AnyHandle, Vec<u8>, &[u8])> = vec![
        (
            AnyHandle::Msgpack(Default::default()),
            [&[0xdb][..], &be].concat(),
            b"a",
        ),
        (
            AnyHandle::Msgpack(Default::default()),
            [&[0xc6][..], &be].concat(),
            b"a",
        ),
        (
            AnyHandle::Cbor(Default::default()),
            [&[0x7a][..], &be].concat(),
            b"a",
        ),
        // Chunked: each chunk of 8 is under the limit, together they pass it.
        (
            AnyHandle::Cbor(Default::default()),
            vec![0x7f],
            b"\x68aaaaaaaa",
        ),
        (
            AnyHandle::Binc(Default::default()),
            [&[0x42][..], &be].concat(),
            b"a",
        ),
        (
            AnyHandle::Simple(Default::default()),
            [&[0xdb][..], &be].concat(),
            b"a",
        ),
        (AnyHandle::Json(Default::default()), b"  \"".to_vec(), b"a"),
        (AnyHandle::Json(Default::default()), b"\"".to_vec(), b"a\\n"),
    ];
    for (mut h, head, body) in cases {
        *h.options_mut() = h.options().clone().max_str_len(16);
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let endless = Counted {
            inner: std::io::Cursor::new(head.clone())
                .chain(RepeatSlice { bytes: body, at: 0 }.take(u64::from(big))),
            read: read.clone(),
        };
        let e = h.from_reader::<Value, _>(endless).unwrap_err();
        let what = format!("{} {head:02x?}", h.name());
        assert!(
            matches!(
                e.kind(),
                ErrorKind::LengthLimitExceeded {
                    limit: "max_str_len",
                    max: 16,
                    ..
                }
            ),
            "{what}: {e}"
        );
        let start = head.iter().take_while(|&&b| b == b' ').count() as u64;
        assert_eq!(e.offset(), Some(start), "{what}: {e}");
        assert!(read.get() < 1 << 20, "{what}: read {} bytes", read.get());
        // From a slice: the same error.
        let mut bytes = head.clone();
        while bytes.len() < head.len() + 64 {
            bytes.extend_from_slice(body);
        }
        let s = h.from_slice::<Value>(&bytes).unwrap_err();
        assert!(
            matches!(
                s.kind(),
                ErrorKind::LengthLimitExceeded {
                    limit: "max_str_len",
                    ..
                }
            ),
            "{what}: slice {s}"
        );
        assert_eq!(s.offset(), e.offset(), "{what}: slice {s}");
    }
}

/// `bytes` over and over.
struct RepeatSlice {
    bytes: &'static [u8],
    at: usize,
}

impl std::io::Read for RepeatSlice {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for b in buf.iter_mut() {
            *b = self.bytes[self.at];
            self.at = (self.at + 1) % self.bytes.len();
        }
        Ok(buf.len())
    }
}

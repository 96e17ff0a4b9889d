//! The case registry shared by the `report` binary, the criterion bench and
//! the round-trip tests.
//!
//! A [`Case`] is one timed operation: (dataset, implementation, format
//! family, op) plus a closure that performs the operation once. Peers and our
//! handles are wired the same way: describe an implementation as a
//! [`Typed<T>`] (an encode and a decode function) and hand it to
//! [`Registry::typed`] (or [`Registry::dynamic`] for `Value` trees). The
//! registry round-trips the value once — the decoded value must equal the
//! original — before it registers the timed cases, and records a
//! [`Failure`] instead when it does not.

use std::fmt;
use std::hint::black_box;
use std::rc::Rc;

/// A format family: ratios are taken within a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// JSON.
    Json,
    /// MessagePack.
    MsgPack,
    /// CBOR.
    Cbor,
    /// go-codec's Binc (ours only).
    Binc,
    /// go-codec's Simple (ours only).
    Simple,
    /// Schema-dependent binary formats (bitcode, postcard): references only.
    Binary,
}

impl Family {
    /// Short display name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Family::Json => "json",
            Family::MsgPack => "msgpack",
            Family::Cbor => "cbor",
            Family::Binc => "binc",
            Family::Simple => "simple",
            Family::Binary => "binary",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The measured operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Value to bytes.
    Encode,
    /// Bytes to an owned value.
    Decode,
    /// Bytes to a value borrowing strings from the input.
    DecodeBorrowed,
    /// Bytes to an owned value through `std::io::Read` (a `&[u8]` reader,
    /// as a file or socket behind a buffer would hand them over).
    DecodeReader,
}

impl Op {
    /// Display name, as used in benchmark ids.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Op::Encode => "Encode",
            Op::Decode => "Decode",
            Op::DecodeBorrowed => "DecodeBorrowed",
            Op::DecodeReader => "DecodeReader",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reusable per-case scratch space, so that encoders write into a reused
/// buffer where the library's API allows it.
#[derive(Default)]
pub struct Scratch {
    /// The output buffer of encoders (cleared, never shrunk).
    pub buf: Vec<u8>,
    /// A copy of the input for decoders that parse in place (simd-json).
    pub input: Vec<u8>,
    /// bitcode's reusable encoder/decoder state.
    pub bitcode: bitcode::Buffer,
}

/// Result type of the wiring functions; errors are plain messages.
pub type Res<T> = Result<T, String>;

/// Encodes `&T`, returning the encoded bytes (held in the scratch space).
pub type EncodeFn<T> = for<'a> fn(&T, &'a mut Scratch) -> Res<&'a [u8]>;
/// Decodes an owned `T`.
pub type DecodeFn<T> = fn(&[u8], &mut Scratch) -> Res<T>;

/// One implementation (peer or our handle) of one format for type `T`.
pub struct Typed<T> {
    /// Implementation name as shown in reports and benchmark ids.
    pub name: &'static str,
    /// Format family.
    pub family: Family,
    /// `true` for our handles (`CodecSuite`), `false` for peers (`XSuite`).
    pub ours: bool,
    /// `true` when structs are written positionally (arrays of values, or no
    /// header at all), without field names: msgpacker, our `msgpack-toarray`.
    /// The report also compares like with like on this.
    pub positional: bool,
    /// Encoder.
    pub encode: EncodeFn<T>,
    /// Decoder.
    pub decode: DecodeFn<T>,
}

impl<T> Typed<T> {
    /// The description of this implementation, without its functions.
    #[must_use]
    pub fn imp(&self) -> Imp {
        Imp {
            name: self.name,
            family: self.family,
            ours: self.ours,
            positional: self.positional,
        }
    }
}

/// What a case records about its implementation.
#[derive(Clone, Copy, Debug)]
pub struct Imp {
    /// Implementation name.
    pub name: &'static str,
    /// Format family.
    pub family: Family,
    /// `true` for our handles.
    pub ours: bool,
    /// `true` when structs are written without field names.
    pub positional: bool,
}

impl<T> Clone for Typed<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Typed<T> {}

/// One timed operation.
pub struct Case {
    /// Dataset name.
    pub dataset: String,
    /// Implementation name.
    pub implementation: String,
    /// Format family.
    pub family: Family,
    /// Operation.
    pub op: Op,
    /// `true` for our handles.
    pub ours: bool,
    /// `true` when structs are written without field names (see [`Typed::positional`]).
    pub positional: bool,
    /// Size of the encoded form, in bytes.
    pub encoded_len: usize,
    /// Performs the operation once.
    pub run: Box<dyn FnMut()>,
}

impl Case {
    /// The benchmark id: `CodecSuite/<dataset>/<handle>/<op>` for ours,
    /// `XSuite/<dataset>/<peer>/<op>` for peers.
    #[must_use]
    pub fn id(&self) -> String {
        let suite = if self.ours { "CodecSuite" } else { "XSuite" };
        format!(
            "{suite}/{}/{}/{}",
            self.dataset, self.implementation, self.op
        )
    }
}

/// A round trip that did not give back the original value (or failed).
#[derive(Clone, Debug)]
pub struct Failure {
    /// Dataset name.
    pub dataset: String,
    /// Implementation name.
    pub implementation: String,
    /// What went wrong.
    pub message: String,
}

/// Why a peer has no cell for a dataset.
#[derive(Clone, Debug)]
pub struct Gap {
    /// Dataset name.
    pub dataset: String,
    /// Implementation name.
    pub implementation: String,
    /// Why.
    pub reason: String,
}

/// Collects the cases of every dataset and implementation that pass the filter.
#[derive(Default)]
pub struct Registry {
    filters: Vec<String>,
    /// The registered cases, in registration order.
    pub cases: Vec<Case>,
    /// Round trips that failed (their cases are not registered).
    pub failures: Vec<Failure>,
    /// Documented gaps: a peer that cannot express a dataset.
    pub gaps: Vec<Gap>,
}

impl Registry {
    /// A registry keeping the cases whose `dataset/implementation` contains
    /// any of the comma-separated `filter` terms (all cases when `None`).
    #[must_use]
    pub fn new(filter: Option<&str>) -> Self {
        let filters = filter
            .map(|f| {
                f.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        Registry {
            filters,
            ..Registry::default()
        }
    }

    /// Whether a dataset's set-up is worth doing: some filter term names it,
    /// names a part of it, or names no dataset at all (an implementation).
    #[must_use]
    pub fn wants_dataset(&self, dataset: &str) -> bool {
        self.filters.is_empty()
            || self.filters.iter().any(|t| {
                let t = t.split('/').next().unwrap_or(t);
                dataset.contains(t) || !crate::peers::DATASETS.iter().any(|d| d.contains(t))
            })
    }

    fn wants(&self, dataset: &str, implementation: &str) -> bool {
        let id = format!("{dataset}/{implementation}");
        self.filters.is_empty() || self.filters.iter().any(|t| id.contains(t.as_str()))
    }

    fn fail(&mut self, dataset: &str, implementation: &str, message: String) {
        self.failures.push(Failure {
            dataset: dataset.to_owned(),
            implementation: implementation.to_owned(),
            message,
        });
    }

    /// Records that `implementation` has no cell for `dataset`, and why.
    pub fn gap(&mut self, dataset: &str, implementation: &str, reason: &str) {
        self.gaps.push(Gap {
            dataset: dataset.to_owned(),
            implementation: implementation.to_owned(),
            reason: reason.to_owned(),
        });
    }

    /// Adds one already-checked case.
    pub fn push(
        &mut self,
        dataset: &str,
        imp: Imp,
        op: Op,
        encoded_len: usize,
        run: Box<dyn FnMut()>,
    ) {
        self.cases.push(Case {
            dataset: dataset.to_owned(),
            implementation: imp.name.to_owned(),
            family: imp.family,
            op,
            ours: imp.ours,
            positional: imp.positional,
            encoded_len,
            run,
        });
    }

    /// Round-trips `value` through every implementation in `imps` and, where
    /// the decoded value equals the original, registers an `Encode` and a
    /// `Decode` case. Returns the encoded bytes per implementation name (for
    /// borrowed-decode cases).
    pub fn typed<T>(
        &mut self,
        dataset: &str,
        value: &Rc<T>,
        imps: &[Typed<T>],
    ) -> Vec<(&'static str, Rc<Vec<u8>>)>
    where
        T: PartialEq + fmt::Debug + 'static,
    {
        let mut encoded = Vec::new();
        for imp in imps {
            if !self.wants(dataset, imp.name) {
                continue;
            }
            let mut scratch = Scratch::default();
            let bytes = match (imp.encode)(value, &mut scratch) {
                Ok(b) => b.to_vec(),
                Err(e) => {
                    self.fail(dataset, imp.name, format!("encode: {e}"));
                    continue;
                }
            };
            match (imp.decode)(&bytes, &mut scratch) {
                Ok(back) if back == **value => {}
                Ok(back) => {
                    let message =
                        first_difference("round trip", &format!("{value:?}"), &format!("{back:?}"));
                    self.fail(dataset, imp.name, message);
                    continue;
                }
                Err(e) => {
                    self.fail(dataset, imp.name, format!("decode: {e}"));
                    continue;
                }
            }
            let bytes = Rc::new(bytes);
            let len = bytes.len();
            let (encode, v) = (imp.encode, Rc::clone(value));
            let mut s = Scratch::default();
            self.push(
                dataset,
                imp.imp(),
                Op::Encode,
                len,
                Box::new(move || {
                    let out = encode(black_box(&v), &mut s).expect("encode");
                    black_box(out);
                }),
            );
            let (decode, b) = (imp.decode, Rc::clone(&bytes));
            let mut s = Scratch::default();
            self.push(
                dataset,
                imp.imp(),
                Op::Decode,
                len,
                Box::new(move || {
                    let out = decode(black_box(&b), &mut s).expect("decode");
                    black_box(out);
                }),
            );
            encoded.push((imp.name, bytes));
        }
        encoded
    }

    /// A dynamic-value dataset: `source` is encoded with `typed` (once, at
    /// set-up), decoded into the implementation's own value type `V` with
    /// `dynamic`; that value must survive `dynamic`'s own round trip
    /// unchanged. The timed cases are `Decode` (bytes to `V`) and `Encode`
    /// (`V` to bytes).
    pub fn dynamic<T, V>(&mut self, dataset: &str, source: &T, typed: Typed<T>, dynamic: Typed<V>)
    where
        V: PartialEq + fmt::Debug + 'static,
    {
        self.decoded_as(dataset, source, typed, dynamic, None);
    }

    /// A partial dataset: `source` is encoded with `typed`, and decoded
    /// into `V`, which has only some of its fields (the rest are skipped),
    /// with `partial`; `V` must equal `expected` (the same fields, taken
    /// from `source` by hand) and survive `partial`'s round trip. Only
    /// `Decode` is timed.
    pub fn partial<T, V>(
        &mut self,
        dataset: &str,
        source: &T,
        expected: &V,
        typed: Typed<T>,
        partial: Typed<V>,
    ) where
        V: PartialEq + fmt::Debug + 'static,
    {
        self.decoded_as(dataset, source, typed, partial, Some(expected));
    }

    /// [`Registry::dynamic`] without `expected`; [`Registry::partial`]
    /// (no `Encode` case) with it.
    fn decoded_as<T, V>(
        &mut self,
        dataset: &str,
        source: &T,
        typed: Typed<T>,
        dynamic: Typed<V>,
        expected: Option<&V>,
    ) where
        V: PartialEq + fmt::Debug + 'static,
    {
        if !self.wants(dataset, dynamic.name) {
            return;
        }
        let mut scratch = Scratch::default();
        let checked: Res<(Vec<u8>, V)> = (|| {
            let bytes = (typed.encode)(source, &mut scratch)?.to_vec();
            let value = (dynamic.decode)(&bytes, &mut scratch)?;
            if let Some(want) = expected
                && value != *want
            {
                return Err(first_difference(
                    "expected fields",
                    &format!("{want:?}"),
                    &format!("{value:?}"),
                ));
            }
            let again = (dynamic.encode)(&value, &mut scratch)?.to_vec();
            let back = (dynamic.decode)(&again, &mut scratch)?;
            if back != value {
                return Err(first_difference(
                    "round trip",
                    &format!("{value:?}"),
                    &format!("{back:?}"),
                ));
            }
            Ok((bytes, value))
        })();
        let (bytes, value) = match checked {
            Ok(x) => x,
            Err(e) => return self.fail(dataset, dynamic.name, e),
        };
        let len = bytes.len();
        if expected.is_none() {
            let mut s = Scratch::default();
            let encode = dynamic.encode;
            self.push(
                dataset,
                dynamic.imp(),
                Op::Encode,
                len,
                Box::new(move || {
                    black_box(encode(black_box(&value), &mut s).expect("encode"));
                }),
            );
        }
        let mut s = Scratch::default();
        let decode = dynamic.decode;
        self.push(
            dataset,
            dynamic.imp(),
            Op::Decode,
            len,
            Box::new(move || {
                black_box(decode(black_box(&bytes), &mut s).expect("decode"));
            }),
        );
    }

    /// Registers a `DecodeBorrowed` case after checking it once: `check`
    /// decodes `bytes` and says whether the result equals the original.
    pub fn borrowed(
        &mut self,
        dataset: &str,
        imp: Imp,
        bytes: Rc<Vec<u8>>,
        check: impl Fn(&[u8]) -> Res<bool>,
        run: impl FnMut(&[u8]) + 'static,
    ) {
        self.checked(Op::DecodeBorrowed, dataset, imp, bytes, check, run);
    }

    /// Registers a `DecodeReader` case: `read` decodes `bytes` (the
    /// implementation's own encoding of `source`, from [`Registry::typed`])
    /// through `std::io::Read`; checked once against `source`.
    pub fn reader<T>(
        &mut self,
        dataset: &str,
        imp: Imp,
        bytes: Rc<Vec<u8>>,
        source: &Rc<T>,
        read: fn(&[u8]) -> Res<T>,
    ) where
        T: PartialEq + fmt::Debug + 'static,
    {
        let check = |b: &[u8]| read(b).map(|v| v == **source);
        let run = move |b: &[u8]| {
            black_box(read(b).expect("decode"));
        };
        self.checked(Op::DecodeReader, dataset, imp, bytes, check, run);
    }

    /// A decode case `op` checked once first (see [`Registry::borrowed`]).
    fn checked(
        &mut self,
        op: Op,
        dataset: &str,
        imp: Imp,
        bytes: Rc<Vec<u8>>,
        check: impl Fn(&[u8]) -> Res<bool>,
        mut run: impl FnMut(&[u8]) + 'static,
    ) {
        let name = imp.name;
        if !self.wants(dataset, name) {
            return;
        }
        match check(&bytes) {
            Ok(true) => {}
            Ok(false) => return self.fail(dataset, name, format!("{op}: decoded value differs")),
            Err(e) => return self.fail(dataset, name, format!("{op}: {e}")),
        }
        let len = bytes.len();
        self.push(
            dataset,
            imp,
            op,
            len,
            Box::new(move || run(black_box(&bytes))),
        );
    }
}

/// A short description of where two debug renderings first differ; `what`
/// names the comparison ("round trip", "expected fields").
fn first_difference(what: &str, a: &str, b: &str) -> String {
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let start = a.floor_char_boundary(at.saturating_sub(60));
    let snippet = |s: &str| {
        let end = s.floor_char_boundary((at + 60).min(s.len()));
        s.get(start..end).unwrap_or("").to_owned()
    };
    format!(
        "{what} differs at char {at}: expected …{}… got …{}…",
        snippet(a),
        snippet(b)
    )
}

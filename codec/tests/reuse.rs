//! Reuse: an encoder reset onto a new writer, a decoder reset onto a new
//! reader, and encoding many values into one reused buffer allocates nothing
//! for derived types without heap fields (counted by a global allocator).

mod common;

use codec::{Codec, Decoder, Encode, Handle, SliceReader, from_slice, to_vec};
use std::cell::Cell;

#[allow(unsafe_code)]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};

    /// Counts the allocations of the thread that asked (see `super::count_allocs`).
    pub struct Counting;

    // SAFETY: every method forwards to `System` with the caller's arguments
    // unchanged, so `System`'s guarantees hold; counting touches only a
    // thread-local `Cell` (no allocation, no reentrancy).
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            super::note_alloc(layout.size());
            // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from `System.alloc` with this `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            super::note_alloc(new_size);
            // SAFETY: `ptr` came from `System` with `layout`; forwarded unchanged.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;
}

thread_local! {
    /// Allocations (and reallocations) of this thread while counting, and
    /// the bytes they asked for; `None` when not counting.
    static ALLOCS: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

fn note_alloc(size: usize) {
    // `try_with`: the thread-local may be gone while the thread shuts down.
    let _ = ALLOCS.try_with(|c| {
        if let Some((n, bytes)) = c.get() {
            c.set(Some((n + 1, bytes + size)));
        }
    });
}

/// Allocations made by this thread (other test threads do not count)
/// during `f`, and the bytes they asked for (a reallocation counts its new
/// size).
fn count_alloc_bytes(f: impl FnOnce()) -> (usize, usize) {
    ALLOCS.with(|c| c.set(Some((0, 0))));
    f();
    ALLOCS.with(|c| c.take()).unwrap_or((0, 0))
}

/// Allocations made by this thread during `f`.
fn count_allocs(f: impl FnOnce()) -> usize {
    count_alloc_bytes(f).0
}

#[derive(Codec, Debug, Clone, Copy, PartialEq)]
struct Inner {
    a: u16,
    b: bool,
}

#[derive(Codec, Debug, Clone, Copy, PartialEq)]
struct Reading {
    id: u64,
    temp: f64,
    delta: i32,
    ok: bool,
    pos: (f32, f32),
    raw: [u8; 4],
    inner: Inner,
    maybe: Option<u32>,
}

fn reading(i: u64) -> Reading {
    Reading {
        id: i,
        temp: 20.5 + i as f64,
        delta: -(i as i32),
        ok: i.is_multiple_of(2),
        pos: (1.5, -2.5),
        raw: [1, 2, 3, i as u8],
        inner: Inner {
            a: i as u16,
            b: true,
        },
        maybe: if i.is_multiple_of(3) {
            None
        } else {
            Some(i as u32)
        },
    }
}

#[test]
fn reused_buffer_encoding_allocates_nothing() {
    each_handle!(h => {
        let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
        let mut enc = h.encoder(&mut buf);
        // Warm up (binc interns field names as symbols on first use).
        reading(0).encode(&mut enc).unwrap();
        let n = count_allocs(|| {
            for i in 0..1000 {
                enc.writer_mut().clear();
                reading(i).encode(&mut enc).unwrap();
            }
        });
        assert_eq!(n, 0, "{}: {n} allocations for 1000 encodes", h.name());
        // The one-call helper appending into a reused Vec also allocates nothing
        // once the Vec is big enough.
        let mut out = Vec::with_capacity(64 * 1024);
        let n = count_allocs(|| {
            for i in 0..1000 {
                out.clear();
                codec::encode_into(&reading(i), &h, &mut out).unwrap();
            }
        });
        if h.name() != "binc" {
            // binc: a fresh encoder has a fresh symbol table, which allocates.
            assert_eq!(n, 0, "{}: encode_into allocated {n} times", h.name());
        }
        // And the output is what a fresh encoder writes.
        assert_eq!(out, to_vec(&reading(999), &h).unwrap(), "{}", h.name());
    });
}

#[test]
fn encoder_reset_onto_a_new_writer() {
    each_handle!(h => {
        let mut enc = h.encoder(Vec::with_capacity(256));
        reading(1).encode(&mut enc).unwrap();
        let first = enc.reset(Vec::with_capacity(256));
        assert_eq!(first, to_vec(&reading(1), &h).unwrap(), "{}", h.name());
        reading(2).encode(&mut enc).unwrap();
        let second = enc.reset(Vec::new());
        // Per-stream state (binc symbols, JSON separators) starts afresh.
        assert_eq!(second, to_vec(&reading(2), &h).unwrap(), "{}", h.name());
    });
}

/// A reset keeps the handle's settings: JSON's trailing newline or space
/// after each value is written after the reset too.
#[test]
fn encoder_reset_keeps_json_terminators() {
    for h in [
        codec::JsonHandle::default().trailing_newline(true),
        codec::JsonHandle::default().term_whitespace(true),
        codec::JsonHandle::default()
            .trailing_newline(true)
            .indent(1),
    ] {
        let mut enc = h.encoder(Vec::new());
        reading(1).encode(&mut enc).unwrap();
        let first = enc.reset(Vec::new());
        reading(1).encode(&mut enc).unwrap();
        let second = enc.reset(Vec::new());
        assert_eq!(first, to_vec(&reading(1), &h).unwrap());
        assert_eq!(second, first);
        assert!(matches!(first.last(), Some(b'\n' | b' ')));
    }
}

#[test]
fn decoder_reset_onto_a_new_reader_keeps_scratch() {
    each_handle!(h => {
        let docs: Vec<Vec<u8>> = (0..100).map(|i| to_vec(&reading(i), &h).unwrap()).collect();
        let mut dec: Decoder<'_, SliceReader<'_>, _> = h.decoder(&docs[0]);
        let mut target = reading(0);
        // Warm-up pass: the scratch buffer grows to its working size once.
        for d in &docs {
            dec.reset(SliceReader::new(d));
            dec.decode_into(&mut target).unwrap();
        }
        let n = count_allocs(|| {
            for (i, d) in docs.iter().enumerate() {
                dec.reset(SliceReader::new(d));
                dec.decode_into(&mut target).unwrap();
                dec.finish().unwrap();
                assert_eq!(target, reading(i as u64));
            }
        });
        if h.name() != "binc" {
            // binc: reset gives the decoder a fresh symbol table, which allocates.
            assert_eq!(n, 0, "{}: {n} allocations decoding 100 documents", h.name());
        }
        // A plain decode gives the same values.
        for (i, d) in docs.iter().enumerate() {
            assert_eq!(from_slice::<Reading, _>(d, &h).unwrap(), reading(i as u64));
        }
    });
}

/// Every array and map of `v` has exactly the capacity it needs.
fn assert_exact(v: &codec::Value) {
    match v {
        codec::Value::Array(items) => {
            assert_eq!(items.capacity(), items.len());
            items.iter().for_each(assert_exact);
        }
        codec::Value::Map(entries) => {
            assert_eq!(entries.capacity(), entries.len());
            for (k, v) in entries {
                assert_exact(k);
                assert_exact(v);
            }
        }
        _ => {}
    }
}

#[test]
fn value_containers_without_a_length_are_allocated_once() {
    use codec::{JsonHandle, Value};
    let h = JsonHandle::default();
    let text: &[u8] =
        br#"[[1,2,3,4,5,6,7,8,9],{"a":[true,false],"b":{"c":null}},[],{},"a string much too long to be kept inline"]"#;
    let mut dec: Decoder<'_, SliceReader<'_>, _> = h.decoder(text);
    let want: Value = dec.decode().unwrap();
    assert_exact(&want);
    let n = count_allocs(|| {
        dec.reset(SliceReader::new(text));
        let v: Value = dec.decode().unwrap();
        assert_eq!(v, want);
    });
    // Five non-empty containers and the one string over 30 bytes; `[]`,
    // `{}` and the three short keys (inline `Text`) allocate nothing, and no
    // container grows (the items gather on the decoder's stack first).
    assert_eq!(n, 6, "{n} allocations");
    // A failure deep inside nested containers leaves the decoder's stacks
    // as they were: the next document decodes as before.
    for bad in [
        &br#"[[1,2,{"x":[3,"#[..],
        br#"[{"a":[1,{"b":[2,3,}]}]"#,
        br#"{"a":{"b":[1,2],"c":tru}}"#,
    ] {
        dec.reset(SliceReader::new(bad));
        assert!(dec.decode::<Value>().is_err());
        dec.reset(SliceReader::new(text));
        assert_eq!(dec.decode::<Value>().unwrap(), want);
    }
}

#[test]
fn a_document_decoded_into_again_keeps_its_buffers() {
    use codec::{Document, Value, from_slice_into};
    let docs: Vec<Value> = (0..50)
        .map(|i| {
            Value::Map(vec![
                (Value::from("id"), Value::Uint(i)),
                (
                    Value::from("name"),
                    Value::from(format!("reading number {i}").as_str()),
                ),
                (
                    Value::from("tags"),
                    Value::Array(vec![Value::from("a"); i as usize % 7]),
                ),
                (Value::from("empty"), Value::Array(vec![])),
            ])
        })
        .collect();
    each_handle!(h => {
        let inputs: Vec<Vec<u8>> = docs.iter().map(|v| to_vec(v, &h).unwrap()).collect();
        // What a fresh decode gives (MessagePack reads an integer back as
        // `Int`, for one).
        let fresh: Vec<Document> = inputs.iter().map(|b| from_slice(b, &h).unwrap()).collect();
        let mut doc = Document::default();
        // Warm-up pass: the two buffers grow to the largest input's size.
        for input in &inputs {
            from_slice_into(input, &h, &mut doc).unwrap();
        }
        let n = count_allocs(|| {
            for (input, want) in inputs.iter().zip(&fresh) {
                from_slice_into(input, &h, &mut doc).unwrap();
                assert_eq!(doc, *want, "{}", h.name());
            }
        });
        match h.name() {
            // A fresh decoder has a fresh symbol table, which allocates.
            "binc" => {}
            // The one-loop readers' stack of open containers: one small
            // allocation per document here (two levels).
            "json" | "msgpack" | "cbor" => {
                assert_eq!(n, 50, "{}: {n} allocations for 50 documents", h.name())
            }
            name => assert_eq!(n, 0, "{name}: {n} allocations for 50 documents"),
        }
        // An error in the item leaves the document nil; the next input
        // refills it.
        let cut = &inputs[9][..inputs[9].len() - 1];
        assert!(from_slice_into(cut, &h, &mut doc).is_err(), "{}", h.name());
        assert!(doc.root().is_nil() && doc.node_count() == 1, "{}", h.name());
        from_slice_into(&inputs[3], &h, &mut doc).unwrap();
        assert_eq!(doc, fresh[3], "{}", h.name());
        // Trailing data: the item was read, and the document holds it.
        let mut long = inputs[4].clone();
        long.extend_from_slice(&inputs[4]);
        assert!(from_slice_into(&long, &h, &mut doc).is_err(), "{}", h.name());
        assert_eq!(doc, fresh[4], "{}", h.name());
    });
}

/// A `Document` that is the whole input may size its buffers by the input
/// at once (`DocumentBuilder::is_whole_input`, which JSON's reader uses);
/// one inside another value, or one of a stream, must not: each of
/// thousands of documents in an array would reserve the whole array's size.
#[test]
fn only_a_document_that_is_the_whole_input_is_sized_by_it() {
    use codec::{Document, JsonHandle};
    let h = JsonHandle::default();
    let item = r#"{"id":12345,"name":"item","tags":["a","b"],"ok":true,"none":null}"#;
    let n = 2000;
    let text = format!("[{}]", vec![item; n].join(","));
    let input = text.as_bytes();

    // The whole input: its two buffers reserved once (nodes by an
    // estimate, text by the input's length), not grown step by step
    // (the node buffer alone would take ten steps from 64 nodes).
    let mut whole = None;
    let (allocs, bytes) = count_alloc_bytes(|| {
        whole = Some(from_slice::<Document, _>(input, &h).unwrap());
    });
    let whole = whole.unwrap();
    assert_eq!(whole.root().len(), n);
    assert!(allocs <= 6, "{allocs} allocations for one whole document");
    assert!(
        bytes < 8 * input.len(),
        "{bytes} bytes for {} of input",
        input.len()
    );

    // Documents inside an array: each sized by what it holds.
    let mut many = None;
    let (_, bytes) = count_alloc_bytes(|| {
        many = Some(from_slice::<Vec<Document>, _>(input, &h).unwrap());
    });
    let many = many.unwrap();
    assert!(
        many.iter()
            .zip(whole.root().items())
            .all(|(d, w)| d.root() == w)
    );
    // Sized by the input, they would ask for `n` times its length.
    assert!(bytes < 50 * input.len(), "{bytes} bytes for {n} documents");

    // A stream of documents read one by one from a decoder: the same.
    let stream = vec![item; n].join("\n");
    let mut dec: Decoder<'_, SliceReader<'_>, _> = h.decoder(stream.as_bytes());
    let (_, bytes) = count_alloc_bytes(|| {
        for _ in 0..n {
            let d: Document = dec.decode().unwrap();
            assert_eq!(d.root(), whole.root().items().next().unwrap());
        }
    });
    assert!(bytes < 50 * stream.len(), "{bytes} bytes for {n} documents");
}

/// Writes a string, then fails (`panic` false) or panics (`panic` true).
struct Breaks {
    panic: bool,
}

impl Encode for Breaks {
    fn encode<W: codec::Write, F: codec::EncodeFormat>(
        &self,
        e: &mut codec::Encoder<W, F>,
    ) -> codec::Result<()> {
        e.encode("written before the failure")?;
        if self.panic {
            panic!("an Encode impl that panics");
        }
        Err(codec::Error::unsupported("an Encode impl that fails"))
    }
}

#[test]
fn encode_into_keeps_the_callers_bytes_through_errors_and_panics() {
    each_handle!(h => {
        let partial = to_vec("written before the failure", &h).unwrap();
        let mut out = b"earlier output".to_vec();
        assert!(codec::encode_into(&Breaks { panic: false }, &h, &mut out).is_err());
        assert_eq!(out, [&b"earlier output"[..], &partial].concat(), "{}: error", h.name());
        let mut out = b"earlier output".to_vec();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = codec::encode_into(&Breaks { panic: true }, &h, &mut out);
        }));
        assert!(caught.is_err());
        assert_eq!(out, [&b"earlier output"[..], &partial].concat(), "{}: panic", h.name());
    });
}

/// Declared lengths reserve room up front within `max_prealloc` (64 KiB)
/// for all the collections being filled together, not for each: 250 nested
/// arrays each declaring 2^32 - 1 items (1,251 bytes) reserved 64 KiB at
/// every level from a reader, 16 MB.
#[test]
fn nested_declared_lengths_share_the_prealloc_budget() {
    let mut input = Vec::new();
    for _ in 0..250 {
        input.extend_from_slice(&[0xdd, 0xff, 0xff, 0xff, 0xff]);
    }
    input.push(0xc0);
    let h = codec::MsgpackHandle::default();
    let (_, from_reader) = count_alloc_bytes(|| {
        assert!(codec::from_reader::<codec::Value, _, _>(&input[..], &h).is_err());
    });
    let (_, from_slice_bytes) = count_alloc_bytes(|| {
        assert!(from_slice::<codec::Value, _>(&input, &h).is_err());
    });
    let (_, typed) = count_alloc_bytes(|| {
        assert!(codec::from_reader::<Vec<Vec<Vec<u64>>>, _, _>(&input[..], &h).is_err());
    });
    for (name, bytes) in [
        ("reader", from_reader),
        ("slice", from_slice_bytes),
        ("typed", typed),
    ] {
        assert!(bytes < 256 * 1024, "{name}: {bytes} bytes asked for");
    }
    // Siblings each get the budget again once the one before is filled.
    let doc = to_vec(&vec![vec![1u32; 100]; 3], &h).unwrap();
    let back: Vec<Vec<u32>> = codec::from_reader(&doc[..], &h).unwrap();
    assert_eq!(back, vec![vec![1u32; 100]; 3]);
}

/// `ValueMaps::LastWins` (and `Sorted`) find repeated keys without copying
/// them: a map whose key is a large map, nested 100 deep, copied that key at
/// every level (7,691 times the input's bytes allocated, 250 deep).
#[test]
fn last_wins_maps_do_not_copy_their_keys() {
    use codec::{Options, Value, ValueMaps};
    let mut v = Value::Array(vec![Value::Nil; 2000]);
    for _ in 0..100 {
        v = Value::Map(vec![(v, Value::Nil), (Value::Nil, Value::Nil)]);
    }
    let bytes = to_vec(&v, &codec::MsgpackHandle::default()).unwrap();
    let decode = |maps: ValueMaps| {
        let h = codec::MsgpackHandle {
            options: Options::default().value_maps(maps),
            ..Default::default()
        };
        count_alloc_bytes(|| {
            let back: Value = from_slice(&bytes, &h).unwrap();
            // (Sorted puts the nil key first.)
            assert!(maps == ValueMaps::Sorted || back == v, "{maps:?}");
        })
        .1
    };
    let ordered = decode(ValueMaps::Ordered);
    for maps in [ValueMaps::LastWins, ValueMaps::Sorted] {
        let other = decode(maps);
        assert!(
            other < 2 * ordered,
            "{maps:?}: {other} bytes, ordered {ordered}"
        );
    }
}

/// Errors are sticky (as ugorji's): after a value fails part way, the
/// reader stands (or the output ends) inside it, so every later call is an
/// error until a reset, not a value read from the middle of the broken one.
#[test]
fn errors_are_sticky_until_reset() {
    use codec::Value;
    let h = codec::MsgpackHandle::default();
    let input = [0x92, 0x01, 0xc1, 0x05];
    let mut d = h.decoder(&input[..]);
    assert!(d.decode::<Vec<u8>>().is_err());
    let err = d.decode::<Value>().unwrap_err();
    assert!(err.to_string().contains("earlier error"), "{err}");
    let mut target = Value::Nil;
    assert!(d.decode_into(&mut target).is_err());
    d.reset(SliceReader::new(&[0x05]));
    assert_eq!(d.decode::<Value>().unwrap().as_u64(), Some(5));

    let j = codec::JsonHandle::default().trailing_newline(true);
    let mut e = j.encoder(Vec::new());
    let bad = Value::Map(vec![(
        Value::from("k"),
        Value::Map(vec![(Value::Array(vec![]), Value::Nil)]),
    )]);
    assert!(e.encode(&bad).is_err());
    let err = e.encode(&5u32).unwrap_err();
    assert!(err.to_string().contains("earlier error"), "{err}");
    e.reset(Vec::new());
    e.encode(&5u32).unwrap();
    assert_eq!(e.reset(Vec::new()), b"5\n");
}

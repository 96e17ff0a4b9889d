//! Nesting up to `max_depth` fits in a small stack: every handle decodes
//! 256 levels (the default limit) of arrays, maps and CBOR tags into
//! `Value` (from a slice and from a reader, and with the map modes that
//! sort or reject duplicate keys), `Document`, a derived
//! recursive enum and a struct that skips the nested field, re-encodes,
//! displays, clones and drops the `Value`, and refuses 257 levels with
//! `DepthLimitExceeded`, all inside a thread of `CODEC_TEST_STACK_KB` KiB
//! (default 768, well under the 2 MiB of a test thread or a tokio worker:
//! unoptimised it takes about 560, at opt-level 1 under 192).
//!
//! A stack overflow aborts the process, so a failure shows as this test
//! binary dying with SIGABRT. Frames are largest unoptimised, where every
//! temporary of a function's inlined callees has its own slot: `.ci/run`
//! also runs this test at opt-level 0 (the workspace tests at opt-level 1).

use codec::{AnyHandle, Codec, Document, ErrorKind, Value, ValueMaps};

/// The default `max_depth`.
const MAX: usize = 256;

fn stack_bytes() -> usize {
    let kb = std::env::var("CODEC_TEST_STACK_KB").map_or(768, |s| {
        s.parse()
            .expect("CODEC_TEST_STACK_KB: a number of KiB, e.g. 768")
    });
    kb * 1024
}

/// Runs `f` in a thread with [`stack_bytes`] of stack.
fn in_small_stack(name: &str, f: impl FnOnce() + Send) {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name(name.to_owned())
            .stack_size(stack_bytes())
            .spawn_scoped(s, f)
            .expect("spawn")
            .join()
            .expect("no panic");
    });
}

/// A recursive type as users write them: `Node(children)` is a map of one
/// entry holding an array, two levels per node.
#[derive(Codec, Debug, PartialEq)]
enum Tree {
    Leaf,
    Node(Vec<Tree>),
}

/// Decodes a document whose `x` it does not know: the decoder skips it.
#[derive(Codec, Debug, PartialEq)]
struct Skipper {
    a: Option<u8>,
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    Arrays,
    Maps,
    /// Arrays and maps taking turns.
    Mixed,
    /// CBOR tags (tag 32, a URI) around each other.
    Tags,
}

/// `levels` nested containers of `shape` around a `nil`, built from the
/// inside out (no recursion).
fn nested(shape: Shape, levels: usize) -> Value {
    let mut v = Value::Nil;
    for i in 0..levels {
        v = match shape {
            Shape::Arrays => Value::Array(vec![v]),
            Shape::Maps => Value::Map(vec![(Value::from("k"), v)]),
            Shape::Mixed if i % 2 == 0 => Value::Array(vec![v]),
            Shape::Mixed => Value::Map(vec![(Value::from("k"), v)]),
            Shape::Tags => Value::Tagged(32, Box::new(v)),
        };
    }
    v
}

/// `nodes` nested `Tree::Node`s around a `Leaf`, as a `Value` of the same
/// encoding: `nodes * 2` levels.
fn tree_value(nodes: usize) -> Value {
    let mut v = Value::from("Leaf");
    for _ in 0..nodes {
        v = Value::Map(vec![(Value::from("Node"), Value::Array(vec![v]))]);
    }
    v
}

fn is_depth_error(r: Result<impl std::fmt::Debug, codec::Error>, what: &str) {
    match r {
        Err(e) if matches!(e.kind(), ErrorKind::DepthLimitExceeded { max: 256 }) => {}
        other => panic!("{what}: expected DepthLimitExceeded, got {other:?}"),
    }
}

fn check_shape(h: &AnyHandle, shape: Shape) {
    let what = |s: &str| format!("{} {shape:?} {s}", h.name());
    let at_max = h.to_vec(&nested(shape, MAX)).unwrap();
    let past = h.to_vec(&nested(shape, MAX + 1)).unwrap();

    // Into `Value`, from a slice, from a reader, and into an existing one.
    let v: Value = h.from_slice(&at_max).unwrap();
    let r: Value = h.from_reader(&at_max[..]).unwrap();
    assert!(v == r, "{}", what("slice and reader differ"));
    let mut into = Value::Nil;
    h.from_slice_into(&at_max, &mut into).unwrap();
    // Then what one does with it: encode, display, clone, compare, drop.
    assert_eq!(h.to_vec(&v).unwrap(), at_max, "{}", what("re-encoded"));
    assert!(!v.to_string().is_empty());
    let copy = v.clone();
    assert!(copy == into, "{}", what("clone"));
    drop((v, r, into, copy));
    is_depth_error(h.from_slice::<Value>(&past), &what("Value"));
    is_depth_error(h.from_reader::<Value, _>(&past[..]), &what("Value, reader"));
    // The map modes other than the default read maps their own way.
    for mode in [ValueMaps::RejectDuplicates, ValueMaps::Sorted] {
        let mut h = h.clone();
        h.options_mut().decode.value_maps = mode;
        let v: Value = h.from_slice(&at_max).unwrap();
        assert_eq!(
            h.to_vec(&v).unwrap(),
            at_max,
            "{}",
            what(&format!("{mode:?}"))
        );
        is_depth_error(h.from_slice::<Value>(&past), &what(&format!("{mode:?}")));
    }

    // Into `Document`.
    let doc: Document = h.from_slice(&at_max).unwrap();
    assert_eq!(h.to_vec(&doc).unwrap(), at_max, "{}", what("Document"));
    is_depth_error(h.from_slice::<Document>(&past), &what("Document"));

    // Skipped as an unknown field: the struct is the first level.
    let field = |levels| {
        Value::Map(vec![
            (Value::from("x"), nested(shape, levels)),
            (Value::from("a"), Value::from(7u8)),
        ])
    };
    let ok = h.to_vec(&field(MAX - 1)).unwrap();
    let s: Skipper = h.from_slice(&ok).unwrap();
    assert_eq!(s, Skipper { a: Some(7) }, "{}", what("skip"));
    let too_deep = h.to_vec(&field(MAX)).unwrap();
    let skipped = h.from_slice::<Skipper>(&too_deep);
    // At the container that goes too deep, as when it is decoded.
    let decoded = h.from_slice::<Value>(&too_deep).map_err(|e| e.offset());
    assert_eq!(
        skipped.as_ref().map_err(|e| e.offset()).err(),
        decoded.err(),
        "{}",
        what("skip offset")
    );
    is_depth_error(skipped, &what("skip"));
}

fn check_tree(h: &AnyHandle) {
    let at_max = h.to_vec(&tree_value(MAX / 2)).unwrap();
    let t: Tree = h.from_slice(&at_max).unwrap();
    assert_eq!(h.to_vec(&t).unwrap(), at_max, "{} Tree", h.name());
    drop(t);
    let past = h.to_vec(&tree_value(MAX / 2 + 1)).unwrap();
    is_depth_error(h.from_slice::<Tree>(&past), &format!("{} Tree", h.name()));
}

#[test]
fn max_depth_fits_in_a_small_stack() {
    for name in AnyHandle::NAMES {
        let h: AnyHandle = name.parse().unwrap();
        in_small_stack(name, || {
            for shape in [Shape::Arrays, Shape::Maps, Shape::Mixed] {
                check_shape(&h, shape);
            }
            if name == "cbor" {
                check_shape(&h, Shape::Tags);
            }
            check_tree(&h);
        });
    }
}

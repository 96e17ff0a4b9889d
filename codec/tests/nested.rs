//! Nested structs and `Vec`s of them in every format: the values, at every
//! growth boundary of a `Vec` read without a declared length, and the path
//! of an error deep inside.

mod common;

use codec::{Codec, Handle, from_slice, to_vec};

#[derive(Codec, Debug, PartialEq, Clone)]
struct Point {
    x: f32,
    y: f32,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Body {
    altitude: i8,
    angle: u16,
    position: Point,
    name: String,
    tags: Vec<String>,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Pair(u8, Body);

#[derive(Codec, Debug, PartialEq)]
struct World {
    bodies: Vec<Body>,
    best: Option<Body>,
    pairs: Vec<Pair>,
    last: Body,
}

fn body(i: usize) -> Body {
    Body {
        altitude: i as i8,
        angle: (i * 7) as u16,
        position: Point {
            x: i as f32 / 2.0,
            y: -(i as f32),
        },
        // Long enough to live on the heap: dropped or leaked wrongly, it shows.
        name: format!("body number {i} with a long name"),
        tags: (0..i % 3).map(|t| format!("tag {t}")).collect(),
    }
}

fn world(n: usize) -> World {
    World {
        bodies: (0..n).map(body).collect(),
        best: (n % 2 == 1).then(|| body(n)),
        pairs: (0..n / 2).map(|i| Pair(i as u8, body(i))).collect(),
        last: body(n + 1),
    }
}

#[test]
fn nested_structs_and_items_round_trip_at_every_growth_boundary() {
    // JSON arrays have no declared length: their `Vec` grows while items
    // arrive, so lengths around powers of two cross each growth.
    each_handle!(h => {
        for n in 0..70 {
            let w = world(n);
            let bytes = to_vec(&w, &h).unwrap();
            let back: World = from_slice(&bytes, &h).unwrap_or_else(|e| {
                panic!("{} n={n}: {e}", h.name());
            });
            assert_eq!(back, w, "{} n={n}", h.name());
        }
    });
}

#[test]
fn an_error_inside_a_nested_item_names_its_path() {
    each_handle!(h => {
        let bytes = to_vec(&world(5), &h).unwrap();
        // The same document, read as a type whose `tags` item is a number.
        #[derive(Codec, Debug)]
        #[allow(dead_code)]
        struct StrictBody {
            altitude: i8,
            angle: u16,
            position: Point,
            name: String,
            tags: Vec<u32>,
        }
        #[derive(Codec, Debug)]
        #[allow(dead_code)]
        struct StrictWorld {
            bodies: Vec<StrictBody>,
        }
        let err = from_slice::<StrictWorld, _>(&bytes, &h).unwrap_err();
        // bodies[1] has one tag; it is the first to fail.
        assert_eq!(err.path_string(), ".bodies[1].tags[0]", "{}: {err}", h.name());
    });
}

#[derive(Codec, Debug, PartialEq)]
struct Lists {
    ids: Vec<u32>,
    names: Vec<String>,
    rows: Vec<Vec<u32>>,
    last: String,
}

/// Empty `Vec`s among other fields: a binary format takes its one-byte
/// empty array at a glance, and the key and value after it are read as
/// after any array (MessagePack's text/bytes state for the next key).
#[test]
fn empty_vecs_between_fields_round_trip() {
    let docs = [
        Lists {
            ids: vec![],
            names: vec![],
            rows: vec![vec![], vec![3], vec![]],
            last: "end".into(),
        },
        Lists {
            ids: vec![1, 2],
            names: vec!["a".into()],
            rows: vec![],
            last: String::new(),
        },
    ];
    each_handle!(h => {
        for doc in &docs {
            let bytes = to_vec(doc, &h).unwrap();
            assert_eq!(&from_slice::<Lists, _>(&bytes, &h).unwrap(), doc, "{bytes:02x?}");
        }
    });
}

/// Every encoding of an empty array decodes alike: the one-byte form a
/// decoder takes at a glance and the longer ones other encoders may write
/// (a zero length in length bytes, CBOR's indefinite `9f ff`), which go the
/// general way, with the items after them read from the right place.
#[test]
fn empty_arrays_in_every_encoding_decode_alike() {
    struct Forms {
        name: &'static str,
        /// The header of an array of 4 items.
        head: &'static [u8],
        /// Encodings of an empty array longer than one byte.
        long: &'static [&'static [u8]],
    }
    let cases = [
        Forms {
            name: "msgpack",
            head: &[0x94],
            long: &[&[0xdc, 0, 0], &[0xdd, 0, 0, 0, 0]],
        },
        Forms {
            name: "cbor",
            head: &[0x84],
            long: &[&[0x98, 0], &[0x99, 0, 0], &[0x9f, 0xff]],
        },
        Forms {
            name: "binc",
            head: &[0x68],
            long: &[&[0x60, 0], &[0x61, 0, 0]],
        },
        Forms {
            name: "simple",
            head: &[0xe9, 4],
            long: &[&[0xe9, 0], &[0xea, 0, 0]],
        },
    ];
    let want = vec![vec![], vec![7], vec![], vec![7]];
    for Forms { name, head, long } in cases {
        let h = codec::AnyHandle::from_name(name).unwrap();
        let short = h.to_vec(&Vec::<u32>::new()).unwrap();
        assert_eq!(short.len(), 1, "{name}: {short:02x?}");
        let seven = h.to_vec(&vec![7u32]).unwrap();
        for empty in long.iter().copied().chain([short.as_slice()]) {
            let doc = [head, empty, &seven, &short, &seven].concat();
            let got: Vec<Vec<u32>> = h
                .from_slice(&doc)
                .unwrap_or_else(|e| panic!("{name} {doc:02x?}: {e}"));
            assert_eq!(got, want, "{name} {doc:02x?}");
            let doc = [head, &short, &seven, empty, &seven].concat();
            let got: Vec<Vec<u32>> = h.from_slice(&doc).unwrap();
            assert_eq!(got, want, "{name} {doc:02x?}");
        }
    }
}

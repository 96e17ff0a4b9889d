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

//! Canonical output does not depend on `HashMap` iteration order: the same
//! maps built with many differently-seeded hashers encode to the same bytes.

mod common;

use codec::{Codec, Handle, Options, Value, to_vec};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

/// A seeded FNV-style hasher: each seed gives a different iteration order.
#[derive(Clone, Copy, Default)]
struct Seeded(u64);

struct SeededHasher(u64);

impl Hasher for SeededHasher {
    fn finish(&self) -> u64 {
        // splitmix64 finaliser, so small seeds scatter well.
        let mut z = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl BuildHasher for Seeded {
    type Hasher = SeededHasher;
    fn build_hasher(&self) -> SeededHasher {
        SeededHasher(self.0 ^ 0xcbf2_9ce4_8422_2325)
    }
}

#[derive(Codec)]
struct Doc {
    zeta: u8,
    by_name: HashMap<String, i64, Seeded>,
    by_num: HashMap<i32, String, Seeded>,
    by_bytes: HashMap<Vec<u8>, bool, Seeded>,
    set: HashSet<String, Seeded>,
    nested: HashMap<String, HashMap<u64, u8, Seeded>, Seeded>,
    alpha: u8,
}

fn doc(seed: u64) -> Doc {
    let s = Seeded(seed);
    let mut by_name = HashMap::with_hasher(s);
    let mut by_num = HashMap::with_hasher(s);
    let mut by_bytes = HashMap::with_hasher(s);
    let mut set = HashSet::with_hasher(s);
    let mut nested = HashMap::with_hasher(s);
    for i in 0..40i32 {
        by_name.insert(format!("key{}", i * 7 % 40), i as i64);
        by_num.insert(i * 37 % 101 - 50, format!("v{i}"));
        by_bytes.insert(vec![(i * 13 % 40) as u8, i as u8], i % 2 == 0);
        set.insert(format!("s{}", i * 3 % 40));
        let mut inner = HashMap::with_hasher(s);
        for j in 0..5u64 {
            inner.insert(j * 1000 + i as u64, j as u8);
        }
        nested.insert(format!("n{i}"), inner);
    }
    Doc {
        zeta: 1,
        by_name,
        by_num,
        by_bytes,
        set,
        nested,
        alpha: 2,
    }
}

fn order_of(seed: u64) -> Vec<String> {
    doc(seed).by_name.keys().cloned().collect()
}

#[test]
fn hash_seeds_do_change_iteration_order() {
    // Guards the test itself: without this the seeds would prove nothing.
    let first = order_of(0);
    assert!((1..64).any(|s| order_of(s) != first));
}

#[test]
fn canonical_is_independent_of_hash_seed_in_every_format() {
    each_handle_with!(Options::default().canonical(true), h => {
        let reference = to_vec(&doc(0), &h).unwrap();
        for seed in 1..200u64 {
            assert_eq!(to_vec(&doc(seed), &h).unwrap(), reference, "{} seed {seed}", h.name());
        }
        // Ordered as ugorji orders: struct fields by name, string keys bytewise,
        // integer keys numerically.
        let v: Value = codec::from_slice(&reference, &h).unwrap();
        let Value::Map(fields) = v else { panic!("{}: not a map", h.name()) };
        let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str().unwrap()).collect();
        assert_eq!(names, ["alpha", "by_bytes", "by_name", "by_num", "nested", "set", "zeta"], "{}", h.name());
        let by_name = &fields[2].1;
        let Value::Map(entries) = by_name else { panic!() };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str().unwrap()).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{}", h.name());
        if h.name() != "json" && h.name() != "cbor" {
            let Value::Map(entries) = &fields[3].1 else { panic!() };
            let nums: Vec<i64> = entries.iter().map(|(k, _)| k.as_i64().unwrap()).collect();
            let mut sorted = nums.clone();
            sorted.sort();
            assert_eq!(nums, sorted, "{}", h.name());
        }
    });
}

#[test]
fn cbor_deterministic_is_independent_of_hash_seed() {
    let h = codec::CborHandle::default().deterministic(true);
    let reference = to_vec(&doc(0), &h).unwrap();
    for seed in 1..200u64 {
        assert_eq!(to_vec(&doc(seed), &h).unwrap(), reference, "seed {seed}");
    }
}

/// Fields with integer keys (ugorji's `keyasint`).
#[derive(Codec, Debug, PartialEq)]
struct IntKeyed {
    #[codec(key = 1)]
    a: u8,
    #[codec(key = 2)]
    b: u8,
    #[codec(key = 10)]
    c: u8,
    #[codec(key = -1)]
    d: u8,
}

#[test]
fn canonical_integer_keyed_fields_sort_by_their_text() {
    // ugorji sorts struct fields by encoded name, and a `keyasint` field's
    // name is its number's text: -1, 1, 10, 2 (not numerically).
    let x = IntKeyed {
        a: 1,
        b: 2,
        c: 3,
        d: 4,
    };
    let h = codec::MsgpackHandle::default().canonical(true);
    let bytes = to_vec(&x, &h).unwrap();
    assert_eq!(
        bytes,
        [0x84, 0xff, 0x04, 0x01, 0x01, 0x0a, 0x03, 0x02, 0x02]
    );
    assert_eq!(codec::from_slice::<IntKeyed, _>(&bytes, &h).unwrap(), x);
    each_handle_with!(Options::default().canonical(true), h => {
        let v: Value = codec::from_slice(&to_vec(&x, &h).unwrap(), &h).unwrap();
        let Value::Map(fields) = v else { panic!("{}: not a map", h.name()) };
        let values: Vec<u64> = fields.iter().map(|(_, v)| v.as_u64().unwrap()).collect();
        assert_eq!(values, [4, 1, 3, 2], "{}", h.name());
    });
}

/// Time keys sort chronologically (ugorji sorts `time.Time` keys with
/// `Before`), not by their encoded bytes; `u128` keys numerically, also
/// past `i128::MAX`.
#[test]
fn canonical_time_and_u128_keys_sort_by_value() {
    use codec::Time;
    use std::time::{Duration, SystemTime, UNIX_EPOCH};
    let t = |s: i64, n: u32| Time::from_unix(s, n).unwrap();
    // 2 s encodes shorter than 1 s + 5 ns in MessagePack (d6 < d7), and
    // 10:00+05:00 (05:00Z) sorts after 06:00Z as text.
    let times = [
        t(2, 0),
        t(1, 5),
        t(1_577_858_400, 0).with_offset(5 * 3600),
        t(1_577_858_400 + 3600, 0),
    ];
    let order = [1u8, 0, 2, 3];
    for seed in 0..20u64 {
        each_handle_with!(Options::default().canonical(true), h => {
            let mut m = HashMap::with_hasher(Seeded(seed));
            for (i, k) in times.iter().enumerate() {
                m.insert(*k, i as u8);
            }
            let bytes = to_vec(&m, &h).unwrap();
            let Value::Map(entries) = codec::from_slice::<Value, _>(&bytes, &h).unwrap() else {
                panic!("{}: not a map", h.name())
            };
            let got: Vec<u64> = entries.iter().map(|(_, v)| v.as_u64().unwrap()).collect();
            assert_eq!(got, order.map(u64::from), "{} seed {seed}", h.name());
            let sys: HashMap<SystemTime, u8, Seeded> = [
                (UNIX_EPOCH + Duration::new(2, 0), 0),
                (UNIX_EPOCH + Duration::new(1, 5), 1),
            ]
            .into_iter()
            .collect::<HashMap<_, _, _>>();
            let bytes = to_vec(&sys, &h).unwrap();
            let Value::Map(entries) = codec::from_slice::<Value, _>(&bytes, &h).unwrap() else {
                panic!("{}: not a map", h.name())
            };
            let got: Vec<u64> = entries.iter().map(|(_, v)| v.as_u64().unwrap()).collect();
            assert_eq!(got, [1, 0], "{} seed {seed}: SystemTime", h.name());
        });
    }
    let h = codec::JsonHandle {
        options: Options::default().canonical(true),
        ..Default::default()
    };
    let mut m = HashMap::with_hasher(Seeded(3));
    for (i, k) in [u128::MAX, 10, 5].into_iter().enumerate() {
        m.insert(k, i as u8);
    }
    assert_eq!(
        to_vec(&m, &h).unwrap(),
        br#"{"5":2,"10":1,"340282366920938463463374607431768211455":0}"#
    );
}

thread_local! {
    static NODE_ENCODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A map whose keys are maps: no natural order, so canonical output sorts
/// them by their encoded bytes. Counts its encodings.
struct Node(Vec<(Node, u8)>);

impl codec::Encode for Node {
    fn encode<W: codec::Write, F: codec::EncodeFormat>(
        &self,
        e: &mut codec::Encoder<W, F>,
    ) -> codec::Result<()> {
        NODE_ENCODES.with(|c| c.set(c.get() + 1));
        e.encode_map_iter(self.0.len(), self.0.iter().map(|(k, v)| (k, v)), false)
    }
}

/// `{ {…}: 0, {}: 1 }` nested `depth` times: 2 * depth + 1 nodes.
fn chain(depth: u32) -> Node {
    let mut n = Node(Vec::new());
    for _ in 0..depth {
        n = Node(vec![(n, 0), (Node(Vec::new()), 1)]);
    }
    n
}

/// Each key is encoded once, on the side, and its bytes written (as ugorji
/// does): encoding it again cost twice its inner keys at every level, 2^depth
/// for a map of maps (a 105-byte input decoded into `Value` took 12 s to
/// re-encode canonically, each level deeper twice that).
#[test]
fn canonical_keys_are_encoded_once() {
    let count = |f: &mut dyn FnMut() -> Vec<u8>| {
        NODE_ENCODES.with(|c| c.set(0));
        let bytes = f();
        (bytes, NODE_ENCODES.with(|c| c.get()))
    };
    // 16 deep: encoded twice per level, that was some 2^17 encodings.
    let node = chain(16);
    let canonical = Options::default().canonical(true);
    let msgpack = codec::MsgpackHandle {
        options: canonical.clone(),
        ..Default::default()
    };
    let cbor = codec::CborHandle {
        options: canonical.clone(),
        ..Default::default()
    };
    let binc = codec::BincHandle {
        options: canonical.clone(),
        ..Default::default()
    };
    let simple = codec::SimpleHandle {
        options: canonical.clone(),
        ..Default::default()
    };
    let deterministic = codec::CborHandle::default().deterministic(true);
    let runs: [(&str, &mut dyn FnMut() -> Vec<u8>); 5] = [
        ("msgpack", &mut || to_vec(&node, &msgpack).unwrap()),
        ("cbor", &mut || to_vec(&node, &cbor).unwrap()),
        ("binc", &mut || to_vec(&node, &binc).unwrap()),
        ("simple", &mut || to_vec(&node, &simple).unwrap()),
        ("cbor deterministic", &mut || {
            to_vec(&node, &deterministic).unwrap()
        }),
    ];
    for (name, run) in runs {
        let (bytes, n) = count(run);
        assert_eq!(n, 33, "{name}: every node encoded once");
        // The empty map key (smaller) comes first at every level.
        let v: Value = match name {
            "msgpack" => codec::from_slice(&bytes, &msgpack).unwrap(),
            "binc" => codec::from_slice(&bytes, &binc).unwrap(),
            "simple" => codec::from_slice(&bytes, &simple).unwrap(),
            _ => codec::from_slice(&bytes, &cbor).unwrap(),
        };
        let Value::Map(m) = v else { panic!("{name}") };
        assert_eq!(m[0].1.as_u64(), Some(1), "{name}");
        assert_eq!(m[1].1.as_u64(), Some(0), "{name}");
    }
    // Binc with symbols encodes keys again in place (their bytes depend on
    // the stream's symbol table), sorting by their plain bytes: each node is
    // encoded once in place and once on the side per key it lies in, at
    // most depth + 1 times (16 deep: 33 × 17 = 561). With side encoders of
    // their own tables, nested keys were encoded 2^depth times.
    let symbols = binc.clone().as_symbols(true);
    let (bytes, n) = count(&mut || to_vec(&node, &symbols).unwrap());
    assert!(n <= 33 * 17, "binc symbols: {n} encodings");
    let v: Value = codec::from_slice(&bytes, &symbols).unwrap();
    assert_eq!(
        v,
        codec::from_slice::<Value, _>(&to_vec(&node, &binc).unwrap(), &binc).unwrap()
    );
    let Value::Map(m) = v else { panic!() };
    assert_eq!(m[0].1.as_u64(), Some(1));
}

/// JSON keys of mixed kinds sort as ugorji writes them: by their text as
/// values (`"a"` before `1`; the vectors' `map/intf-mixed-keys`), or with
/// `map_key_as_string` as quoted keys (`"1"` before `"a"`). A container key
/// is an error, found while sorting.
#[test]
fn json_canonical_keys_sort_as_ugorji_writes_them() {
    let plain = codec::JsonHandle {
        options: Options::default().canonical(true),
        ..Default::default()
    };
    let quoted = plain.clone().map_key_as_string(true);
    let m = Value::Map(vec![
        (Value::Uint(1), Value::Nil),
        (Value::from("a"), Value::Nil),
    ]);
    assert_eq!(to_vec(&m, &plain).unwrap(), br#"{"a":null,"1":null}"#);
    assert_eq!(to_vec(&m, &quoted).unwrap(), br#"{"1":null,"a":null}"#);
    // A map of maps as keys, 30 deep: refused at once, not sorted level
    // by level.
    let mut deep = Value::Nil;
    for _ in 0..30 {
        deep = Value::Map(vec![(deep, Value::Nil), (Value::from("a"), Value::Nil)]);
    }
    for h in [&plain, &quoted] {
        let err = to_vec(&deep, h).unwrap_err();
        assert!(err.to_string().contains("map"), "{err}");
    }
}

/// Binc with symbols under canonical: keys that are maps of strings sort by
/// their plain bytes (`Value` keys sort by encoding, as ugorji's
/// `interface{}` keys do), in the same order as without symbols, and are
/// written against the stream's one symbol table, so the text keys inside
/// them read back (ugorji writes the side encoder's symbol ids as they are).
#[test]
fn binc_symbols_canonical_map_keys_read_back() {
    let key = |name: &str, n: u64| {
        Value::Map(vec![
            (Value::from("name"), Value::from(name)),
            (Value::from("count"), Value::Uint(n)),
        ])
    };
    let map = Value::Map(vec![
        (key("zeta", 1), Value::from("first")),
        (key("alpha", 2), Value::from("second")),
        (Value::from("name"), Value::from("plain")),
        (Value::from("count"), key("beta", 3)),
    ]);
    let plain = codec::BincHandle::default().canonical(true);
    let symbols = plain.clone().as_symbols(true);
    let with_symbols = to_vec(&map, &symbols).unwrap();
    let without = to_vec(&map, &plain).unwrap();
    assert!(with_symbols.len() < without.len(), "symbols are used");
    let back: Value = codec::from_slice(&with_symbols, &symbols).unwrap();
    let expected: Value = codec::from_slice(&without, &plain).unwrap();
    assert_eq!(back, expected);
    let Value::Map(entries) = back else { panic!() };
    assert_eq!(entries.len(), 4);
    assert!(entries.contains(&(key("alpha", 2), Value::from("second"))));
}

//! Arrays of floats (`Vec<f64>`, `[f32; N]`, `&[f64]`, ...) are written in
//! one driver call (`write_f64_array` / `write_f32_array`); the bytes must be
//! those of the item-by-item path, which a `Value::Array` of floats still
//! takes, in every handle and every JSON layout option.

use codec::{AnyHandle, Codec, JsonHandle, Value};

#[derive(Codec, Debug, PartialEq)]
struct Shape {
    name: String,
    ring: Vec<[f64; 2]>,
    weights: Vec<f32>,
    scale: f64,
}

fn handles() -> Vec<AnyHandle> {
    let mut hs: Vec<AnyHandle> = AnyHandle::NAMES
        .iter()
        .map(|n| AnyHandle::from_name(n).unwrap())
        .collect();
    // JSON layouts whose per-item bytes differ: indentation by spaces and
    // by tabs, and a trailer after the top-level value.
    hs.push(JsonHandle::new().indent(2).into());
    hs.push(JsonHandle::new().indent(-1).into());
    hs.push(JsonHandle::new().trailing_newline(true).into());
    hs
}

/// Floats that take every branch of the JSON float layout: fixed and
/// exponent forms, integral values either side of 2^52 (f64) and 2^23
/// (f32), signed zeros, subnormals, extremes and non-finite values.
fn f64s() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.5,
        0.1,
        1e-7,
        1.5e-6,
        123456.789,
        1e21,
        1e20,
        16_777_216.0,
        1e10,
        3e15,
        4_503_599_627_370_496.0,
        4_503_599_627_370_497.0,
        9_007_199_254_740_993.0,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        f64::MIN,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(f64::from_bits(x));
        v.push((x % 2_000_000) as f64 / 1000.0 - 1000.0);
    }
    v
}

fn f32s() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        0.1,
        1e-7,
        8_388_608.0,
        8_388_609.0,
        16_777_216.0,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::NAN,
        f32::NEG_INFINITY,
    ];
    let mut x = 0x9E37_79B9u32;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v.push(f32::from_bits(x));
    }
    v
}

fn as_values<T: Copy>(items: &[T], f: impl Fn(T) -> Value) -> Value {
    Value::Array(items.iter().map(|&x| f(x)).collect())
}

#[test]
fn float_arrays_write_the_item_by_item_bytes() {
    let xs = f64s();
    let ys = f32s();
    for h in handles() {
        let name = format!("{h:?}");
        for n in [0, 1, 2, 3, 17, xs.len()] {
            let want = h.to_vec(&as_values(&xs[..n], Value::F64)).unwrap();
            assert_eq!(
                h.to_vec(&xs[..n].to_vec()).unwrap(),
                want,
                "{name} Vec<f64> {n}"
            );
            assert_eq!(h.to_vec(&xs[..n]).unwrap(), want, "{name} [f64] {n}");
            let want = h
                .to_vec(&as_values(&ys[..n.min(ys.len())], Value::F32))
                .unwrap();
            let got = h.to_vec(&ys[..n.min(ys.len())].to_vec()).unwrap();
            assert_eq!(got, want, "{name} Vec<f32> {n}");
        }
        let pair: [f64; 2] = [xs[3], xs[4]];
        let want = h.to_vec(&as_values(&pair, Value::F64)).unwrap();
        assert_eq!(h.to_vec(&pair).unwrap(), want, "{name} [f64; 2]");

        // Nested and inside a struct, where separators and indentation
        // around the arrays come from the general path.
        let shape = Shape {
            name: "ring".into(),
            ring: xs.chunks_exact(2).map(|c| [c[0], c[1]]).collect(),
            weights: ys.clone(),
            scale: 2.5,
        };
        let ring = Value::Array(
            shape
                .ring
                .iter()
                .map(|p| as_values(p, Value::F64))
                .collect(),
        );
        let want = h
            .to_vec(&Value::Map(vec![
                (Value::from("name"), Value::from("ring")),
                (Value::from("ring"), ring),
                (Value::from("weights"), as_values(&ys, Value::F32)),
                (Value::from("scale"), Value::F64(2.5)),
            ]))
            .unwrap();
        assert_eq!(h.to_vec(&shape).unwrap(), want, "{name} struct");
    }
}

/// Finite values come back bit for bit; `-0.0` is left out because Binc
/// has one float zero for both signs (spec/binc.md, byte `06`).
#[test]
fn finite_float_arrays_round_trip_exactly() {
    let keep = |bits: u64, finite: bool| finite && bits != 1 << 63;
    let xs: Vec<f64> = f64s()
        .into_iter()
        .filter(|x| keep(x.to_bits(), x.is_finite()))
        .collect();
    let ys: Vec<f32> = f32s()
        .into_iter()
        .filter(|x| keep((x.to_bits() as u64) << 32, x.is_finite()))
        .collect();
    let shape = Shape {
        name: "exact".into(),
        ring: xs.chunks_exact(2).map(|c| [c[0], c[1]]).collect(),
        weights: ys,
        scale: -2.5,
    };
    for h in handles() {
        let bytes = h.to_vec(&shape).unwrap();
        let back: Shape = h.from_slice(&bytes).unwrap();
        let bits = |s: &Shape| {
            let ring: Vec<u64> = s.ring.iter().flatten().map(|x| x.to_bits()).collect();
            let w: Vec<u32> = s.weights.iter().map(|x| x.to_bits()).collect();
            (ring, w, s.scale.to_bits())
        };
        assert_eq!(bits(&back), bits(&shape), "{h:?}");
    }
}

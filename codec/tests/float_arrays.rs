//! Arrays of floats (`Vec<f64>`, `[f32; N]`, `&[f64]`, ...) are written in
//! one driver call (`write_f64_array` / `write_f32_array`); the bytes must be
//! those of the item-by-item path, which a `Value::Array` of floats still
//! takes, in every handle and every JSON layout option.

mod common;

use codec::{AnyHandle, Codec, JsonHandle, Value};
use common::{ByteByByte, damage, xorshift};

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

/// Pairs (a point's coordinates) are laid out in one block in JSON: every
/// float of the samples in either place, next to every other, gives the
/// item-by-item bytes, for `f64` and `f32`.
#[test]
fn float_pairs_write_the_item_by_item_bytes() {
    let (xs, ys) = (f64s(), f32s());
    for h in handles() {
        let name = format!("{h:?}");
        for &a in &xs {
            for &b in &xs {
                let want = h.to_vec(&as_values(&[a, b], Value::F64)).unwrap();
                assert_eq!(h.to_vec(&[a, b]).unwrap(), want, "{name} [{a:e}, {b:e}]");
            }
        }
        for &a in &ys {
            for &b in &ys {
                let want = h.to_vec(&as_values(&[a, b], Value::F32)).unwrap();
                assert_eq!(h.to_vec(&[a, b]).unwrap(), want, "{name} [{a:e}, {b:e}]");
            }
        }
    }
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

/// Rows of `N` floats (`Vec<[f64; N]>`) go to the driver in one call
/// (`write_f64_rows`); JSON lays them out in blocks, carrying a text over
/// from one block to the next. The bytes are the item-by-item ones for
/// every width (0 included), every handle and layout, into a `Vec` and
/// through `to_writer`, for runs long enough to cross many blocks at
/// every kind of item.
fn rows_match<const N: usize>(h: &AnyHandle, name: &str, xs: &[f64], ys: &[f32]) {
    let f64_rows: Vec<[f64; N]> = (0..xs.len() + 7)
        .map(|i| std::array::from_fn(|j| xs[(i * N + j) % xs.len()]))
        .collect();
    let f32_rows: Vec<[f32; N]> = (0..ys.len() + 7)
        .map(|i| std::array::from_fn(|j| ys[(i * 3 + j) % ys.len()]))
        .collect();
    for n in [0, 1, 2, 3, f64_rows.len()] {
        let rows = &f64_rows[..n];
        let want = h
            .to_vec(&Value::Array(
                rows.iter().map(|r| as_values(r, Value::F64)).collect(),
            ))
            .unwrap();
        assert_eq!(h.to_vec(rows).unwrap(), want, "{name} [[f64; {N}]] {n}");
        let mut out = Vec::new();
        h.to_writer(rows, &mut out).unwrap();
        assert_eq!(out, want, "{name} [[f64; {N}]] {n} to_writer");

        let rows = &f32_rows[..n.min(f32_rows.len())];
        let want = h
            .to_vec(&Value::Array(
                rows.iter().map(|r| as_values(r, Value::F32)).collect(),
            ))
            .unwrap();
        assert_eq!(h.to_vec(rows).unwrap(), want, "{name} [[f32; {N}]] {n}");
        let mut out = Vec::new();
        h.to_writer(rows, &mut out).unwrap();
        assert_eq!(out, want, "{name} [[f32; {N}]] {n} to_writer");
    }
}

#[test]
fn float_rows_write_the_item_by_item_bytes() {
    let (xs, ys) = (f64s(), f32s());
    // Long texts only (17 significant digits and a sign): the blocks fill
    // up at other offsets than with the mixed samples.
    let long: Vec<f64> = (1..=300).map(|i| -1.0 / (i as f64 * 7.0 + 3.0)).collect();
    for h in handles() {
        let name = format!("{h:?}");
        rows_match::<0>(&h, &name, &xs, &ys);
        rows_match::<1>(&h, &name, &xs, &ys);
        rows_match::<2>(&h, &name, &xs, &ys);
        rows_match::<3>(&h, &name, &xs, &ys);
        rows_match::<5>(&h, &name, &xs, &ys);
        rows_match::<2>(&h, &name, &long, &ys);
        rows_match::<3>(&h, &name, &long, &ys);
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

/// A float decoded as `f64` is, whose arrays are read item by item
/// (`decode_array_filled`, the path `[f64; N]` took before the one-step
/// hook): the reference.
#[derive(Clone, Copy, Debug)]
struct General<T>(T);

macro_rules! general {
    ($t:ty) => {
        impl<'de> codec::Decode<'de> for General<$t> {
            fn decode<R: codec::Read<'de>, F: codec::DecodeFormat>(
                d: &mut codec::Decoder<'de, R, F>,
            ) -> codec::Result<Self> {
                <$t>::decode(d).map(General)
            }
            fn decode_array<R: codec::Read<'de>, F: codec::DecodeFormat, const N: usize>(
                d: &mut codec::Decoder<'de, R, F>,
            ) -> codec::Result<[Self; N]> {
                d.decode_array_filled([General(0.0); N])
            }
        }
    };
}
general!(f64);
general!(f32);

trait Bits {
    fn bits(&self) -> Vec<u64>;
}
impl<const N: usize> Bits for [f64; N] {
    fn bits(&self) -> Vec<u64> {
        self.iter().map(|x| x.to_bits()).collect()
    }
}
impl<const N: usize> Bits for [f32; N] {
    fn bits(&self) -> Vec<u64> {
        self.iter().map(|x| u64::from(x.to_bits())).collect()
    }
}
impl<const N: usize> Bits for [General<f64>; N] {
    fn bits(&self) -> Vec<u64> {
        self.iter().map(|x| x.0.to_bits()).collect()
    }
}
impl<const N: usize> Bits for [General<f32>; N] {
    fn bits(&self) -> Vec<u64> {
        self.iter().map(|x| u64::from(x.0.to_bits())).collect()
    }
}
impl<T: Bits> Bits for Vec<T> {
    fn bits(&self) -> Vec<u64> {
        self.iter().flat_map(Bits::bits).collect()
    }
}

/// `T` (floats, read in one step where the driver can) and `G` (the same
/// shape of [`General`] floats) give the same value bits, or the same
/// error, from a slice and from a byte-by-byte reader.
fn same_as_general<T, G>(h: &AnyHandle, input: &[u8])
where
    T: codec::DecodeOwned + Bits,
    G: codec::DecodeOwned + Bits,
{
    let show = |r: &codec::Result<Vec<u64>>| match r {
        Ok(b) => format!("{b:?}"),
        Err(e) => e.to_string(),
    };
    let text = String::from_utf8_lossy(input);
    let fast = h.from_slice::<T>(input).map(|v| v.bits());
    let general = h.from_slice::<G>(input).map(|v| v.bits());
    assert_eq!(show(&fast), show(&general), "{} slice {text:?}", h.name());
    let fast = h.from_reader::<T, _>(ByteByByte(input)).map(|v| v.bits());
    let general = h.from_reader::<G, _>(ByteByByte(input)).map(|v| v.bits());
    assert_eq!(show(&fast), show(&general), "{} reader {text:?}", h.name());
}

fn all_shapes(h: &AnyHandle, input: &[u8]) {
    same_as_general::<[f64; 2], [General<f64>; 2]>(h, input);
    same_as_general::<[f64; 1], [General<f64>; 1]>(h, input);
    same_as_general::<[f32; 2], [General<f32>; 2]>(h, input);
    same_as_general::<[f32; 3], [General<f32>; 3]>(h, input);
    same_as_general::<[f32; 4], [General<f32>; 4]>(h, input);
    same_as_general::<[f64; 5], [General<f64>; 5]>(h, input);
    same_as_general::<Vec<[f64; 2]>, Vec<[General<f64>; 2]>>(h, input);
}

#[test]
fn fixed_float_arrays_decode_as_item_by_item() {
    let xs = f64s();
    let ys = f32s();
    for h in handles() {
        // Arrays of every handle's own encoding, and of other shapes and
        // item types that the one-step path must leave to the general one.
        let mut inputs = vec![
            h.to_vec(&[xs[2], xs[3]]).unwrap(),
            h.to_vec(&[xs[5]]).unwrap(),
            h.to_vec(&[xs[2], xs[3], xs[4]]).unwrap(),
            h.to_vec(&[ys[2], ys[3]]).unwrap(),
            h.to_vec(&[ys[2], ys[3], ys[4], ys[5]]).unwrap(),
            h.to_vec(&[xs[2], xs[3], xs[4], xs[5], xs[6]]).unwrap(),
            h.to_vec(&(1u8, -2i64)).unwrap(),
            h.to_vec(&(1.5f64, "x")).unwrap(),
            h.to_vec(&(f32::NAN, f64::INFINITY)).unwrap(),
            h.to_vec(&Value::Nil).unwrap(),
            h.to_vec(&vec![[0.5f64, 2.0]; 3]).unwrap(),
            h.to_vec(&[[0.5f64, 2.0]]).unwrap(),
        ];
        for pair in xs.chunks_exact(2) {
            inputs.push(h.to_vec(&[pair[0], pair[1]]).unwrap());
        }
        let truncated: Vec<Vec<u8>> = inputs
            .iter()
            .flat_map(|i| (0..i.len()).map(|n| i[..n].to_vec()))
            .collect();
        inputs.extend(truncated);
        for input in &inputs {
            all_shapes(&h, input);
        }
    }
}

#[test]
fn fixed_float_arrays_keep_the_limits() {
    // Depth: the inner arrays of `[[1,2]]` are one level too deep.
    for mut h in handles() {
        *h.options_mut() = h.options().clone().max_depth(1);
        let input = AnyHandle::from_name(h.name())
            .unwrap()
            .to_vec(&vec![[1.0f64, 2.0]])
            .unwrap();
        let err = h.from_slice::<Vec<[f64; 2]>>(&input).unwrap_err();
        assert!(err.to_string().contains("max_depth"), "{h:?}: {err}");
        all_shapes(&h, &input);
        // One level is allowed.
        let pair = h.to_vec(&[1.0f64, 2.0]).unwrap();
        assert_eq!(h.from_slice::<[f64; 2]>(&pair).unwrap(), [1.0, 2.0]);
    }
    // Length: three items are more than `max_len` 2 allows.
    for mut h in handles() {
        *h.options_mut() = h.options().clone().max_len(2);
        let input = h.to_vec(&[1.0f64, 2.0, 3.0]).unwrap();
        assert!(h.from_slice::<[f64; 3]>(&input).is_err(), "{h:?}");
        same_as_general::<[f64; 3], [General<f64>; 3]>(&h, &input);
        assert!(
            h.from_slice::<[f64; 2]>(&h.to_vec(&[1.0f64, 2.0]).unwrap())
                .is_ok()
        );
    }
}

#[test]
fn json_float_arrays_with_whitespace_and_odd_numbers() {
    let h: AnyHandle = JsonHandle::new().into();
    let texts = [
        "[1,2]",
        " [ 1 , 2 ] ",
        "[\n\t1.5e3,\r\n-0 ]",
        "[-0.0,0e0]",
        "[1e400,1]",
        "[9007199254740993,1]",
        "[123456789012345678901234567890,1]",
        "[1.00000000000000000000001,2]",
        "[01,2]",
        "[1,,2]",
        "[1,2,]",
        "[1 2]",
        "[1,2",
        "[1,2]]",
        "[\"1\",2]",
        "[1,null]",
        "[1,2,3]",
        "[1]",
        "[]",
        "[-,1]",
        "[1.,1]",
        "[.5,1]",
        "[1e,1]",
        "[1E+2,1e-2]",
        "[true,1]",
        "{\"a\":1}",
    ];
    for t in texts {
        all_shapes(&h, t.as_bytes());
        all_shapes(&h, format!("[{t}, {t}]").as_bytes());
    }
    let v: [f64; 2] = h.from_slice(b" [ 1.5 ,\n -2e-3 ] ").unwrap();
    assert_eq!(v, [1.5, -2e-3]);
}

/// CBOR layouts next to the one the one-step path takes (`0x80 | n`, then
/// `fb` or `fa` items): tags before the array or an item, indefinite
/// arrays, a length in a following byte, half floats, integers, mixed
/// widths, with the default handle and one that skips unexpected tags.
#[test]
fn cbor_float_arrays_in_other_layouts() {
    let one = "fb3ff8000000000000"; // 1.5
    let two = "fbc004000000000000"; // -2.5
    let texts = [
        format!("82{one}{two}"),
        format!("c682{one}{two}"),
        format!("d9d9f782{one}{two}"),
        format!("82c6{one}{two}"),
        format!("9f{one}{two}ff"),
        format!("9f{one}ff"),
        format!("9f{one}{two}"),
        format!("9818{one}{two}"),
        format!("9802{one}{two}"),
        format!("82{one}f93e00"),
        format!("82fa3fc00000{two}"),
        "82fa3fc00000fa7fc00001".to_string(),
        "83fa3fc00000fac0200000fa00000001".to_string(),
        format!("82{one}01"),
        format!("8220{one}"),
        format!("82{one}f6"),
        format!("81{one}"),
        format!("83{one}{two}{one}"),
        format!("82{one}fb3ff80000"),
        "80".to_string(),
        "a0".to_string(),
    ];
    let hs: [AnyHandle; 2] = [
        codec::CborHandle::new().into(),
        codec::CborHandle::new().skip_unexpected_tags(true).into(),
    ];
    for h in &hs {
        for t in &texts {
            let bytes: Vec<u8> = (0..t.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&t[i..i + 2], 16).unwrap())
                .collect();
            all_shapes(h, &bytes);
        }
    }
    let h = &hs[0];
    let bytes = h.to_vec(&[1.5f64, -2.5]).unwrap();
    assert_eq!(h.from_slice::<[f64; 2]>(&bytes).unwrap(), [1.5, -2.5]);
    let bytes = h.to_vec(&[1.5f32, -2.5, 0.25]).unwrap();
    assert_eq!(bytes[0], 0x83);
    assert_eq!(h.from_slice::<[f32; 3]>(&bytes).unwrap(), [1.5, -2.5, 0.25]);
}

/// Random damage to encoded float arrays (a byte changed, dropped or
/// doubled): the one-step path and the general one still agree, value or
/// error, from a slice and from a reader.
#[test]
fn damaged_float_arrays_decode_as_item_by_item() {
    let cases: usize = std::env::var("FLOAT_ARRAY_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1500);
    let xs = f64s();
    let mut next = xorshift(0xD1B5_4A32_D192_ED03u64);
    for h in handles() {
        let seeds: Vec<Vec<u8>> = vec![
            h.to_vec(&[xs[20], xs[21]]).unwrap(),
            h.to_vec(&[[xs[22], xs[23]], [1.0, -2.5]]).unwrap(),
            h.to_vec(&[0.5f32, 1.5, -2.5]).unwrap(),
        ];
        for k in 0..cases {
            let mut input = seeds[k % seeds.len()].clone();
            damage(&mut input, &mut next);
            all_shapes(&h, &input);
        }
    }
}

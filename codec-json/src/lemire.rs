//! Correctly rounded decimal-to-binary float conversion: the Eisel-Lemire
//! algorithm (Daniel Lemire, "Number Parsing at a Gigabyte per Second",
//! 2021; Noble Mushtak and Daniel Lemire, "Fast Number Parsing Without
//! Fallback", 2023), as in the `fast_float` library and Rust's own `core`.
//!
//! Given a decimal mantissa `w` (at most 19 digits) and a power of ten `q`,
//! [`compute`] finds the nearest float to `w × 10^q` from one (rarely two)
//! 64×64→128-bit multiplications by a 128-bit truncated power of five. It
//! returns `None` in the rare cases where that approximation cannot decide
//! the rounding; the caller then falls back to the standard library.
//!
//! The table of powers of five is computed at build time by a `const fn`
//! over exact big integers (see [`POW5`]); tests check it against values
//! from an independent generator and against exact `u128` powers.

/// The float formats we convert to.
#[derive(Clone, Copy)]
pub(crate) struct Format {
    /// Explicit mantissa bits (52 for `f64`, 23 for `f32`).
    mantissa_bits: i32,
    /// The biased exponent of infinity.
    infinite_power: i32,
    /// Minus the exponent bias (`core`'s `MINIMUM_EXPONENT`): -1023 / -127.
    minimum_exponent: i32,
    /// Below this power of ten every 19-digit mantissa rounds to zero.
    smallest_power_of_ten: i32,
    /// Above this power of ten every non-zero mantissa is infinite.
    largest_power_of_ten: i32,
    /// Lowest power of ten whose products can be exactly halfway.
    min_exponent_round_to_even: i32,
    /// Highest power of ten whose products can be exactly halfway.
    max_exponent_round_to_even: i32,
}

/// IEEE 754 binary64.
pub(crate) const F64: Format = Format {
    mantissa_bits: 52,
    infinite_power: 0x7FF,
    minimum_exponent: -1023,
    smallest_power_of_ten: -342,
    largest_power_of_ten: 308,
    min_exponent_round_to_even: -4,
    max_exponent_round_to_even: 23,
};

/// IEEE 754 binary32.
pub(crate) const F32: Format = Format {
    mantissa_bits: 23,
    infinite_power: 0xFF,
    minimum_exponent: -127,
    smallest_power_of_ten: -65,
    largest_power_of_ten: 38,
    min_exponent_round_to_even: -17,
    max_exponent_round_to_even: 10,
};

/// Smallest power of five in [`POW5`].
const SMALLEST_POWER_OF_FIVE: i32 = -342;
/// Largest power of five in [`POW5`].
const LARGEST_POWER_OF_FIVE: i32 = 308;
const POW5_LEN: usize = (LARGEST_POWER_OF_FIVE - SMALLEST_POWER_OF_FIVE + 1) as usize;

/// Converts `w × 10^q` to the bits of the nearest float of `fmt` (without a
/// sign), or `None` when the rounding cannot be decided here.
#[inline]
pub(crate) fn compute(w: u64, q: i32, fmt: Format) -> Option<u64> {
    if w == 0 || q < fmt.smallest_power_of_ten {
        return Some(0);
    }
    if q > fmt.largest_power_of_ten {
        return Some((fmt.infinite_power as u64) << fmt.mantissa_bits);
    }
    let lz = w.leading_zeros();
    let w = w << lz;
    let (lo, hi) = product_approx(q, w, fmt.mantissa_bits as u32 + 3);
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        // The truncated power of five may have lost the bit that decides.
        return None;
    }
    let upperbit = (hi >> 63) as i32;
    let shift = upperbit + 64 - fmt.mantissa_bits - 3;
    let mut mantissa = hi >> shift;
    let mut power2 = power(q) + upperbit - lz as i32 - fmt.minimum_exponent;
    if power2 <= 0 {
        // A subnormal (or zero).
        if -power2 + 1 >= 64 {
            return Some(0);
        }
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        let e = (mantissa >= (1u64 << fmt.mantissa_bits)) as u64;
        return Some((mantissa & ((1u64 << fmt.mantissa_bits) - 1)) | (e << fmt.mantissa_bits));
    }
    // Exactly halfway between two floats: round to even (down here).
    if lo <= 1
        && q >= fmt.min_exponent_round_to_even
        && q <= fmt.max_exponent_round_to_even
        && mantissa & 3 == 1
        && (mantissa << shift) == hi
    {
        mantissa &= !1u64;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= (2u64 << fmt.mantissa_bits) {
        mantissa = 1u64 << fmt.mantissa_bits;
        power2 += 1;
    }
    mantissa &= !(1u64 << fmt.mantissa_bits);
    if power2 >= fmt.infinite_power {
        return Some((fmt.infinite_power as u64) << fmt.mantissa_bits);
    }
    Some(mantissa | ((power2 as u64) << fmt.mantissa_bits))
}

/// `floor(log2(10^q)) + 63`, exact for |q| < 2^16 / 152170 ≈ 700.
#[inline(always)]
fn power(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65536) >> 16) + 63
}

/// The high 128 bits of `w × 5^q` (approximately; exact enough to decide
/// `precision` bits), as `(low, high)` words.
#[inline(always)]
fn product_approx(q: i32, w: u64, precision: u32) -> (u64, u64) {
    let mask = u64::MAX >> precision;
    let index = (q - SMALLEST_POWER_OF_FIVE) as usize;
    let (hi5, lo5) = POW5.get(index).copied().unwrap_or((0, 0));
    let first = w as u128 * hi5 as u128;
    let (mut first_lo, mut first_hi) = (first as u64, (first >> 64) as u64);
    if first_hi & mask == mask {
        // Refine with the low word of the power of five.
        let second_hi = ((w as u128 * lo5 as u128) >> 64) as u64;
        first_lo = first_lo.wrapping_add(second_hi);
        if second_hi > first_lo {
            first_hi = first_hi.wrapping_add(1);
        }
    }
    (first_lo, first_hi)
}

/// 5^q for q in -342..=308, normalised to 128 bits with the top bit set, as
/// `(high, low)` words: truncated for q ≥ 0; for q < 0 the reciprocal
/// `floor(2^b / 5^-q) + 1` (then truncated), as `fast_float` defines it.
pub(crate) static POW5: [(u64, u64); POW5_LEN] = pow5_table();

/// Limbs of the build-time big integers (little-endian, 64 bits each):
/// 2^1792 is wide enough for 2^b with b ≤ 2·log2(5^342) + 130.
const LIMBS: usize = 28;
type Big = [u64; LIMBS];

const fn big_bitlen(x: &Big) -> u32 {
    let mut i = LIMBS;
    while i > 0 {
        i -= 1;
        if x[i] != 0 {
            return i as u32 * 64 + 64 - x[i].leading_zeros();
        }
    }
    0
}

/// Bits `at..at + 128` of `x` (zeros above its top).
const fn big_bits128(x: &Big, at: u32) -> u128 {
    let limb = (at / 64) as usize;
    let off = at % 64;
    const fn get(x: &Big, i: usize) -> u64 {
        if i < LIMBS { x[i] } else { 0 }
    }
    let (a, b, c) = (get(x, limb), get(x, limb + 1), get(x, limb + 2));
    if off == 0 {
        (b as u128) << 64 | a as u128
    } else {
        let lo = (a >> off) | (b << (64 - off));
        let hi = (b >> off) | (c << (64 - off));
        (hi as u128) << 64 | lo as u128
    }
}

/// `x >> n` for any `n`.
const fn big_shr(x: &Big, n: u32) -> Big {
    let mut out = [0u64; LIMBS];
    let mut i = 0;
    while i < LIMBS {
        let bits = big_bits128(x, n + i as u32 * 64);
        out[i] = bits as u64;
        i += 1;
    }
    out
}

/// The top 128 bits of a non-zero `x`, shifted so that bit 127 is set.
const fn big_top128(x: &Big) -> u128 {
    let len = big_bitlen(x);
    if len >= 128 {
        big_bits128(x, len - 128)
    } else {
        big_bits128(x, 0) << (128 - len)
    }
}

const fn pow5_table() -> [(u64, u64); POW5_LEN] {
    let mut table = [(0u64, 0u64); POW5_LEN];
    // q >= 0: 5^q exactly, then its top 128 bits.
    let mut p: Big = [0; LIMBS];
    p[0] = 1;
    let mut q = 0;
    while q <= LARGEST_POWER_OF_FIVE {
        let t = big_top128(&p);
        table[(q - SMALLEST_POWER_OF_FIVE) as usize] = ((t >> 64) as u64, t as u64);
        // p *= 5
        let mut carry: u128 = 0;
        let mut i = 0;
        while i < LIMBS {
            let v = p[i] as u128 * 5 + carry;
            p[i] = v as u64;
            carry = v >> 64;
            i += 1;
        }
        q += 1;
    }
    // q < 0: keep r = floor(2^TOP / 5^n) exactly (floor division by 5 n
    // times is floor division by 5^n), and 5^n itself for its bit length.
    const TOP: u32 = LIMBS as u32 * 64 - 1;
    let mut r: Big = [0; LIMBS];
    r[LIMBS - 1] = 1 << 63;
    let mut p5: Big = [0; LIMBS];
    p5[0] = 1;
    let mut n = 1;
    while n <= -SMALLEST_POWER_OF_FIVE {
        // r /= 5
        let mut rem: u128 = 0;
        let mut i = LIMBS;
        while i > 0 {
            i -= 1;
            let cur = rem << 64 | r[i] as u128;
            r[i] = (cur / 5) as u64;
            rem = cur % 5;
        }
        // p5 *= 5
        let mut carry: u128 = 0;
        let mut i = 0;
        while i < LIMBS {
            let v = p5[i] as u128 * 5 + carry;
            p5[i] = v as u64;
            carry = v >> 64;
            i += 1;
        }
        // z: the smallest z with 2^z >= 5^n (5^n is never a power of two).
        let z = big_bitlen(&p5);
        let b = if n <= 27 { z + 127 } else { 2 * z + 128 };
        // c = floor(2^b / 5^n) + 1, then its top 128 bits.
        let mut c = big_shr(&r, TOP - b);
        let mut i = 0;
        while i < LIMBS {
            let (v, overflow) = c[i].overflowing_add(1);
            c[i] = v;
            if !overflow {
                break;
            }
            i += 1;
        }
        let t = big_top128(&c);
        table[(-n - SMALLEST_POWER_OF_FIVE) as usize] = ((t >> 64) as u64, t as u64);
        n += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(q: i32) -> u128 {
        let (h, l) = POW5[(q - SMALLEST_POWER_OF_FIVE) as usize];
        (h as u128) << 64 | l as u128
    }

    #[test]
    fn table_matches_an_independent_generator() {
        // Values from fast_float's Python generator (arbitrary precision).
        for (q, hi, lo) in [
            (-342, 0xeef4_53d6_923b_d65a, 0x113f_aa29_06a1_3b3f),
            (-341, 0x9558_b466_1b65_65f8, 0x4ac7_ca59_a424_c507),
            (-300, 0xab70_fe17_c79a_c6ca, 0x6dbd_630a_48aa_f406),
            (-28, 0xfd87_b5f2_8300_ca0d, 0x8bca_9d6e_1888_53fc),
            (-27, 0x9e74_d1b7_91e0_7e48, 0x775e_a264_cf55_347e),
            (-1, 0xcccc_cccc_cccc_cccc, 0xcccc_cccc_cccc_cccd),
            (0, 0x8000_0000_0000_0000, 0),
            (1, 0xa000_0000_0000_0000, 0),
            (55, 0xd0cf_4b50_cfe2_0765, 0xfff4_b4e3_f741_cf6d),
            (56, 0x8281_8f12_81ed_449f, 0xbff8_f10e_7a89_21a4),
            (200, 0xa738_c6be_bb12_d16c, 0xb428_f8ac_0165_61db),
            (308, 0x8e67_9c2f_5e44_ff8f, 0x570f_09ea_a7ea_7648),
        ] {
            assert_eq!(
                POW5[(q - SMALLEST_POWER_OF_FIVE) as usize],
                (hi, lo),
                "5^{q}"
            );
        }
    }

    #[test]
    fn table_is_exact_where_u128_can_check() {
        // 5^q < 2^128 for q <= 55: the entry is 5^q shifted left.
        for q in 0..=55u32 {
            let p = 5u128.pow(q);
            assert_eq!(entry(q as i32), p << p.leading_zeros(), "5^{q}");
        }
        // 5^-q for q in 1..=27 (5^27 < 2^64): floor(2^b / 5^n) + 1 with
        // b = bitlen(5^n) + 127, checked by multiplying back.
        for n in 1..=27u32 {
            let p = 5u64.pow(n);
            let z = 64 - p.leading_zeros();
            let b = z + 127;
            let t = entry(-(n as i32));
            assert_eq!(t >> 127, 1);
            // (t - 1) * p <= 2^b < t * p, with the products as 192-bit numbers.
            let mul = |x: u128| -> (u128, u128) {
                let lo = (x as u64) as u128 * p as u128;
                let hi = (x >> 64) * p as u128 + (lo >> 64);
                (hi >> 64, (hi << 64) | (lo as u64 as u128))
            };
            let pow2 = if b >= 128 {
                (1u128 << (b - 128), 0)
            } else {
                (0, 1u128 << b)
            };
            assert!(mul(t - 1) <= pow2, "5^-{n}");
            assert!(mul(t) > pow2, "5^-{n}");
        }
        // Every entry has its top bit set.
        assert!(POW5.iter().all(|&(h, _)| h >> 63 == 1));
    }

    fn f64_of(w: u64, q: i32) -> Option<f64> {
        compute(w, q, F64).map(f64::from_bits)
    }

    #[test]
    fn hard_cases() {
        assert_eq!(f64_of(9007199254740993, 0), Some(9007199254740992.0));
        assert_eq!(f64_of(17976931348623157, 292), Some(f64::MAX));
        assert_eq!(f64_of(17976931348623159, 292), Some(f64::INFINITY));
        assert_eq!(f64_of(5, -324), Some(5e-324));
        assert_eq!(f64_of(2, -324), Some(0.0));
        assert_eq!(f64_of(3, -324), Some(5e-324));
        assert_eq!(f64_of(22250738585072014, -324), Some(f64::MIN_POSITIVE));
        assert_eq!(f64_of(0, 999), Some(0.0));
        assert_eq!(
            compute(1, 39, F32).map(|b| f32::from_bits(b as u32)),
            Some(f32::INFINITY)
        );
        assert_eq!(
            compute(1, -46, F32).map(|b| f32::from_bits(b as u32)),
            Some(0.0)
        );
        assert_eq!(
            compute(1, -45, F32).map(|b| f32::from_bits(b as u32)),
            Some(1e-45)
        );
        assert_eq!(
            compute(16777217, 0, F32).map(|b| f32::from_bits(b as u32)),
            Some(16777216.0)
        );
    }
}

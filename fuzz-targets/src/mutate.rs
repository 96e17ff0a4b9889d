//! A small deterministic PRNG and byte mutator: the stable stand-in for a
//! coverage-guided fuzzer in the replay tests.

/// xorshift64* seeded through splitmix64.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from any seed (zero included).
    pub fn new(seed: u64) -> Self {
        // splitmix64 step, so that nearby seeds diverge at once.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Bytes that mean something in at least one format: container and string
/// heads with long lengths, break codes, tags, JSON punctuation.
const INTERESTING: &[u8] = &[
    0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0xc0, 0xc1, 0xc4, 0xc6, 0xd4, 0xdc, 0xdd, 0xde, 0xdf, 0x9f,
    0xbf, 0x5f, 0x7b, 0xf9, 0xfa, 0xfb, 0x1b, 0x3b, 0x5b, 0xd8, 0xc1, 0x62, 0x73, 0x43, 0x47, 0x6f,
    0x7d, b'[', b']', b'{', b'}', b'"', b',', b':', b'\\', b'-', b'e', b'.', b'0', b'9',
];

/// Multi-byte values that break length fields and integer parsing.
const INTERESTING_WIDE: &[&[u8]] = &[
    &[0xff, 0xff, 0xff, 0xff],
    &[0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    &[0x80, 0, 0, 0, 0, 0, 0, 0],
    &[0, 0, 0, 0],
    &[0x40, 0, 0, 0],
    b"\\u0000",
    b"\\ud800",
    b"1e999",
    b"-0",
    b"[[[[[[[[",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
];

/// Applies 1 to 4 random mutations to `input`; `other` is a second seed for
/// splicing. The result is never longer than `max_len`.
pub fn mutate(rng: &mut Rng, input: &[u8], other: &[u8], max_len: usize) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        mutate_once(rng, &mut out, other);
    }
    out.truncate(max_len);
    out
}

fn mutate_once(rng: &mut Rng, out: &mut Vec<u8>, other: &[u8]) {
    let len = out.len();
    match rng.below(11) {
        0 if len > 0 => {
            let i = rng.below(len);
            out[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            out[i] = *rng.pick(INTERESTING);
        }
        2 => {
            let i = rng.below(len + 1);
            out.insert(i, rng.next_u64() as u8);
        }
        3 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(8));
            out.drain(i..i + n);
        }
        4 if len > 0 => {
            // Duplicate a chunk (repeats containers, grows nesting).
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(32));
            let chunk = out[i..i + n].to_vec();
            let at = rng.below(len + 1);
            out.splice(at..at, chunk);
        }
        5 if len > 0 => {
            out.truncate(rng.below(len));
        }
        6 if !other.is_empty() => {
            // Splice: our head, the other's tail.
            let i = rng.below(len + 1);
            let j = rng.below(other.len());
            out.truncate(i);
            out.extend_from_slice(&other[j..]);
        }
        7 if len > 0 => {
            let wide = *rng.pick(INTERESTING_WIDE);
            let i = rng.below(len);
            let end = (i + wide.len()).min(len);
            out[i..end].copy_from_slice(&wide[..end - i]);
        }
        8 => {
            let wide = *rng.pick(INTERESTING_WIDE);
            let i = rng.below(len + 1);
            out.splice(i..i, wide.iter().copied());
        }
        9 if len > 0 => {
            let i = rng.below(len);
            out[i] = out[i].wrapping_add(rng.below(7) as u8).wrapping_sub(3);
        }
        _ => {
            // Wrap in deep nesting: a run of one byte repeated.
            let b = *rng.pick(&[0x91u8, 0x81, 0x9f, 0x61, b'[', 0x60 | 0x05, 0x77]);
            let n = 1 + rng.below(300);
            let i = rng.below(len + 1);
            out.splice(i..i, std::iter::repeat_n(b, n));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_spread() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        let mut counts = [0usize; 4];
        for _ in 0..4000 {
            counts[a.below(4)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
    }

    #[test]
    fn mutations_stay_bounded() {
        let mut rng = Rng::new(1);
        for _ in 0..1000 {
            let m = mutate(&mut rng, b"[1,2,3]", b"\x93\x01\x02\x03", 64);
            assert!(m.len() <= 64);
        }
    }
}

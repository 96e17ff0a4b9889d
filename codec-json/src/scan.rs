//! The byte scans the JSON parser and writer spend most of their time in:
//! the end of a run of plain string content, the end of a run of
//! whitespace, and (writing) the next byte of a string that may need escaping.
//!
//! On x86_64 they take 16 bytes per step with SSE2, which every x86_64 CPU
//! has (the module is compiled only when the target enables it, so no
//! run-time detection is needed); elsewhere, eight bytes per step in a
//! `u64` (SWAR; the escape scan's is in `encode.rs`). All are exact: the
//! index returned is that of the first byte that matches, as a byte-by-byte
//! loop would find it (the tests below, and `encode.rs`'s for the escape
//! scan, check each against such a loop).

/// Whitespace RFC 8259 allows between tokens.
#[inline(always)]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// Bytes that end a run of plain string content: `"`, `\` and controls.
static STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Whether `b` ends a run of plain string content.
#[inline(always)]
pub(crate) fn is_string_stop(b: u8) -> bool {
    STRING_STOP[b as usize]
}

/// Index of the first `"`, `\` or control byte (below 0x20) in `buf`.
#[inline(always)]
pub(crate) fn find_string_stop(buf: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return sse2::find_string_stop(buf);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return swar::find_string_stop(buf);
}

/// [`find_string_stop`], and whether every byte before the stop is ASCII
/// (so that the string needs no UTF-8 check): the vector scan has each
/// chunk's high bits at hand for one more instruction.
#[inline(always)]
pub(crate) fn find_string_stop_ascii(buf: &[u8]) -> Option<(usize, bool)> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return sse2::find_string_stop_ascii(buf);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return swar::find_string_stop(buf).map(|i| (i, buf[..i].is_ascii()));
}

/// Index of the first byte of `buf` that is not JSON whitespace.
#[inline(always)]
pub(crate) fn find_non_ws(buf: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return sse2::find_non_ws(buf);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return swar::find_non_ws(buf);
}

/// Index of the first byte of `buf` that may need escaping in a JSON
/// string being written (see `escapes`), 16 bytes per step; `under_8`
/// scans a `buf` under 8 bytes. Strings are often short, so the scan of
/// one under 16 bytes is inlined too.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
#[allow(clippy::redundant_closure)] // see the comment inside
pub(crate) fn find_escape<const HTML: bool>(
    buf: &[u8],
    under_8: impl Fn(&[u8]) -> Option<usize>,
) -> Option<usize> {
    // Closures, not the functions themselves: a function item passed as
    // `impl Fn` is called through a `Fn::call` shim, which LLVM may leave
    // out of line whatever the function's own `inline` says.
    sse2::find(
        buf,
        |x| sse2::escapes::<HTML>(x),
        |b| sse2::find_under_16(b, |x| sse2::escapes::<HTML>(x), &under_8),
    )
}

/// Bit `i` set where byte `i` of `word` (little-endian) may need escaping
/// in a string being written, `<`, `>` and `&` included (see `escapes`):
/// one vector check of a short string held in a register.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(crate) fn escape_mask(word: u128) -> u32 {
    sse2::escapes::<true>(sse2::from_word(word))
}

/// Eight bytes per step in a `u64`: the portable scans (and the tail of
/// the SSE2 ones when fewer than 16 bytes are left).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
mod swar {
    use super::{is_string_stop, is_ws};

    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;

    /// High bit of each byte of `x` set where that byte is zero (exact: no
    /// false positives, unlike the shorter `(x - ONES) & !x` test).
    #[inline(always)]
    fn zero_bytes(x: u64) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
    }

    #[inline(always)]
    pub(super) fn find_string_stop(buf: &[u8]) -> Option<usize> {
        let (words, _) = buf.as_chunks::<8>();
        for (k, w) in words.iter().enumerate() {
            let x = u64::from_le_bytes(*w);
            let q = x ^ (ONES * b'"' as u64);
            let s = x ^ (ONES * b'\\' as u64);
            let m = (q.wrapping_sub(ONES) & !q)
                | (s.wrapping_sub(ONES) & !s)
                | (x.wrapping_sub(ONES * 0x20) & !x);
            let m = m & HIGHS;
            if m != 0 {
                // The lowest flagged byte is exact (false positives only sit above a true one).
                return Some(k * 8 + (m.trailing_zeros() / 8) as usize);
            }
        }
        let done = words.len() * 8;
        buf[done..]
            .iter()
            .position(|&b| is_string_stop(b))
            .map(|p| done + p)
    }

    #[inline(always)]
    pub(super) fn find_non_ws(buf: &[u8]) -> Option<usize> {
        let (words, _) = buf.as_chunks::<8>();
        for (k, w) in words.iter().enumerate() {
            let x = u64::from_le_bytes(*w);
            let ws = zero_bytes(x ^ (ONES * b' ' as u64))
                | zero_bytes(x ^ (ONES * b'\n' as u64))
                | zero_bytes(x ^ (ONES * b'\r' as u64))
                | zero_bytes(x ^ (ONES * b'\t' as u64));
            let other = !ws & HIGHS;
            if other != 0 {
                return Some(k * 8 + (other.trailing_zeros() / 8) as usize);
            }
        }
        let done = words.len() * 8;
        buf[done..]
            .iter()
            .position(|&b| !is_ws(b))
            .map(|p| done + p)
    }
}

/// Sixteen bytes per step with SSE2 (part of the x86_64 baseline).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set_epi64x, _mm_set1_epi8,
    };

    /// The 16 bytes of little-endian `word` in a vector register.
    #[inline(always)]
    pub(super) fn from_word(word: u128) -> __m128i {
        // SAFETY: SSE2 is enabled for this target; this computes on registers.
        unsafe { _mm_set_epi64x((word >> 64) as u64 as i64, word as u64 as i64) }
    }

    /// The 16 bytes of `c` in a vector register.
    #[inline(always)]
    fn load(c: &[u8; 16]) -> __m128i {
        // SAFETY: SSE2 is enabled for this target (the module's `cfg`), and
        // `c` is 16 readable bytes; `loadu` has no alignment requirement.
        unsafe { _mm_loadu_si128(c.as_ptr().cast()) }
    }

    /// Bit `i` set where byte `i` of `x` is `"`, `\` or below 0x20.
    #[inline(always)]
    fn string_stops(x: __m128i) -> u32 {
        // SAFETY: SSE2 is enabled for this target (the module's `cfg`); the
        // intrinsics only compute on registers.
        unsafe {
            let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
            // Unsigned x <= 0x1f exactly when max(x, 0x1f) == 0x1f.
            let limit = _mm_set1_epi8(0x1f);
            let control = _mm_cmpeq_epi8(_mm_max_epu8(x, limit), limit);
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32
        }
    }

    /// Bit `i` set where byte `i` of `x` is not JSON whitespace.
    #[inline(always)]
    fn non_ws(x: __m128i) -> u32 {
        // SAFETY: as in `string_stops`.
        let ws = unsafe {
            let sp = _mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8));
            let nl = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\n' as i8));
            let cr = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\r' as i8));
            let tab = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\t' as i8));
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(sp, nl), _mm_or_si128(cr, tab))) as u32
        };
        !ws & 0xffff
    }

    /// Bit `i` set where byte `i` of `x` may need escaping in a string
    /// being written: `"`, `\`, a control, `0xE2` (U+2028 and U+2029
    /// start with it) and, with `HTML`, `<`, `>` and `&`.
    #[inline(always)]
    pub(super) fn escapes<const HTML: bool>(x: __m128i) -> u32 {
        let eq = |b: u8| {
            // SAFETY: as in `string_stops`.
            unsafe { _mm_cmpeq_epi8(x, _mm_set1_epi8(b as i8)) }
        };
        // SAFETY: as in `string_stops`.
        unsafe {
            let limit = _mm_set1_epi8(0x1f);
            let control = _mm_cmpeq_epi8(_mm_max_epu8(x, limit), limit);
            let mut m = _mm_or_si128(
                _mm_or_si128(eq(b'"'), eq(b'\\')),
                _mm_or_si128(eq(0xE2), control),
            );
            if HTML {
                m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(eq(b'<'), eq(b'>')), eq(b'&')));
            }
            _mm_movemask_epi8(m) as u32
        }
    }

    /// The first set bit of `mask` over `buf`, 16 bytes at a time; a last
    /// partial chunk is read as the final 16 bytes of `buf` (overlapping
    /// bytes already seen, whose bits are dropped). A `buf` under 16 bytes
    /// goes to `under_16`.
    #[inline(always)]
    pub(super) fn find(
        buf: &[u8],
        mask: impl Fn(__m128i) -> u32,
        under_16: impl Fn(&[u8]) -> Option<usize>,
    ) -> Option<usize> {
        let (chunks, rest) = buf.as_chunks::<16>();
        for (k, c) in chunks.iter().enumerate() {
            let m = mask(load(c));
            if m != 0 {
                return Some(k * 16 + m.trailing_zeros() as usize);
            }
        }
        if rest.is_empty() {
            return None;
        }
        let Some(last) = buf.last_chunk::<16>() else {
            return under_16(buf);
        };
        // Bytes before `buf.len() - rest.len()` were checked above.
        let m = mask(load(last)) >> (16 - rest.len());
        (m != 0).then(|| buf.len() - rest.len() + m.trailing_zeros() as usize)
    }

    /// [`find`] for `buf` under 16 bytes: one vector gathered from two
    /// overlapping 8-byte loads, or `under_8` below 8 bytes.
    #[inline(always)]
    pub(super) fn find_under_16(
        buf: &[u8],
        mask: impl Fn(__m128i) -> u32,
        under_8: impl Fn(&[u8]) -> Option<usize>,
    ) -> Option<usize> {
        debug_assert!(buf.len() < 16);
        let (Some(head), Some(tail)) = (buf.first_chunk::<8>(), buf.last_chunk::<8>()) else {
            return under_8(buf);
        };
        // Bytes 0..8 in the low half, bytes n-8..n in the high half (they
        // overlap when n < 16). The first bit set is exact: if it is in
        // the high half, no byte of the low half matched, and the low half
        // covers the overlap.
        // SAFETY: SSE2 is enabled for this target; this computes on registers.
        let x = unsafe { _mm_set_epi64x(i64::from_le_bytes(*tail), i64::from_le_bytes(*head)) };
        let m = mask(x);
        let p = m.trailing_zeros() as usize;
        (m != 0).then(|| if p < 8 { p } else { buf.len() + p - 16 })
    }

    // The parser's scans run over the rest of its input, which is rarely
    // under 16 bytes: their short case is the SWAR scan. (Routing it
    // through `find_under_16`, even out of line, made LLVM lay out the
    // derived decoders differently: 1.4 % more instructions on twitter's
    // and citm_catalog's typed decode.)

    #[inline(always)]
    pub(super) fn find_string_stop(buf: &[u8]) -> Option<usize> {
        find(buf, string_stops, super::swar::find_string_stop)
    }

    #[inline(always)]
    pub(super) fn find_non_ws(buf: &[u8]) -> Option<usize> {
        find(buf, non_ws, super::swar::find_non_ws)
    }

    /// Bit `i` set where byte `i` of `x` is not ASCII (its high bit).
    #[inline(always)]
    fn high_bits(x: __m128i) -> u32 {
        // SAFETY: as in `string_stops`.
        unsafe { _mm_movemask_epi8(x) as u32 }
    }

    /// [`find_string_stop`], and whether the bytes before the stop are all
    /// ASCII: the high bits of the chunks before the stop's, and of the
    /// stop's chunk below it.
    #[inline(always)]
    pub(super) fn find_string_stop_ascii(buf: &[u8]) -> Option<(usize, bool)> {
        let (chunks, rest) = buf.as_chunks::<16>();
        let mut high = 0;
        for (k, c) in chunks.iter().enumerate() {
            let x = load(c);
            let m = string_stops(x);
            if m != 0 {
                let t = m.trailing_zeros();
                let below = high_bits(x) & ((1 << t) - 1);
                return Some((k * 16 + t as usize, high | below == 0));
            }
            high |= high_bits(x);
        }
        if rest.is_empty() {
            return None;
        }
        let Some(last) = buf.last_chunk::<16>() else {
            let i = super::swar::find_string_stop(buf)?;
            return Some((i, buf[..i].is_ascii()));
        };
        // As in `find`: the bytes shifted out were checked above.
        let x = load(last);
        let shift = 16 - rest.len();
        let m = string_stops(x) >> shift;
        if m == 0 {
            return None;
        }
        let t = m.trailing_zeros();
        let below = (high_bits(x) >> shift) & ((1 << t) - 1);
        Some((buf.len() - rest.len() + t as usize, high | below == 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte-by-byte references.
    fn stop_ref(buf: &[u8]) -> Option<usize> {
        buf.iter().position(|&b| is_string_stop(b))
    }

    fn non_ws_ref(buf: &[u8]) -> Option<usize> {
        buf.iter().position(|&b| !is_ws(b))
    }

    /// Every implementation compiled for this target, against the reference.
    fn check(buf: &[u8]) {
        let stop = stop_ref(buf);
        let non_ws = non_ws_ref(buf);
        assert_eq!(swar::find_string_stop(buf), stop, "swar stop {buf:?}");
        assert_eq!(swar::find_non_ws(buf), non_ws, "swar ws {buf:?}");
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            assert_eq!(sse2::find_string_stop(buf), stop, "sse2 stop {buf:?}");
            assert_eq!(sse2::find_non_ws(buf), non_ws, "sse2 ws {buf:?}");
        }
        assert_eq!(find_string_stop(buf), stop);
        assert_eq!(find_non_ws(buf), non_ws);
        let ascii = stop.map(|i| (i, buf[..i].is_ascii()));
        assert_eq!(find_string_stop_ascii(buf), ascii, "ascii {buf:?}");
    }

    #[test]
    fn whitespace_finder() {
        assert_eq!(find_non_ws(b""), None);
        assert_eq!(find_non_ws(b" \n\r\t"), None);
        assert_eq!(find_non_ws(b"          \n\r\t      "), None);
        for len in 0..70 {
            let ws: Vec<u8> = (0..len).map(|k| b" \n\r\t"[k % 4]).collect();
            check(&ws);
            for i in 0..len {
                // Bytes next to the whitespace values and with their high bit flipped.
                for c in [
                    b'"', b'{', b'x', 0x00, 0x08, 0x0b, 0x0c, 0x0e, 0x1f, 0x21, 0xa0, 0x89, 0x8a,
                    0x8d, 0xff, b'!',
                ] {
                    let mut v = ws.clone();
                    v[i] = c;
                    if i + 3 < v.len() {
                        v[i + 3] = b'q';
                    }
                    check(&v);
                    assert_eq!(find_non_ws(&v), Some(i), "{i} {c:#x}");
                }
            }
        }
    }

    #[test]
    fn string_stop_finder() {
        assert_eq!(find_string_stop(b"abc"), None);
        assert_eq!(find_string_stop(b"abcdefghijk\"l"), Some(11));
        assert_eq!(find_string_stop(b"abcdefgh\\"), Some(8));
        assert_eq!(find_string_stop(b"\x01"), Some(0));
        assert_eq!(find_string_stop("ééééé\"".as_bytes()), Some(10));
        assert_eq!(find_string_stop(b"\x7f\x80\xff\"abcdefg"), Some(3));
        for len in 0..70 {
            let plain = vec![b'x'; len];
            check(&plain);
            for i in 0..len {
                // Every byte value at every position, after plain text
                // (with a multi-byte character before it when there is room).
                for c in 0..=255u8 {
                    let mut v = plain.clone();
                    v[i] = c;
                    if i > 3 {
                        v[i - 2] = 0xE2;
                    }
                    check(&v);
                }
            }
        }
    }

    /// The ASCII flag of the stop scan: one non-ASCII byte anywhere before,
    /// at or after a stop, in the stop's chunk or another.
    #[test]
    fn string_stop_ascii_flag() {
        for len in 1..70 {
            for stop in 0..len {
                for high in 0..len {
                    let mut v = vec![b'x'; len];
                    v[high] = 0x80 | (high as u8);
                    v[stop] = b'"';
                    check(&v);
                    let ascii = high >= stop;
                    assert_eq!(find_string_stop_ascii(&v), Some((stop, ascii)));
                }
            }
        }
    }

    /// Random bytes drawn mostly from the values that matter to either scan.
    #[test]
    fn scans_agree_on_random_input() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        const PICK: &[u8] = b" \n\r\t\"\\\x00\x1f\x20\x7f\x80\xffab";
        for _ in 0..20_000 {
            let len = (next() % 80) as usize;
            let dense = next() % 4 == 0;
            let v: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next();
                    if dense || r % 8 == 0 {
                        PICK[(r >> 8) as usize % PICK.len()]
                    } else {
                        b" x"[(r >> 8) as usize % 2]
                    }
                })
                .collect();
            check(&v);
            // Every suffix too: the scans start anywhere in a buffer.
            for s in 1..v.len().min(20) {
                check(&v[s..]);
            }
        }
    }
}

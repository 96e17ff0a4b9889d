//! [`JsonEncoder`]: the encoding half of the JSON format driver.

use crate::number::{F32_INT_LIMIT, F64_INT_LIMIT, f32_magnitude, fixed_as_is, format_float};
use crate::{IntegerAsString, base64, digits};
use codec_core::{
    EncodeFormat, Error, FieldName, Result, SignedInt, Time, UnsignedInt, Write, copy_short,
    write_array_each, write_rows_each,
};

/// What a byte of a string needs on output.
const PLAIN: u8 = 0;
/// Escaped as `\u00XX`.
const CTRL: u8 = 1;
/// Escaped with a short form (`\"`, `\\`, `\n`, ...): the table holds the letter.
/// `<`, `>`, `&`: `\u003c`, `\u003e`, `\u0026` unless HTML characters are kept.
const HTML: u8 = 2;
/// First byte of U+2028 / U+2029 (`E2 80 A8/A9`): look closer.
const E2: u8 = 3;

const fn escape_table(html: bool) -> [u8; 256] {
    let mut t = [PLAIN; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = CTRL;
        i += 1;
    }
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'\n' as usize] = b'n';
    t[b'\t' as usize] = b't';
    t[b'\r' as usize] = b'r';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    if html {
        t[b'<' as usize] = HTML;
        t[b'>' as usize] = HTML;
        t[b'&' as usize] = HTML;
    }
    t[0xE2] = E2;
    t
}

static ESCAPE_HTML: [u8; 256] = escape_table(true);
static ESCAPE_KEEP_HTML: [u8; 256] = escape_table(false);

const HEX: &[u8; 16] = b"0123456789abcdef";
const SPACES: &[u8; 64] = b"                                                                ";
const TABS: &[u8; 64] = b"\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

/// The encoding half of the JSON driver: writes RFC 8259 text as ugorji does.
///
/// Built by [`JsonHandle`](crate::JsonHandle); holds the output options and
/// the container state used for punctuation and indentation.
#[derive(Debug, Clone)]
pub struct JsonEncoder {
    indent: i8,
    int_as_str: IntegerAsString,
    html: bool,
    /// Byte written after each top-level value (0 for none).
    trailer: u8,
    /// Nesting level (for indentation and top-level detection).
    level: u32,
    /// `write_map_key` was called and the key is not written yet.
    key: bool,
    /// `map_key_as_string`: keys sort (canonical) by their text in key
    /// position, quoted; else by their text as values, as ugorji's do.
    key_as_string: bool,
    /// A side encoder of a map key being sorted: a container there is the
    /// error it is in key position (and is not sorted itself).
    sorting: bool,
}

impl JsonEncoder {
    pub(crate) fn new(h: &crate::JsonHandle) -> Self {
        JsonEncoder {
            indent: h.indent,
            int_as_str: h.integer_as_string,
            html: !h.html_chars_as_is,
            trailer: if h.trailing_newline {
                b'\n'
            } else if h.term_whitespace {
                b' '
            } else {
                0
            },
            level: 0,
            key: false,
            key_as_string: h.map_key_as_string,
            sorting: false,
        }
    }

    /// A bool in key position: quoted.
    #[cold]
    #[inline(never)]
    fn write_bool_key<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()> {
        let text: &[u8] = if v { b"true" } else { b"false" };
        self.write_number(w, text, false)
    }

    /// Writes the trailer after a complete top-level value.
    #[inline(always)]
    fn end_value<W: Write>(&mut self, w: &mut W) -> Result<()> {
        if self.trailer != 0 && self.level == 0 {
            w.write_byte(self.trailer)?;
        }
        Ok(())
    }

    /// Writes `text` as a JSON number, or quoted when in key position or asked.
    #[inline(always)]
    fn write_number<W: Write>(&mut self, w: &mut W, text: &[u8], quote: bool) -> Result<()> {
        if quote || self.key {
            self.key = false;
            let mut buf = [0u8; 48];
            let n = text.len().min(46);
            buf[0] = b'"';
            buf[1..1 + n].copy_from_slice(&text[..n]);
            buf[1 + n] = b'"';
            w.write_all(&buf[..n + 2])?;
        } else {
            w.write_short(text)?;
        }
        self.end_value(w)
    }

    #[inline]
    fn quote_int(&self, magnitude_over_2_53: bool) -> bool {
        match self.int_as_str {
            IntegerAsString::Never => false,
            IntegerAsString::Large => magnitude_over_2_53,
            IntegerAsString::Always => true,
        }
    }

    /// A newline and the indentation of the current level. Out of line:
    /// indented output is the rare case, and inlined into each item's
    /// separator it made every one of them a large function with a full
    /// prologue.
    #[inline(never)]
    fn write_indent<W: Write>(&self, w: &mut W) -> Result<()> {
        let (unit, per) = if self.indent < 0 {
            (TABS, self.indent.unsigned_abs() as usize)
        } else {
            (SPACES, self.indent as usize)
        };
        w.write_byte(b'\n')?;
        let mut n = per * self.level as usize;
        while n > 0 {
            let k = n.min(unit.len());
            w.write_all(&unit[..k])?;
            n -= k;
        }
        Ok(())
    }

    /// [`EncodeFormat::write_field`] with indentation or a name that needs
    /// escaping: key, name and colon one at a time (out of line, so that
    /// the plain case stays small enough to inline).
    #[inline(never)]
    fn write_field_general<W: Write>(
        &mut self,
        w: &mut W,
        index: usize,
        name: FieldName,
    ) -> Result<()> {
        self.write_map_key(w, index)?;
        self.write_field_name(w, name.as_str())?;
        self.write_map_value(w)
    }

    #[cold]
    fn bad_key(what: &str) -> Error {
        Error::unsupported(format!(
            "a JSON map key must be a string, number or bool, not {what}"
        ))
    }

    /// Writes a finite float given its shortest round-trip text: straight
    /// into the output in the common fixed-notation case, re-laid out otherwise.
    #[inline(always)]
    fn write_float<W: Write>(&mut self, w: &mut W, s: &str, abs: f64, limit: f64) -> Result<()> {
        if !self.key {
            float_text(w, s, abs, limit)?;
            return self.end_value(w);
        }
        let mut out = [0u8; 48];
        let n = format_float(s, abs, limit, &mut out);
        self.write_number(w, &out[..n], false)
    }

    /// An array of floats in one loop: `[`, the items as `write_f64` (or
    /// `write_f32`) writes them inside an array, `,` between, `]`. Without
    /// indentation only; as a map key it is the error `write_array_start` gives.
    ///
    /// Each item's text is copied out of the formatter's buffer only after
    /// the next item has been formatted into a second buffer. Read back at
    /// once, the text would still sit in the store buffer as the
    /// formatter's narrow writes, which a copy's wide loads cannot be
    /// forwarded from: the load would stall until they reach the cache
    /// (12-15 % of the samples of encoding `canada.json` sat on it).
    #[inline(always)]
    fn write_float_array<W: Write, T: Copy>(
        &mut self,
        w: &mut W,
        items: &[T],
        piece: for<'b> fn(&'b mut zmij::Buffer, T) -> FloatText<'b>,
    ) -> Result<()> {
        if self.key {
            return Err(Self::bad_key("an array"));
        }
        if let &[x, y] = items {
            // A pair (a point's coordinates) is laid out in one block: the
            // brackets, the comma and a 48-byte slot per text.
            let (mut a, mut b) = (zmij::Buffer::new(), zmij::Buffer::new());
            let (x, y) = (piece(&mut a, x), piece(&mut b, y));
            w.write_fill::<112>(
                #[inline(always)]
                |block| {
                    let n = put_after(block, 0, b'[', x);
                    let n = put_after(block, n, b',', y);
                    block[n] = b']';
                    n + 1
                },
            )?;
            return self.end_value(w);
        }
        w.reserve(items.len() * 24 + 2);
        w.write_byte(b'[')?;
        if let Some((&first, rest)) = items.split_first() {
            let (mut a, mut b) = (zmij::Buffer::new(), zmij::Buffer::new());
            let mut pending = piece(&mut a, first);
            let mut pairs = rest.chunks_exact(2);
            for pair in &mut pairs {
                let next = piece(&mut b, pair[0]);
                pending.write(w)?;
                w.write_byte(b',')?;
                let after = piece(&mut a, pair[1]);
                next.write(w)?;
                w.write_byte(b',')?;
                pending = after;
            }
            if let [v] = pairs.remainder() {
                let next = piece(&mut b, *v);
                pending.write(w)?;
                w.write_byte(b',')?;
                pending = next;
            }
            pending.write(w)?;
        }
        w.write_byte(b']')?;
        self.end_value(w)
    }

    /// An array of rows of floats (`Vec<[f64; 2]>`, a ring of points) in
    /// one loop, without indentation: the bytes of `write_float_array` per
    /// row, with `[`, `,` and `]` around them.
    ///
    /// The rows are one run of floats: each text is copied out only once
    /// the next one, in the same row or the next, has been formatted into
    /// the other buffer (see `write_float_array`). The texts are laid out in
    /// blocks of the sink's own buffer ([`Write::write_fill`]), so that it
    /// checks its capacity once per block, not once per float. A text
    /// formatted but not yet laid out when a block fills up is carried over
    /// to the next in a buffer of its own.
    #[inline(always)]
    fn write_float_rows<W: Write, T: Copy, P, const N: usize>(
        &mut self,
        w: &mut W,
        rows: &[[T; N]],
        piece: P,
        each: fn(&mut Self, &mut W, &[T]) -> Result<()>,
    ) -> Result<()>
    where
        P: for<'b> Fn(&'b mut zmij::Buffer, T) -> FloatText<'b>,
    {
        let flat = rows.as_flattened();
        let Some(&first) = flat.first() else {
            // No rows, or empty ones: `[]`, `[[],[]]`.
            return write_rows_each(self, w, rows, each);
        };
        if self.indent != 0 {
            return write_rows_each(self, w, rows, each);
        }
        if self.key {
            return Err(Self::bad_key("an array"));
        }
        w.write_byte(b'[')?;
        // Item `k`'s text, laid out by the next block.
        let mut carry = [0u8; 48];
        let mut carry_len = piece(&mut zmij::Buffer::new(), first).put(&mut carry);
        let mut k = 0;
        while k < flat.len() {
            w.write_fill::<ROWS_BLOCK>(
                #[inline(always)]
                |block| {
                    let held = carry;
                    let mut pending = FloatText::Ready(&held[..carry_len.min(48)]);
                    let (mut a, mut b) = (zmij::Buffer::new(), zmij::Buffer::new());
                    let mut at = 0;
                    // Unrolled by two, so that each buffer has its own borrow.
                    loop {
                        if at > ROWS_BLOCK - ROW_ITEM_ROOM {
                            carry_len = pending.put(&mut carry);
                            return at;
                        }
                        let next = flat.get(k + 1).map(|&v| piece(&mut b, v));
                        at = put_row_item::<N>(block, at, k, flat.len(), pending);
                        k += 1;
                        let Some(next) = next else { return at };
                        if at > ROWS_BLOCK - ROW_ITEM_ROOM {
                            carry_len = next.put(&mut carry);
                            return at;
                        }
                        let after = flat.get(k + 1).map(|&v| piece(&mut a, v));
                        at = put_row_item::<N>(block, at, k, flat.len(), next);
                        k += 1;
                        let Some(after) = after else { return at };
                        pending = after;
                    }
                },
            )?;
        }
        w.write_byte(b']')?;
        self.end_value(w)
    }

    /// An array of integers in one loop, without indentation: `[`, the
    /// items' texts with `,` between them, `]`, laid out in blocks of the
    /// sink's own buffer ([`Write::write_fill`]) by `put` (the digit
    /// writers, into an [`IntBlock`]). The key, indentation and quoting
    /// checks of the general path are made once for the array: with
    /// `IntegerAsString::Large`, only an array with no item beyond 2^53
    /// (`big`) takes this loop.
    #[inline(always)]
    fn write_int_array<W: Write, T: Copy>(
        &mut self,
        w: &mut W,
        items: &[T],
        big: impl Fn(T) -> bool,
        put: impl Fn(&mut IntBlock<'_>, T) -> Result<()>,
        each: fn(&mut Self, &mut W, T) -> Result<()>,
    ) -> Result<()> {
        let plain = match self.int_as_str {
            IntegerAsString::Never => true,
            IntegerAsString::Large => !items.iter().any(|&v| big(v)),
            IntegerAsString::Always => false,
        };
        if !plain || self.indent != 0 || self.key || items.is_empty() {
            return write_array_each(self, w, items, each);
        }
        w.write_byte(b'[')?;
        let mut k = 0;
        let mut res = Ok(());
        while k < items.len() {
            w.write_fill::<INT_BLOCK>(
                #[inline(always)]
                |buf| {
                    let mut block = IntBlock { buf, at: 0 };
                    while let Some(&v) = items.get(k) {
                        if block.at > INT_BLOCK - INT_ITEM_ROOM {
                            break;
                        }
                        let put = if k > 0 {
                            block.write_byte(b',').and_then(|()| put(&mut block, v))
                        } else {
                            put(&mut block, v)
                        };
                        if let Err(e) = put {
                            // Not reached: every item has its room.
                            res = Err(e);
                            k = items.len();
                            break;
                        }
                        k += 1;
                    }
                    block.at
                },
            )?;
        }
        res?;
        w.write_byte(b']')?;
        self.end_value(w)
    }

    /// NaN and infinities are written as null (ugorji; encoding/json errors).
    #[cold]
    fn write_non_finite<W: Write>(&mut self, w: &mut W) -> Result<()> {
        if self.key {
            return Err(Self::bad_key("a NaN or infinite float"));
        }
        self.write_nil(w)
    }
}

/// A float's text, not in key position, as ugorji lays it out: formatted,
/// not yet written.
#[derive(Clone, Copy)]
enum FloatText<'b> {
    /// Written as it stands: `null` (NaN and infinities), or a shortest
    /// form that is already ugorji's text (the common fixed-notation case).
    Ready(&'b [u8]),
    /// A shortest form to re-lay out (exponent form, zero, or outside the
    /// fixed-notation range), with the value's magnitude and integral limit.
    Relayout(&'b str, f64, f64),
}

impl<'b> FloatText<'b> {
    /// The text of finite `shortest`, the shortest round-trip form of a
    /// value of magnitude `abs` (see [`format_float`]).
    #[inline(always)]
    fn of(shortest: &'b str, abs: f64, limit: f64) -> Self {
        match fixed_as_is(shortest.as_bytes(), abs, limit) {
            Some(n) => FloatText::Ready(&shortest.as_bytes()[..n]),
            None => FloatText::Relayout(shortest, abs, limit),
        }
    }

    /// Lays the text out at the start of `slot`, returning its length.
    #[inline(always)]
    fn put(self, slot: &mut [u8; 48]) -> usize {
        match self {
            FloatText::Ready(s) => copy_short(slot, s),
            FloatText::Relayout(s, abs, limit) => format_float(s, abs, limit, slot),
        }
    }

    #[inline(always)]
    fn write<W: Write>(self, w: &mut W) -> Result<()> {
        match self {
            FloatText::Ready(s) => w.write_short(s),
            FloatText::Relayout(s, abs, limit) => {
                let mut out = [0u8; 48];
                let n = format_float(s, abs, limit, &mut out);
                w.write_short(&out[..n])
            }
        }
    }
}

/// Writes `sep` at `block[at]` and `text` after it; returns where they end
/// (at most `at + 49`: a text takes at most 32 bytes of its 48-byte slot,
/// and `at` is at most 49, so that the slot is always there).
#[inline(always)]
fn put_after(block: &mut [u8; 112], at: usize, sep: u8, text: FloatText<'_>) -> usize {
    let (head, slot) = block.split_at_mut(at + 1);
    head[at] = sep;
    match slot.first_chunk_mut::<48>() {
        Some(slot) => at + 1 + text.put(slot),
        None => at + 1,
    }
}

/// The block `write_int_array` lays texts out in.
const INT_BLOCK: usize = 1024;
/// How far past its start an item's stores reach at most in an
/// [`IntBlock`]: the `,`, then the text in words of 16 bytes. The farthest
/// is 21 bytes: a 20-digit `u64` is a word for its head of four digits, then
/// one for the sixteen after them; a negative `i64` of 16 to 19 digits is
/// its `-`, a word for a head of at most three digits, then one for the
/// sixteen after them.
const INT_ITEM_ROOM: usize = 1 + 4 + 16;

/// A [`Write`] over a block of [`Write::write_fill`], for the digit writers:
/// each piece is stored at `at`, whole words at once. A piece without room
/// is an error (`write_int_array` leaves [`INT_ITEM_ROOM`] bytes per item,
/// so none is ever reported).
pub(crate) struct IntBlock<'a> {
    buf: &'a mut [u8; INT_BLOCK],
    at: usize,
}

impl IntBlock<'_> {
    #[cold]
    fn full() -> Error {
        Error::custom("JSON integer block overflow")
    }
}

impl Write for IntBlock<'_> {
    fn write_all(&mut self, b: &[u8]) -> Result<()> {
        let end = self.at + b.len();
        let slot = self.buf.get_mut(self.at..end).ok_or_else(Self::full)?;
        slot.copy_from_slice(b);
        self.at = end;
        Ok(())
    }

    #[inline(always)]
    fn write_byte(&mut self, b: u8) -> Result<()> {
        *self.buf.get_mut(self.at).ok_or_else(Self::full)? = b;
        self.at += 1;
        Ok(())
    }

    #[inline(always)]
    fn write_word(&mut self, word: [u8; 16], len: usize) -> Result<()> {
        let slot = self
            .buf
            .get_mut(self.at..)
            .and_then(|s| s.first_chunk_mut::<16>())
            .ok_or_else(Self::full)?;
        *slot = word;
        self.at += len.min(16);
        Ok(())
    }

    fn bytes_written(&self) -> u64 {
        self.at as u64
    }
}

/// The block `write_float_rows` lays texts out in.
const ROWS_BLOCK: usize = 1024;
/// The room an item of a row takes at most: `[`, and a 48-byte slot for its
/// text (at most 32 bytes) and the `],` after it.
const ROW_ITEM_ROOM: usize = 49;

/// Lays out item `k` of `total` of a run of rows of `N` floats at
/// `block[at..]`, which has [`ROW_ITEM_ROOM`] bytes: `[` before a row's
/// first item, then its text, then `,` within a row, `],` after a row, `]`
/// after the last. Returns where the next item goes.
#[inline(always)]
fn put_row_item<const N: usize>(
    block: &mut [u8; ROWS_BLOCK],
    mut at: usize,
    k: usize,
    total: usize,
    text: FloatText<'_>,
) -> usize {
    let column = k % N;
    if column == 0 {
        block[at] = b'[';
        at += 1;
    }
    let Some(slot) = block[at..].first_chunk_mut::<48>() else {
        // Not reached: the caller leaves ROW_ITEM_ROOM bytes.
        return at;
    };
    let n = text.put(slot);
    if column == N - 1 {
        slot[n] = b']';
        slot[n + 1] = b',';
        at + n + 1 + usize::from(k + 1 < total)
    } else {
        slot[n] = b',';
        at + n + 1
    }
}

/// An `f64` array item: its text, or `null` when not finite.
#[inline(always)]
fn f64_item(b: &mut zmij::Buffer, v: f64) -> FloatText<'_> {
    if !v.is_finite() {
        return FloatText::Ready(b"null");
    }
    FloatText::of(b.format_finite(v), v.abs(), F64_INT_LIMIT)
}

/// An `f32` array item, as [`f64_item`].
#[inline(always)]
fn f32_item(b: &mut zmij::Buffer, v: f32) -> FloatText<'_> {
    if !v.is_finite() {
        return FloatText::Ready(b"null");
    }
    FloatText::of(b.format_finite(v), f32_magnitude(v), F32_INT_LIMIT)
}

/// Writes a finite float, not in key position, given its shortest
/// round-trip text: straight into the output in the common fixed-notation
/// case, re-laid out as ugorji writes it otherwise.
#[inline(always)]
fn float_text<W: Write>(w: &mut W, s: &str, abs: f64, limit: f64) -> Result<()> {
    FloatText::of(s, abs, limit).write(w)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// High bit set in each byte of `x` equal to `c` (exact for the lowest such
/// byte; a borrow may flag bytes above it, which the caller re-checks).
#[inline(always)]
const fn eq_bytes(x: u64, c: u8) -> u64 {
    let t = x ^ (ONES * c as u64);
    t.wrapping_sub(ONES) & !t
}

/// Index of the first byte of `s` that may need escaping: a control
/// character, `"`, `\`, `0xE2` (U+2028/U+2029 start with it) and, with
/// `ESC_HTML`, `<`, `>` and `&`. Sixteen bytes per step with SSE2 on
/// x86_64, eight in a `u64` elsewhere (SWAR: 3.4 operations per byte),
/// instead of a table lookup and a branch per byte. The byte found is
/// exact (its table entry is not [`PLAIN`] except for `0xE2`).
#[inline(always)]
#[allow(clippy::redundant_closure)] // see the comment inside
fn find_escape<const ESC_HTML: bool>(s: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // A closure: a function item passed as `impl Fn` is called through a
    // `Fn::call` shim, which stayed out of line.
    return crate::scan::find_escape::<ESC_HTML>(s, |b| find_escape_under_8::<ESC_HTML>(b));
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return find_escape_swar::<ESC_HTML>(s);
}

/// [`find_escape`] eight bytes per step in a `u64`: the portable scan (on
/// x86_64, only the tests run it, against the SSE2 scan).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn find_escape_swar<const ESC_HTML: bool>(s: &[u8]) -> Option<usize> {
    let (words, rest) = s.as_chunks::<8>();
    for (k, w) in words.iter().enumerate() {
        let m = escape_flags::<ESC_HTML>(u64::from_le_bytes(*w));
        if m != 0 {
            return Some(k * 8 + (m.trailing_zeros() / 8) as usize);
        }
    }
    if rest.is_empty() {
        return None;
    }
    if let Some(last) = s.last_chunk::<8>() {
        // The last eight bytes, overlapping some already checked: none of
        // those needs escaping, so no borrow runs from them into the rest
        // (borrows start only at flagged bytes), and their flags, all
        // clear, are shifted out.
        let m = escape_flags::<ESC_HTML>(u64::from_le_bytes(*last)) >> (8 * (8 - rest.len()));
        return (m != 0).then(|| s.len() - rest.len() + (m.trailing_zeros() / 8) as usize);
    }
    find_escape_under_8::<ESC_HTML>(s)
}

/// [`find_escape`] for `s` shorter than eight bytes (map keys, short
/// names): one word check, the word gathered with at most two loads
/// instead of a table lookup and a branch per byte.
#[inline(always)]
fn find_escape_under_8<const ESC_HTML: bool>(s: &[u8]) -> Option<usize> {
    let n = s.len();
    debug_assert!(n < 8);
    if let (Some(head), Some(tail)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        // Bytes 0..4 low, bytes n-4..n high; they overlap when n < 8. The
        // lowest flagged byte is exact: if it is in the high half, no byte
        // of the low half (which covers the overlap) needs escaping.
        let x = u64::from(u32::from_le_bytes(*head)) | u64::from(u32::from_le_bytes(*tail)) << 32;
        let m = escape_flags::<ESC_HTML>(x);
        let p = (m.trailing_zeros() / 8) as usize;
        return (m != 0).then(|| if p < 4 { p } else { n + p - 8 });
    }
    let (&first, &last) = (s.first()?, s.last()?);
    // One to three bytes: s[0], s[n / 2], s[n - 1] (in order, repeats
    // when n < 3), the rest of the word a byte that needs no escaping.
    let x = u64::from(first)
        | u64::from(s[n / 2]) << 8
        | u64::from(last) << 16
        | (ONES * u64::from(b'0')) << 24;
    let m = escape_flags::<ESC_HTML>(x);
    (m != 0).then(|| [0, n / 2, n - 1][(m.trailing_zeros() / 8) as usize])
}

/// The high bit of each byte of `x` that may need escaping (see
/// [`find_escape`]); exact for the lowest flagged byte.
#[inline(always)]
fn escape_flags<const ESC_HTML: bool>(x: u64) -> u64 {
    let mut m = eq_bytes(x, b'"')
        | eq_bytes(x, b'\\')
        | eq_bytes(x, 0xE2)
        | (x.wrapping_sub(ONES * 0x20) & !x);
    if ESC_HTML {
        // `<` (0x3C) and `>` (0x3E) are the only bytes with `b | 2 == 0x3E`.
        m |= eq_bytes(x | (ONES * 2), b'>') | eq_bytes(x, b'&');
    }
    m & HIGHS
}

/// The longest string [`quoted_short`] lays out: with its two quotes, one
/// 16-byte word.
const SHORT_STR: usize = 14;

/// `s` with its quotes in the first `len` bytes of a word, when `s` has at
/// most [`SHORT_STR`] bytes and none may need escaping (`<`, `>` and `&`
/// count as such whether or not the handle escapes them: a string with
/// one takes the general path, which decides); `None` otherwise.
///
/// The word is built in registers from at most two loads of `s` and
/// checked there (one vector compare on x86_64): laid out in memory with
/// stores of several widths and read back whole, it stalled on store
/// forwarding.
#[inline(always)]
fn quoted_short(s: &[u8]) -> Option<([u8; 16], usize)> {
    let n = s.len();
    if n > SHORT_STR {
        return None;
    }
    let text = codec_core::short_word(s);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let plain = crate::scan::escape_mask(text) & ((1 << n) - 1) == 0;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let plain = find_escape::<true>(s).is_none();
    let quoted = 0x22 | text << 8 | 0x22 << (8 * (n + 1));
    plain.then_some((quoted.to_le_bytes(), n + 2))
}

/// Writes `s` as a quoted JSON string with ugorji's escaping.
#[inline(never)]
pub(crate) fn write_escaped<W: Write>(w: &mut W, s: &[u8], html: bool) -> Result<()> {
    if html {
        write_escaped_with::<W, true>(w, s)
    } else {
        write_escaped_with::<W, false>(w, s)
    }
}

#[inline(always)]
fn write_escaped_with<W: Write, const ESC_HTML: bool>(w: &mut W, s: &[u8]) -> Result<()> {
    let table = if ESC_HTML {
        &ESCAPE_HTML
    } else {
        &ESCAPE_KEEP_HTML
    };
    w.reserve(s.len() + 2);
    w.write_byte(b'"')?;
    let mut start = 0; // first byte not yet written
    let mut i = 0;
    while let Some(off) = s.get(i..).and_then(find_escape::<ESC_HTML>) {
        i += off;
        let b = s[i];
        let t = table[b as usize];
        // `s[i]` needs a look.
        let mut esc = [b'\\', b'u', b'0', b'0', 0, 0];
        let rep: &[u8] = match t {
            CTRL => {
                esc[4] = HEX[(b >> 4) as usize];
                esc[5] = HEX[(b & 15) as usize];
                &esc
            }
            HTML => {
                esc[4] = HEX[(b >> 4) as usize];
                esc[5] = HEX[(b & 15) as usize];
                &esc
            }
            E2 => {
                // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
                match s.get(i + 1..i + 3) {
                    Some([0x80, c @ (0xA8 | 0xA9)]) => {
                        w.write_all(&s[start..i])?;
                        let last = if *c == 0xA8 { b'8' } else { b'9' };
                        w.write_all(&[b'\\', b'u', b'2', b'0', b'2', last])?;
                        i += 3;
                        start = i;
                    }
                    _ => i += 1,
                }
                continue;
            }
            letter => {
                esc[1] = letter;
                &esc[..2]
            }
        };
        w.write_all(&s[start..i])?;
        w.write_all(rep)?;
        i += 1;
        start = i;
    }
    // Most strings end here, unescaped and short: copied without `memcpy`.
    w.write_short(&s[start..])?;
    w.write_byte(b'"')
}

impl EncodeFormat for JsonEncoder {
    const NAME: &'static str = "json";
    /// JSON has no extensions: a value-carrying extension is its value alone.
    const EXT_STYLE: codec_core::ExtStyle = codec_core::ExtStyle::Transparent;

    #[inline]
    fn write_nil<W: Write>(&mut self, w: &mut W) -> Result<()> {
        if self.key {
            // No JSON form for a nil key: write the text "null" as a string.
            self.key = false;
            w.write_all(b"\"null\"")?;
        } else {
            w.write_all(b"null")?;
        }
        self.end_value(w)
    }

    /// A value is one word store; a key (`"true"`) goes out of line.
    #[inline]
    fn write_bool<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()> {
        if self.key {
            return self.write_bool_key(w, v);
        }
        let (word, len) = if v {
            (*b"true\0\0\0\0\0\0\0\0\0\0\0\0", 4)
        } else {
            (*b"false\0\0\0\0\0\0\0\0\0\0\0", 5)
        };
        w.write_word(word, len)?;
        self.end_value(w)
    }

    #[inline]
    fn write_i64<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        let q = self.quote_int(v.unsigned_abs() > 1 << 53);
        if !q && !self.key {
            digits::write_i64(w, v)?;
            return self.end_value(w);
        }
        let mut b = itoa::Buffer::new();
        self.write_number(w, b.format(v).as_bytes(), q)
    }

    #[inline]
    fn write_u64<W: Write>(&mut self, w: &mut W, v: u64) -> Result<()> {
        let q = self.quote_int(v > 1 << 53);
        if !q && !self.key {
            digits::write_u64(w, v)?;
            return self.end_value(w);
        }
        let mut b = itoa::Buffer::new();
        self.write_number(w, b.format(v).as_bytes(), q)
    }

    /// 128-bit integers are written in full (valid JSON; ugorji has none).
    fn write_i128<W: Write>(&mut self, w: &mut W, v: i128) -> Result<()> {
        let mut b = itoa::Buffer::new();
        let q = self.quote_int(v.unsigned_abs() > 1 << 53);
        self.write_number(w, b.format(v).as_bytes(), q)
    }

    /// 128-bit integers are written in full (valid JSON; ugorji has none).
    fn write_u128<W: Write>(&mut self, w: &mut W, v: u128) -> Result<()> {
        let mut b = itoa::Buffer::new();
        let q = self.quote_int(v > 1 << 53);
        self.write_number(w, b.format(v).as_bytes(), q)
    }

    #[inline]
    fn write_f32<W: Write>(&mut self, w: &mut W, v: f32) -> Result<()> {
        if !v.is_finite() {
            return self.write_non_finite(w);
        }
        let mut b = zmij::Buffer::new();
        self.write_float(w, b.format_finite(v), f32_magnitude(v), F32_INT_LIMIT)
    }

    #[inline]
    fn write_f64<W: Write>(&mut self, w: &mut W, v: f64) -> Result<()> {
        if !v.is_finite() {
            return self.write_non_finite(w);
        }
        let mut b = zmij::Buffer::new();
        self.write_float(w, b.format_finite(v), v.abs(), F64_INT_LIMIT)
    }

    /// `[`, the items, `,` between them, `]`: the bytes of the general path
    /// without its per-item checks (separator, indentation, key, trailer).
    fn write_f64_array<W: Write>(&mut self, w: &mut W, items: &[f64]) -> Result<()> {
        if self.indent != 0 {
            return write_array_each(self, w, items, Self::write_f64);
        }
        self.write_float_array(w, items, f64_item)
    }

    /// As `write_f64_array`.
    fn write_f32_array<W: Write>(&mut self, w: &mut W, items: &[f32]) -> Result<()> {
        if self.indent != 0 {
            return write_array_each(self, w, items, Self::write_f32);
        }
        self.write_float_array(w, items, f32_item)
    }

    /// `[`, the items, `,` between them, `]`: the bytes of the general path
    /// without its per-item checks.
    fn write_i64_array<W: Write, T: SignedInt>(&mut self, w: &mut W, items: &[T]) -> Result<()> {
        self.write_int_array(
            w,
            items,
            |v| v.to_i64().unsigned_abs() > 1 << 53,
            #[inline(always)]
            |b, v| digits::put_i64(b, v.to_i64()),
            |f, w, v| f.write_i64(w, v.to_i64()),
        )
    }

    /// As `write_i64_array`.
    fn write_u64_array<W: Write, T: UnsignedInt>(&mut self, w: &mut W, items: &[T]) -> Result<()> {
        self.write_int_array(
            w,
            items,
            |v| v.to_u64() > 1 << 53,
            #[inline(always)]
            |b, v| digits::put_u64(b, v.to_u64()),
            |f, w, v| f.write_u64(w, v.to_u64()),
        )
    }

    /// `[`, the rows as `write_f64_array` writes them, `,` between, `]`.
    fn write_f64_rows<W: Write, const N: usize>(
        &mut self,
        w: &mut W,
        rows: &[[f64; N]],
    ) -> Result<()> {
        self.write_float_rows(w, rows, f64_item, Self::write_f64_array)
    }

    /// As `write_f64_rows`.
    fn write_f32_rows<W: Write, const N: usize>(
        &mut self,
        w: &mut W,
        rows: &[[f32; N]],
    ) -> Result<()> {
        self.write_float_rows(w, rows, f32_item, Self::write_f32_array)
    }

    /// A short string that needs no escaping (most keys and many values)
    /// is one word, inline; others take the general scan, out of line.
    #[inline]
    fn write_str<W: Write>(&mut self, w: &mut W, v: &str) -> Result<()> {
        self.key = false;
        match quoted_short(v.as_bytes()) {
            Some((word, len)) => w.write_word(word, len)?,
            None => write_escaped(w, v.as_bytes(), self.html)?,
        }
        self.end_value(w)
    }

    /// Bytes are a base64 string (standard alphabet, padded), as ugorji writes them.
    fn write_bytes<W: Write>(&mut self, w: &mut W, v: &[u8]) -> Result<()> {
        self.key = false;
        w.reserve(base64::encoded_len(v.len()) + 2);
        w.write_byte(b'"')?;
        base64::encode(w, v)?;
        w.write_byte(b'"')?;
        self.end_value(w)
    }

    #[inline]
    fn write_field_name<W: Write>(&mut self, w: &mut W, name: &'static str) -> Result<()> {
        self.write_str(w, name)
    }

    /// `,"name":` in one go when the name needs no escaping and there is
    /// no indentation (the usual case); the general path otherwise.
    /// Inlined into derived code, where the name is a constant: the key's
    /// bytes fold into one or two stores.
    #[inline(always)]
    fn write_field<W: Write>(&mut self, w: &mut W, index: usize, name: FieldName) -> Result<()> {
        if self.indent != 0 || !name.is_plain() {
            return self.write_field_general(w, index, name);
        }
        // `,"name":` (or `"name":` first) assembled in registers:
        // little-endian, so the first byte is the lowest.
        let len = name.as_str().len();
        let (frame, at) = if index > 0 {
            (0x222c_u128, 2)
        } else {
            (0x22, 1)
        };
        let Some(word) = name.as_word() else {
            // Longer than 16 bytes.
            w.reserve(len + 4);
            w.write_word(frame.to_le_bytes(), at)?;
            w.write_short(name.as_str().as_bytes())?;
            return w.write_word(0x3a22_u128.to_le_bytes(), 2);
        };
        if at + len + 2 <= 16 {
            let key = frame | word << (8 * at) | 0x3a22_u128 << (8 * (at + len));
            return w.write_word(key.to_le_bytes(), at + len + 2);
        }
        // Two words: the first 16 bytes, then the one to four left over
        // (the name's last bytes and the closing `":`, or part of it).
        let head =
            frame | word << (8 * at) | 0x3a22_u128.checked_shl(8 * (at + len) as u32).unwrap_or(0);
        w.write_word(head.to_le_bytes(), 16)?;
        let done = 16 - at;
        let close = if len >= done {
            0x3a22_u128 << (8 * (len - done))
        } else {
            0x3a22_u128 >> (8 * (done - len))
        };
        let tail = word >> (8 * done) | close;
        w.write_word(tail.to_le_bytes(), at + len + 2 - 16)
    }

    #[inline]
    fn write_array_start<W: Write>(&mut self, w: &mut W, _len: usize) -> Result<()> {
        if self.key || (self.sorting && self.level == 0) {
            return Err(Self::bad_key("an array"));
        }
        self.level += 1;
        w.write_byte(b'[')
    }

    #[inline]
    fn write_array_elem<W: Write>(&mut self, w: &mut W, index: usize) -> Result<()> {
        if index > 0 {
            w.write_byte(b',')?;
        }
        if self.indent != 0 {
            self.write_indent(w)?;
        }
        Ok(())
    }

    #[inline]
    fn write_array_end<W: Write>(&mut self, w: &mut W, _len: usize) -> Result<()> {
        self.level = self.level.saturating_sub(1);
        if self.indent != 0 {
            // v1.2.14 indents before `]` even when the array is empty ("[\n]").
            self.write_indent(w)?;
        }
        w.write_byte(b']')?;
        self.end_value(w)
    }

    #[inline]
    fn write_map_start<W: Write>(&mut self, w: &mut W, _len: usize) -> Result<()> {
        if self.key || (self.sorting && self.level == 0) {
            return Err(Self::bad_key("a map"));
        }
        self.level += 1;
        w.write_byte(b'{')
    }

    #[inline]
    fn write_map_key<W: Write>(&mut self, w: &mut W, index: usize) -> Result<()> {
        if index > 0 {
            w.write_byte(b',')?;
        }
        if self.indent != 0 {
            self.write_indent(w)?;
        }
        self.key = true;
        Ok(())
    }

    #[inline]
    fn write_map_value<W: Write>(&mut self, w: &mut W) -> Result<()> {
        self.key = false;
        if self.indent != 0 {
            w.write_all(b": ")
        } else {
            w.write_byte(b':')
        }
    }

    #[inline]
    fn write_map_end<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        self.level = self.level.saturating_sub(1);
        if self.indent != 0 && len > 0 {
            self.write_indent(w)?;
        }
        w.write_byte(b'}')?;
        self.end_value(w)
    }

    /// An RFC 3339 string with nanoseconds and the original offset (Go's
    /// `RFC3339Nano`); Go's zero time (0001-01-01T00:00:00Z) is `null`, as ugorji writes it.
    fn write_time<W: Write>(&mut self, w: &mut W, t: &Time) -> Result<()> {
        if t.is_go_zero() {
            return self.write_nil(w);
        }
        self.key = false;
        let text = t.to_string();
        write_escaped(w, text.as_bytes(), self.html)?;
        self.end_value(w)
    }

    /// JSON has no extensions: the data is written as a base64 string and the
    /// tag is dropped (ugorji writes a bytes extension's bytes the same way).
    fn write_ext<W: Write>(&mut self, w: &mut W, _tag: u64, data: &[u8]) -> Result<()> {
        self.write_bytes(w, data)
    }

    /// JSON has no tags: nothing is written and the tagged item follows alone
    /// (ugorji v1.2.14 writes a `RawExt`'s value the same way).
    fn write_tag<W: Write>(&mut self, _w: &mut W, _tag: u64) -> Result<()> {
        Ok(())
    }

    /// CBOR's `undefined` (simple 23) is written as `null`; other simple values fail.
    fn write_simple<W: Write>(&mut self, w: &mut W, v: u8) -> Result<()> {
        if v == 23 {
            return self.write_nil(w);
        }
        Err(Error::unsupported(format!("json has no simple value {v}")))
    }

    fn write_raw<W: Write>(&mut self, w: &mut W, encoded: &[u8]) -> Result<()> {
        self.key = false;
        w.write_all(encoded)?;
        self.end_value(w)
    }

    fn side(&self) -> Self {
        JsonEncoder {
            trailer: 0,
            level: 0,
            key: false,
            sorting: false,
            ..self.clone()
        }
    }

    /// Keys sort by their text as values (`"a"` before `-3` before `10`),
    /// as ugorji sorts them; with `map_key_as_string` by their text in key
    /// position (`"1"` before `"a"`), as ugorji quotes them there. A
    /// container key fails on the side, as it would in place.
    fn side_key(&self) -> Self {
        JsonEncoder {
            key: self.key_as_string,
            sorting: true,
            ..self.side()
        }
    }

    /// Keys are scalars, cheap to encode again, and written with the
    /// separators and indentation of where they stand.
    fn reuse_side_keys(&self) -> bool {
        false
    }

    /// Keeps `term_whitespace` / `trailing_newline` across `Encoder::reset`.
    fn fresh(&self) -> Self {
        JsonEncoder {
            level: 0,
            key: false,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_arrays_are_not_map_keys() {
        for indent in [0, 2] {
            let mut e = JsonEncoder::new(&crate::JsonHandle::new().indent(indent));
            let mut out = Vec::new();
            e.write_map_start(&mut out, 1).unwrap();
            e.write_map_key(&mut out, 0).unwrap();
            let err = e.write_f64_array(&mut out, &[1.0]).unwrap_err();
            assert!(err.to_string().contains("not an array"), "{err}");
            e.write_map_key(&mut out, 0).unwrap();
            assert!(e.write_f32_array(&mut out, &[]).is_err());
        }
    }

    /// The float-array loop (two formatter buffers, each item written after
    /// the next is formatted) against the general path, one `write_f64` /
    /// `write_f32` per item (a `Value` array): every length up to 9, so that
    /// the loop's pairs, the odd item left over and the first item all
    /// meet every kind of text (as is, `.0` cut, re-laid out, `null`).
    #[test]
    fn float_arrays_are_as_the_general_path() {
        use codec_core::Value;
        let pool = [
            0.0,
            -0.0,
            1.0,
            -65.613_616_999_999_98,
            0.1,
            1e-7,
            123_456_789.0,
            4_503_599_627_370_496.0,
            1e21,
            -2.5e-300,
            5e-324,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let h = crate::JsonHandle::new();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..=9 {
            for _ in 0..200 {
                let items: Vec<f64> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        pool[(state % pool.len() as u64) as usize]
                    })
                    .collect();
                let general: Vec<Value> = items.iter().map(|&v| Value::F64(v)).collect();
                let got = codec_core::to_vec(&items, &h).unwrap();
                assert_eq!(got, codec_core::to_vec(&general, &h).unwrap(), "{items:?}");
                let narrow: Vec<f32> = items.iter().map(|&v| v as f32).collect();
                let general: Vec<Value> = narrow.iter().map(|&v| Value::F32(v)).collect();
                let got = codec_core::to_vec(&narrow, &h).unwrap();
                assert_eq!(got, codec_core::to_vec(&general, &h).unwrap(), "{narrow:?}");
            }
        }
        let text = codec_core::to_vec(&[1.0, f64::NAN, 1e21, 0.5][..], &h).unwrap();
        assert_eq!(text, b"[1.0,null,1e+21,0.5]");
    }

    #[test]
    fn field_keys_of_every_length_are_as_the_general_path() {
        const NAMES: &str = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ";
        for len in 1..=NAMES.len() {
            let name = FieldName::new(&NAMES[..len]);
            for index in [0, 1, 7] {
                let mut e = JsonEncoder::new(&crate::JsonHandle::new());
                let mut got = b"{".to_vec();
                e.write_field(&mut got, index, name).unwrap();
                let mut want = b"{".to_vec();
                e.write_field_general(&mut want, index, name).unwrap();
                assert_eq!(got, want, "{len} {index}");
                let sep = if index > 0 { "," } else { "" };
                assert_eq!(got, format!("{{{sep}\"{}\":", &NAMES[..len]).as_bytes());
            }
        }
    }

    #[test]
    fn integers_are_written_as_itoa_writes_them() {
        use crate::JsonHandle;
        use codec_core::to_vec;
        let mut values: Vec<i64> = vec![0, 1, -1, i64::MIN, i64::MAX, i64::MIN + 1];
        let mut p = 1i64;
        while let Some(next) = p.checked_mul(10) {
            values.extend([p - 1, p, p + 1, -(p - 1), -p, -(p + 1)]);
            p = next;
        }
        let plain = JsonHandle::new();
        let quoted = JsonHandle::new().integer_as_string(IntegerAsString::Large);
        for v in values {
            let want = itoa::Buffer::new().format(v).to_owned();
            assert_eq!(to_vec(&v, &plain).unwrap(), want.as_bytes(), "{v}");
            // In an array (separators) and as a map key (quoted).
            let got = to_vec(&vec![v, v], &plain).unwrap();
            assert_eq!(got, format!("[{want},{want}]").as_bytes());
            let map: std::collections::BTreeMap<i64, i64> = [(v, v)].into();
            let got = to_vec(&map, &plain).unwrap();
            assert_eq!(got, format!("{{\"{want}\":{want}}}").as_bytes());
            let big = v.unsigned_abs() > 1 << 53;
            let want_q = if big {
                format!("\"{want}\"")
            } else {
                want.clone()
            };
            assert_eq!(to_vec(&v, &quoted).unwrap(), want_q.as_bytes(), "{v}");
            if v >= 0 {
                assert_eq!(to_vec(&(v as u64), &plain).unwrap(), want.as_bytes());
            }
        }
        for v in [
            u64::MAX,
            u64::MAX / 10,
            10_000_000_000_000_000,
            9_999_999_999_999_999,
        ] {
            let want = v.to_string();
            assert_eq!(to_vec(&v, &plain).unwrap(), want.as_bytes(), "{v}");
        }
    }

    fn naive(s: &[u8], html: bool) -> Option<usize> {
        let table = if html {
            &ESCAPE_HTML
        } else {
            &ESCAPE_KEEP_HTML
        };
        s.iter().position(|&b| table[b as usize] != PLAIN)
    }

    /// The scan used on this target, after checking that the portable
    /// one agrees with it.
    fn find(s: &[u8], html: bool) -> Option<usize> {
        let (got, swar) = if html {
            (find_escape::<true>(s), find_escape_swar::<true>(s))
        } else {
            (find_escape::<false>(s), find_escape_swar::<false>(s))
        };
        assert_eq!(got, swar, "{s:?} html={html}");
        got
    }

    /// The scans find exactly the first byte the table flags: every byte
    /// value at every position of a plain background (lengths across two
    /// 16-byte steps and the tails after them), and pairs of special bytes
    /// (the case where a borrow could flag a later byte).
    #[test]
    fn find_escape_agrees_with_the_table() {
        for html in [false, true] {
            for len in 0..36 {
                for pos in 0..len {
                    for b in 0..=255u8 {
                        let mut s = vec![b'a'; len];
                        s[pos] = b;
                        assert_eq!(find(&s, html), naive(&s, html), "{s:?} html={html}");
                        // Byte values just above/below the specials after it.
                        for next in [0x00, 0x1f, 0x21, 0x22, 0x23, 0x3d, 0x3f, 0xe1, 0xe3, 0xff] {
                            if pos + 1 < len {
                                s[pos + 1] = next;
                                assert_eq!(find(&s, html), naive(&s, html), "{s:?} html={html}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Strings under eight bytes take a gathered word (two overlapping
    /// loads, or three bytes): every string of up to seven bytes over
    /// plain and flagged bytes, so the first flagged byte is found at each
    /// position with any flags after it, in both halves and their overlap.
    #[test]
    fn short_strings_find_the_first_escape() {
        let alphabet = [b'a', b'"', 0x1f, 0xe2, b'>', b'\\', 0xff];
        for html in [false, true] {
            for len in 0..8u32 {
                for mut code in 0..alphabet.len().pow(len) {
                    let s: Vec<u8> = (0..len)
                        .map(|_| {
                            let b = alphabet[code % alphabet.len()];
                            code /= alphabet.len();
                            b
                        })
                        .collect();
                    assert_eq!(find(&s, html), naive(&s, html), "{s:?} html={html}");
                }
            }
        }
    }

    /// A short string laid out in one word is what the general path
    /// writes, and every string it declines is too long or has a byte
    /// the table flags: each byte value at each position of strings of
    /// 0 to 16 bytes whose other bytes all differ (so a byte put in the
    /// wrong place shows), in both escaping modes.
    #[test]
    fn short_strings_are_laid_out_as_the_general_path() {
        for len in 0..=16usize {
            for pos in 0..len.max(1) {
                for b in 0..=255u8 {
                    let mut s: Vec<u8> = (0..len).map(|i| b'a' + i as u8).collect();
                    if let Some(at) = s.get_mut(pos) {
                        *at = b;
                    }
                    match quoted_short(&s) {
                        Some((word, n)) => {
                            assert!(len <= SHORT_STR && naive(&s, true).is_none(), "{s:?}");
                            for html in [false, true] {
                                let mut general = Vec::new();
                                write_escaped(&mut general, &s, html).unwrap();
                                assert_eq!(word[..n], general[..], "{s:?} html={html}");
                            }
                        }
                        None => assert!(len > SHORT_STR || naive(&s, true).is_some(), "{s:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn escapes_as_ugorji() {
        let mut out = Vec::new();
        let s = "a\"b\\c\nd\u{1}<>&\u{2028}\u{2029}\u{2027}é…日本 long enough to use words";
        write_escaped(&mut out, s.as_bytes(), true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"b\\\\c\\nd\\u0001\\u003c\\u003e\\u0026\\u2028\\u2029\u{2027}é…日本 long enough to use words\""
        );
        let mut out = Vec::new();
        write_escaped(&mut out, s.as_bytes(), false).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"b\\\\c\\nd\\u0001<>&\\u2028\\u2029\u{2027}é…日本 long enough to use words\""
        );
    }
}

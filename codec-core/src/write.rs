//! Byte sinks the encoders write into: `Vec<u8>` and any [`std::io::Write`].

use crate::error::{Error, Result};
use std::mem::MaybeUninit;

/// A byte sink. Format drivers write every byte through this trait.
///
/// `Vec<u8>` implements it directly (infallible, the fastest path);
/// [`IoWriter`] adapts any [`std::io::Write`] with an internal buffer.
pub trait Write {
    /// Appends all of `buf`.
    fn write_all(&mut self, buf: &[u8]) -> Result<()>;

    /// Appends one byte.
    #[inline]
    fn write_byte(&mut self, b: u8) -> Result<()> {
        self.write_all(&[b])
    }

    /// Appends the first `len` bytes of `word` (`len` at most 16). An
    /// encoder builds a short item (a JSON key with its quotes, comma and
    /// colon) in a register and hands it over whole: a sink can store all
    /// 16 bytes at once and keep `len` of them, instead of copying a slice
    /// of variable length.
    #[inline]
    fn write_word(&mut self, word: [u8; 16], len: usize) -> Result<()> {
        self.write_all(&word[..len.min(16)])
    }

    /// Appends `bytes`, a short item whose size is known at compile time
    /// (a binary format's head byte and its big-endian argument; at most
    /// 16 bytes), as one [`write_word`](Write::write_word). For `Vec<u8>`
    /// that is a capacity check and a 16-byte store, where `write_all` of
    /// a few bytes went through a `memcpy` call.
    ///
    /// ```
    /// use codec_core::Write;
    /// let mut out = Vec::new();
    /// out.write_small([0xcd, 0x01, 0x00]).unwrap(); // msgpack uint16 256
    /// assert_eq!(out, [0xcd, 0x01, 0x00]);
    /// ```
    #[inline(always)]
    fn write_small<const N: usize>(&mut self, bytes: [u8; N]) -> Result<()> {
        const { assert!(N <= 16, "write_small takes at most 16 bytes") };
        let mut word = [0u8; 16];
        word[..N].copy_from_slice(&bytes);
        self.write_word(word, N)
    }

    /// Appends all of `buf`, which is short (a number's text: at most 32
    /// bytes is the fast case, any length is correct). `Vec<u8>` copies it
    /// inline instead of calling `memcpy` for a handful of bytes.
    #[inline]
    fn write_short(&mut self, buf: &[u8]) -> Result<()> {
        self.write_all(buf)
    }

    /// Appends a binary format's item header, the first `head_len` bytes
    /// (at most 4) of `head` (little-endian: its first byte lowest), and
    /// then `body`: a string with its length in front.
    ///
    /// `Vec<u8>` writes both straight into its spare capacity with one
    /// capacity check, the body without a call to `memcpy` up to 64 bytes
    /// ([`copy_short`]'s pieces); inlined where `body` is a constant (a
    /// struct field's name in derived code), the copy is a few fixed-size
    /// stores.
    ///
    /// ```
    /// use codec_core::Write;
    /// let mut out = Vec::new();
    /// out.write_headed(0xa5, 1, b"hello").unwrap(); // msgpack fixstr
    /// out.write_headed(0x05_d9, 2, b"world").unwrap(); // str8
    /// assert_eq!(out, b"\xa5hello\xd9\x05world");
    /// ```
    #[inline]
    fn write_headed(&mut self, head: u32, head_len: usize, body: &[u8]) -> Result<()> {
        self.write_all(&head.to_le_bytes()[..head_len.min(4)])?;
        self.write_all(body)
    }

    /// Appends the first `n` bytes of a `MAX`-byte block that `fill` writes
    /// and returns `n` of (at most `MAX`): an encoder lays out several short
    /// pieces (a small array of numbers with its brackets and commas) in one
    /// go, where `Vec<u8>` claims the block at once in its own buffer and
    /// checks its capacity and length once, not once per piece. Each call
    /// gets a zeroed block.
    #[inline]
    fn write_fill<const MAX: usize>(
        &mut self,
        fill: impl FnOnce(&mut [u8; MAX]) -> usize,
    ) -> Result<()> {
        let mut block = [0; MAX];
        let n = fill(&mut block).min(MAX);
        self.write_all(&block[..n])
    }

    /// Hints that about `additional` more bytes will follow.
    #[inline]
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }

    /// Number of bytes accepted so far (including buffered ones).
    fn bytes_written(&self) -> u64;
}

/// Copies `s` to the start of `dst` and returns its length: without a
/// call to `memcpy` when it has at most 64 bytes (as two overlapping
/// fixed-size pieces, both inside `s`'s length), with one otherwise. For
/// format drivers filling a [`Write::write_fill`] block. `dst` must have
/// room for `s` (else this panics: callers size their blocks for it).
///
/// A number's text or a short string is a handful of bytes whose length
/// is known only at run time; `copy_from_slice` sends each one to the C
/// library's `memmove`, whose call and size dispatch cost more than the
/// copy.
#[inline(always)]
pub fn copy_short(dst: &mut [u8], s: &[u8]) -> usize {
    copy_pieces(dst, s)
}

/// Where [`copy_pieces`] copies to: initialized bytes, or a `Vec`'s spare
/// capacity.
trait CopyDst {
    /// Copies `s` to `at..at + s.len()`.
    fn put(&mut self, at: usize, s: &[u8]);
}

impl CopyDst for [u8] {
    #[inline(always)]
    fn put(&mut self, at: usize, s: &[u8]) {
        self[at..at + s.len()].copy_from_slice(s);
    }
}

impl CopyDst for [MaybeUninit<u8>] {
    #[inline(always)]
    fn put(&mut self, at: usize, s: &[u8]) {
        self[at..at + s.len()].write_copy_of_slice(s);
    }
}

/// The first and the last `w` bytes of `s` (at least `w` long) to the
/// same places in `dst`.
#[inline(always)]
fn put_pair<D: CopyDst + ?Sized>(dst: &mut D, s: &[u8], w: usize) {
    let n = s.len();
    dst.put(0, &s[..w]);
    dst.put(n - w, &s[n - w..]);
}

/// [`copy_short`] into either kind of destination: `s` in two overlapping
/// fixed-size pieces (both inside its length, so exactly bytes
/// `..s.len()` are written), or one copy of any length beyond 64 bytes.
#[inline(always)]
fn copy_pieces<D: CopyDst + ?Sized>(dst: &mut D, s: &[u8]) -> usize {
    let n = s.len();
    if n > 32 {
        if n <= 64 {
            put_pair(dst, s, 32);
        } else {
            dst.put(0, s);
        }
    } else if n >= 16 {
        put_pair(dst, s, 16);
    } else if n >= 8 {
        put_pair(dst, s, 8);
    } else if n >= 4 {
        put_pair(dst, s, 4);
    } else if n > 0 {
        dst.put(0, &s[..1]);
        dst.put(n / 2, &s[n / 2..n / 2 + 1]);
        dst.put(n - 1, &s[n - 1..]);
    }
    n
}

/// [`Write::write_headed`] for a `Vec` without the room for its fast path
/// at hand, or with a body of more than 64 bytes.
#[inline(never)]
fn headed_slow(v: &mut Vec<u8>, head: u32, head_len: usize, body: &[u8]) {
    v.reserve(head_len + body.len());
    v.extend_from_slice(&head.to_le_bytes()[..head_len]);
    v.extend_from_slice(body);
}

/// `s` (at most 16 bytes) in the low bytes of a little-endian word, zeros
/// above: two overlapping loads (whose shared bytes are equal, so that
/// OR-ing them is exact), or three single bytes below 4.
///
/// For format drivers and [`Text`](crate::Text), which build short
/// pieces in a register instead of copying them through memory byte
/// ranges at a time.
#[inline(always)]
pub fn short_word(s: &[u8]) -> u128 {
    let n = s.len();
    debug_assert!(n <= 16);
    if let (Some(head), Some(tail)) = (s.first_chunk::<8>(), s.last_chunk::<8>()) {
        u128::from(u64::from_le_bytes(*head))
            | u128::from(u64::from_le_bytes(*tail)) << (8 * (n - 8))
    } else if let (Some(head), Some(tail)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        u128::from(
            u64::from(u32::from_le_bytes(*head))
                | u64::from(u32::from_le_bytes(*tail)) << (8 * (n - 4)),
        )
    } else if let (Some(&first), Some(&last)) = (s.first(), s.last()) {
        u128::from(
            u32::from(first)
                | u32::from(s[n / 2]) << (8 * (n / 2))
                | u32::from(last) << (8 * (n - 1)),
        )
    } else {
        0
    }
}

/// Appends to `v` the first `n` bytes of an `N`-byte block that `fill`
/// writes in place, at the end of `v`'s spare capacity (zeroed first), and
/// returns `n` of (at most `N`): a short piece is one or two fixed-size
/// stores and a length update, with no copy and no call to `memcpy`
/// whatever LLVM decides about inlining `extend_from_slice` (in a large
/// binary it left it out of line, and each JSON key became a `memcpy`
/// call).
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn append_in_place<const N: usize>(
    v: &mut Vec<u8>,
    fill: impl FnOnce(&mut [u8; N]) -> usize,
) {
    v.reserve(N);
    let start = v.len();
    let Some(spare) = v.spare_capacity_mut().first_chunk_mut::<N>() else {
        // Not reached: `reserve` left at least `N` bytes spare.
        let mut block = [0; N];
        let n = fill(&mut block).min(N);
        v.extend_from_slice(&block[..n]);
        return;
    };
    *spare = [MaybeUninit::new(0); N];
    // SAFETY: `MaybeUninit<u8>` has the size and alignment of `u8`, and all
    // `N` bytes were initialized just above, so the block is a valid
    // `[u8; N]`; it borrows `v` mutably, so nothing else sees it meanwhile.
    let block = unsafe { &mut *spare.as_mut_ptr().cast::<[u8; N]>() };
    let n = fill(block).min(N);
    // SAFETY: `start + n <= start + N <= capacity` (the block lies in the
    // spare capacity), and bytes `start..start + n` are initialized
    // (zeroed, then written by `fill`).
    unsafe { v.set_len(start + n) };
}

impl Write for Vec<u8> {
    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> Result<()> {
        self.extend_from_slice(buf);
        Ok(())
    }

    #[inline(always)]
    fn write_short(&mut self, buf: &[u8]) -> Result<()> {
        if buf.len() <= 32 {
            append_in_place::<32>(
                self,
                #[inline(always)]
                |block| copy_short(block, buf),
            );
        } else {
            self.extend_from_slice(buf);
        }
        Ok(())
    }

    /// Straight into the spare capacity: the header as one 4-byte store
    /// (the bytes past `head_len` are overwritten by the body or lie past
    /// the new length), then the body in `copy_short`'s pieces. Unlike a
    /// [`write_fill`](Write::write_fill) block, nothing is zeroed first.
    ///
    /// The common case (a body of at most 64 bytes, room for it and four
    /// header bytes) makes no call, so that a driver's string writer
    /// inlining it needs no stack frame of its own; growing the buffer and
    /// long bodies are left to `headed_slow`, a tail call.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn write_headed(&mut self, head: u32, head_len: usize, body: &[u8]) -> Result<()> {
        let head_len = head_len.min(4);
        let n = body.len();
        let start = self.len();
        let spare = self.spare_capacity_mut();
        if n > 64 || spare.len() < 4 + n {
            headed_slow(self, head, head_len, body);
            return Ok(());
        }
        spare[..4].write_copy_of_slice(&head.to_le_bytes());
        copy_pieces(&mut spare[head_len..], body);
        // SAFETY: there were at least `4 + n` bytes of spare capacity, and
        // bytes `start..start + head_len + n` were all written just above:
        // the header's first `head_len` (of 4) and then `n` by
        // `copy_pieces`, whose pieces cover exactly `..n` of its target.
        unsafe { self.set_len(start + head_len + n) };
        Ok(())
    }

    /// The block is the spare capacity past the end, filled in place.
    #[inline(always)]
    fn write_fill<const MAX: usize>(
        &mut self,
        fill: impl FnOnce(&mut [u8; MAX]) -> usize,
    ) -> Result<()> {
        append_in_place(self, fill);
        Ok(())
    }

    #[inline]
    fn write_byte(&mut self, b: u8) -> Result<()> {
        self.push(b);
        Ok(())
    }

    /// Always inline (see the `&mut T` forward).
    #[inline(always)]
    fn write_word(&mut self, word: [u8; 16], len: usize) -> Result<()> {
        append_in_place::<16>(self, |block| {
            *block = word;
            len
        });
        Ok(())
    }

    #[inline]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }

    #[inline]
    fn bytes_written(&self) -> u64 {
        self.len() as u64
    }
}

impl<T: Write + ?Sized> Write for &mut T {
    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> Result<()> {
        (**self).write_all(buf)
    }

    #[inline]
    fn write_byte(&mut self, b: u8) -> Result<()> {
        (**self).write_byte(b)
    }

    /// Always inline, as `Vec<u8>`'s: out of line, the word goes through
    /// memory, and reading it back whole right after the caller stored it
    /// in pieces stalls on store forwarding (a third of the JSON encoding
    /// time of twitter.json in one build where LLVM left it out of line).
    #[inline(always)]
    fn write_word(&mut self, word: [u8; 16], len: usize) -> Result<()> {
        (**self).write_word(word, len)
    }

    #[inline(always)]
    fn write_short(&mut self, buf: &[u8]) -> Result<()> {
        (**self).write_short(buf)
    }

    #[inline(always)]
    fn write_fill<const MAX: usize>(
        &mut self,
        fill: impl FnOnce(&mut [u8; MAX]) -> usize,
    ) -> Result<()> {
        (**self).write_fill(fill)
    }

    #[inline(always)]
    fn write_headed(&mut self, head: u32, head_len: usize, body: &[u8]) -> Result<()> {
        (**self).write_headed(head, head_len, body)
    }

    #[inline]
    fn reserve(&mut self, additional: usize) {
        (**self).reserve(additional)
    }

    #[inline]
    fn bytes_written(&self) -> u64 {
        (**self).bytes_written()
    }
}

/// Size of the internal buffer of [`IoWriter`]: bytes are sent to the
/// inner writer once this many are buffered.
const IO_BUF: usize = 8 * 1024;

/// The buffer's first capacity: it doubles from there to [`IO_BUF`] as
/// the output needs it, so that one short message written through
/// `to_writer` does not pay for the full buffer.
const IO_BUF_FIRST: usize = 256;

/// Adapts a [`std::io::Write`] with an internal buffer.
///
/// Call [`IoWriter::flush`] (or [`IoWriter::into_inner`]) at the end; dropping
/// the writer also flushes, ignoring errors, as `BufWriter` does.
///
/// `Interrupted` errors of the inner writer are retried. Any other error
/// (or a write that accepts no bytes: `WriteZero`) is returned as
/// [`ErrorKind::Io`](crate::ErrorKind::Io) with
/// [`Error::bytes_written`] set to the number of bytes the inner writer
/// accepted before it failed (across the whole life of this `IoWriter`):
/// exactly those bytes are in the writer. Bytes it accepted are never
/// sent again (a later flush, or the one on drop, sends only the rest).
pub struct IoWriter<W: std::io::Write> {
    inner: Option<W>,
    buf: Vec<u8>,
    flushed: u64,
}

impl<W: std::io::Write> IoWriter<W> {
    /// Wraps `inner`. The buffer starts at 256 bytes and doubles up to
    /// 8 KB as the output needs it.
    pub fn new(inner: W) -> Self {
        IoWriter {
            inner: Some(inner),
            buf: Vec::with_capacity(IO_BUF_FIRST),
            flushed: 0,
        }
    }

    fn inner(&mut self) -> &mut W {
        self.inner.as_mut().expect("IoWriter used after into_inner")
    }

    /// Writes the buffered bytes through to the inner writer and flushes it.
    pub fn flush(&mut self) -> Result<()> {
        self.flush_buf()?;
        let written = self.flushed;
        self.inner()
            .flush()
            .map_err(|e| Error::from(e).with_bytes_written(written))
    }

    fn flush_buf(&mut self) -> Result<()> {
        if !self.buf.is_empty() {
            let buf = std::mem::take(&mut self.buf);
            let (sent, res) = self.send(&buf);
            self.buf = buf;
            // Keep only what the inner writer has not accepted.
            self.buf.drain(..sent);
            res?;
        }
        Ok(())
    }

    /// Writes `data` to the inner writer, retrying `Interrupted` and counting
    /// every byte accepted; returns how many were (all of them unless the
    /// result is an error).
    fn send(&mut self, data: &[u8]) -> (usize, Result<()>) {
        let Some(inner) = self.inner.as_mut() else {
            return (0, Ok(()));
        };
        let mut sent = 0;
        while let Some(rest) = data.get(sent..).filter(|r| !r.is_empty()) {
            match inner.write(rest) {
                Ok(0) => {
                    let e = std::io::Error::from(std::io::ErrorKind::WriteZero);
                    return (sent, Err(self.failed(e, sent)));
                }
                Ok(n) => {
                    // A writer claiming more than it was given counts as all of it.
                    let n = n.min(rest.len());
                    sent += n;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return (sent, Err(self.failed(e, sent))),
            }
        }
        self.flushed += sent as u64;
        (sent, Ok(()))
    }

    /// The error for a failed inner write, after `sent` more bytes were accepted.
    #[cold]
    fn failed(&mut self, e: std::io::Error, sent: usize) -> Error {
        self.flushed += sent as u64;
        Error::from(e).with_bytes_written(self.flushed)
    }

    /// Flushes and returns the inner writer.
    pub fn into_inner(mut self) -> Result<W> {
        self.flush()?;
        Ok(self.inner.take().expect("IoWriter used after into_inner"))
    }

    /// [`Write::write_all`] when `buf` does not fit in the buffer's
    /// capacity: sends the buffered bytes first if the two together would
    /// pass [`IO_BUF`] (and `buf` straight through if it alone would), else
    /// grows the buffer to twice its capacity or what they need, at most
    /// `IO_BUF`. The capacity stays within `IO_BUF` (exact reservations),
    /// so that `write_all` needs one check.
    #[inline(never)]
    fn write_all_slow(&mut self, buf: &[u8]) -> Result<()> {
        if self.buf.len() + buf.len() > IO_BUF {
            self.flush_buf()?;
            if buf.len() > IO_BUF {
                return self.send(buf).1;
            }
        }
        let (len, n) = (self.buf.len(), buf.len());
        if self.buf.capacity() - len < n {
            let want = (2 * self.buf.capacity()).min(IO_BUF).max(len + n);
            self.buf.reserve_exact(want - len);
        }
        self.buf.extend_from_slice(buf);
        Ok(())
    }

    /// Bytes that the inner writer accepted so far.
    pub fn bytes_flushed(&self) -> u64 {
        self.flushed
    }
}

impl<W: std::io::Write> Write for IoWriter<W> {
    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> Result<()> {
        if buf.len() > self.buf.capacity() - self.buf.len() {
            return self.write_all_slow(buf);
        }
        self.buf.extend_from_slice(buf);
        Ok(())
    }

    #[inline]
    fn bytes_written(&self) -> u64 {
        self.flushed + self.buf.len() as u64
    }
}

impl<W: std::io::Write> Drop for IoWriter<W> {
    fn drop(&mut self) {
        if self.inner.is_some() {
            let _ = self.flush_buf();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_slices_of_every_length_are_appended_exactly() {
        // Every length through the short path and past it, onto buffers
        // whose spare capacity is zero, small and large, so that each
        // branch of `copy_short` runs at a growth boundary too.
        for len in 0..=40usize {
            let src: Vec<u8> = (0..len as u8).map(|b| b.wrapping_mul(37) | 1).collect();
            for cap in [0usize, 1, 7, 31, 32, 33, 100] {
                let mut v = Vec::with_capacity(cap);
                v.extend_from_slice(b"head");
                v.write_short(&src).unwrap();
                v.write_short(&src[..len / 2]).unwrap();
                // Through the `&mut T` forwarding impl.
                Write::write_short(&mut &mut v, &src[..len / 3]).unwrap();
                let mut want = b"head".to_vec();
                want.extend_from_slice(&src);
                want.extend_from_slice(&src[..len / 2]);
                want.extend_from_slice(&src[..len / 3]);
                assert_eq!(v, want, "len {len}, capacity {cap}");
            }
        }
    }

    #[test]
    fn filled_blocks_append_only_what_was_written() {
        // Every length a 40-byte block can report (and one past it, which
        // is cut to the block), onto buffers at and off growth boundaries.
        for n in 0..=41usize {
            let fill = |block: &mut [u8; 40]| {
                assert!(block.iter().all(|&b| b == 0), "the block is zeroed");
                for (i, b) in block.iter_mut().enumerate() {
                    *b = i as u8 + 1;
                }
                n
            };
            let want: Vec<u8> = b"head".iter().copied().chain(1..=n.min(40) as u8).collect();
            for cap in [0usize, 4, 5, 43, 44, 45, 100] {
                let mut v = Vec::with_capacity(cap);
                v.extend_from_slice(b"head");
                v.write_fill(fill).unwrap();
                assert_eq!(v, want, "n {n}, capacity {cap}");
                // Through the `&mut T` forwarding impl.
                let mut v = b"head".to_vec();
                Write::write_fill(&mut &mut v, fill).unwrap();
                assert_eq!(v, want, "n {n}, by reference");
            }
            // IoWriter (the default method) agrees.
            let mut w = IoWriter::new(Vec::new());
            w.write_all(b"head").unwrap();
            w.write_fill(fill).unwrap();
            assert_eq!(w.into_inner().unwrap(), want, "n {n}, IoWriter");
        }
    }

    #[test]
    fn headed_items_of_every_length_are_appended_exactly() {
        // Every header length, and every body length through the one-block
        // path (64 bytes) and past it, onto buffers at and off growth
        // boundaries, directly, by reference and through an `IoWriter`.
        let head = 0x8483_8281_u32;
        for head_len in 0..=4usize {
            for len in 0..=70usize {
                let body: Vec<u8> = (0..len as u8).map(|b| b.wrapping_mul(41) | 1).collect();
                let mut want = b"head".to_vec();
                want.extend_from_slice(&head.to_le_bytes()[..head_len]);
                want.extend_from_slice(&body);
                for cap in [0usize, 4, 5, 63, 64, 68, 69, 200] {
                    let mut v = Vec::with_capacity(cap);
                    v.extend_from_slice(b"head");
                    v.write_headed(head, head_len, &body).unwrap();
                    assert_eq!(v, want, "head {head_len}, body {len}, capacity {cap}");
                    let mut v = b"head".to_vec();
                    Write::write_headed(&mut &mut v, head, head_len, &body).unwrap();
                    assert_eq!(v, want, "head {head_len}, body {len}, by reference");
                }
                let mut w = IoWriter::new(Vec::new());
                w.write_all(b"head").unwrap();
                w.write_headed(head, head_len, &body).unwrap();
                assert_eq!(w.into_inner().unwrap(), want, "IoWriter");
            }
        }
    }

    #[test]
    fn short_copies_of_every_length_are_exact() {
        for n in 0..=80usize {
            let src: Vec<u8> = (0..n as u8).map(|b| b.wrapping_mul(29) | 0x80).collect();
            let mut dst = [0u8; 80];
            assert_eq!(copy_short(&mut dst, &src), n);
            assert_eq!(&dst[..n], &src[..], "{n}");
            assert!(
                dst[n..].iter().all(|&b| b == 0),
                "{n}: nothing past the copy"
            );
        }
    }

    #[test]
    fn words_append_only_their_prefix() {
        let mut v = b"say ".to_vec();
        v.write_word(*b"hello, world!!!!", 5).unwrap();
        v.write_word([b'x'; 16], 0).unwrap();
        // Through the `&mut T` forwarding impl.
        let mut by_ref: &mut Vec<u8> = &mut v;
        Write::write_word(&mut by_ref, *b"!???????????????", 1).unwrap();
        assert_eq!(v, b"say hello!");
        v.write_word([b'y'; 16], 16).unwrap();
        assert_eq!(v.len(), 10 + 16);
        // IoWriter (the default method) agrees.
        let mut w = IoWriter::new(Vec::new());
        let mut want = Vec::new();
        for i in 0..3_000 {
            let len = i % 17;
            w.write_word([i as u8; 16], len).unwrap();
            want.extend(std::iter::repeat_n(i as u8, len));
        }
        assert_eq!(w.into_inner().unwrap(), want);
    }

    #[test]
    fn io_writer_buffers_and_flushes() {
        let mut w = IoWriter::new(Vec::new());
        for i in 0..20_000u32 {
            w.write_byte(i as u8).unwrap();
        }
        w.write_all(&[7u8; 10_000]).unwrap();
        assert_eq!(w.bytes_written(), 30_000);
        let out = w.into_inner().unwrap();
        assert_eq!(out.len(), 30_000);
        assert_eq!(out[256], 0);
        assert_eq!(out[29_999], 7);
    }

    #[test]
    fn io_writer_buffer_grows_from_small_to_full_size_and_no_further() {
        // Writes of every size from 1 to 300 bytes, then ones past the
        // buffer's full size: the inner writer sees every byte once, in
        // order, and only in whole buffers or long writes.
        #[derive(Default)]
        struct Sizes {
            out: Vec<u8>,
            writes: Vec<usize>,
        }
        impl std::io::Write for Sizes {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.out.extend_from_slice(buf);
                self.writes.push(buf.len());
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut w = IoWriter::new(Sizes::default());
        assert_eq!(w.buf.capacity(), IO_BUF_FIRST);
        let mut want = Vec::new();
        let mut capacities = vec![w.buf.capacity()];
        for n in (1..=300usize).chain([IO_BUF, IO_BUF + 1, 5]) {
            let chunk: Vec<u8> = (0..n).map(|i| (i * 31 + n) as u8).collect();
            w.write_all(&chunk).unwrap();
            want.extend_from_slice(&chunk);
            assert!(w.buf.len() <= IO_BUF && w.buf.capacity() <= IO_BUF);
            if capacities.last() != Some(&w.buf.capacity()) {
                capacities.push(w.buf.capacity());
            }
        }
        assert_eq!(w.bytes_written(), want.len() as u64);
        let inner = w.into_inner().unwrap();
        assert_eq!(inner.out, want);
        // Doubling from the first size to the full one.
        assert_eq!(capacities, [256, 512, 1024, 2048, 4096, IO_BUF]);
        // Whole buffers (each write that would not fit sends the buffer
        // first), the long writes straight through, the rest at the end.
        let (last, full) = inner.writes.split_last().unwrap();
        assert!(full.iter().all(|&n| n > IO_BUF / 2), "{:?}", inner.writes);
        assert_eq!(*last, 5);

        // A first write past the first size: the capacity goes off the
        // doubling steps, and still stops at the full size.
        let mut w = IoWriter::new(Vec::new());
        w.write_all(&[1; 1_000]).unwrap();
        for i in 0..20_000u32 {
            w.write_all(&i.to_le_bytes()[..3]).unwrap();
            assert!(w.buf.capacity() <= IO_BUF, "{}", w.buf.capacity());
        }
        assert_eq!(w.into_inner().unwrap().len(), 61_000);
    }

    #[test]
    fn io_writer_reports_errors() {
        struct Failing;
        impl std::io::Write for Failing {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut w = IoWriter::new(Failing);
        w.write_all(b"abc").unwrap();
        let err = w.flush().unwrap_err();
        assert!(err.to_string().contains("disk full"));
    }

    /// Accepts `limit` bytes, at most `chunk` per call, returning
    /// `Interrupted` before every other call; then fails.
    struct Flaky {
        out: Vec<u8>,
        limit: usize,
        chunk: usize,
        calls: usize,
    }

    impl std::io::Write for Flaky {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.calls += 1;
            if self.calls % 2 == 1 {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(self.chunk).min(self.limit - self.out.len());
            if n == 0 {
                return Err(std::io::Error::other("disk full"));
            }
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn io_writer_counts_what_the_writer_accepted() {
        let data: Vec<u8> = (0..30_000u32).map(|i| i as u8).collect();
        for limit in [0, 5, 8192, 10_000, 20_000] {
            let mut w = IoWriter::new(Flaky {
                out: Vec::new(),
                limit,
                chunk: 1000,
                calls: 0,
            });
            let res = data.chunks(100).try_for_each(|c| w.write_all(c));
            let err = res.and_then(|()| w.flush()).unwrap_err();
            assert_eq!(err.bytes_written(), Some(limit as u64));
            assert_eq!(w.bytes_flushed(), limit as u64);
            let inner = w.inner.take().unwrap();
            assert_eq!(inner.out[..], data[..limit]);
        }
        // A large write that bypasses the buffer, retried through Interrupted.
        let mut w = IoWriter::new(Flaky {
            out: Vec::new(),
            limit: usize::MAX,
            chunk: 777,
            calls: 0,
        });
        w.write_all(&data[..10]).unwrap();
        w.write_all(&data[10..]).unwrap();
        assert_eq!(w.into_inner().unwrap().out, data);
    }

    #[test]
    fn io_writer_never_resends_accepted_bytes() {
        // Fails after 5 bytes; a later flush (here, on drop) sends only the rest.
        let mut out = Vec::new();
        {
            let mut w = IoWriter::new(Flaky {
                out: Vec::new(),
                limit: 5,
                chunk: 1000,
                calls: 0,
            });
            w.write_all(b"0123456789").unwrap();
            assert_eq!(w.flush().unwrap_err().bytes_written(), Some(5));
            if let Some(inner) = w.inner.as_mut() {
                inner.limit = usize::MAX;
            }
            w.flush().unwrap();
            out.extend_from_slice(&w.inner.as_ref().unwrap().out);
        }
        assert_eq!(out, b"0123456789");
    }
}

//! Byte sources the decoders read from.
//!
//! [`SliceReader`] reads from a `&'de [u8]` and hands out borrowed
//! sub-slices, so decoded values can borrow from the input (`&'de str`,
//! `&'de [u8]`, `Cow<'de, str>`). [`IoReader`] reads from any
//! [`std::io::Read`] through its own buffer.

use crate::error::{Error, Result};
use std::ops::Deref;

/// A slice that either borrows from the input (`'de`) or from a scratch
/// buffer that lives only until the next read (`'s`).
#[derive(Debug)]
pub enum Reference<'de, 's, T: ?Sized> {
    /// Borrowed from the input for the whole decode: can be kept.
    Borrowed(&'de T),
    /// Copied into a scratch buffer: valid until the next read.
    Copied(&'s T),
}

impl<T: ?Sized> Deref for Reference<'_, '_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match *self {
            Reference::Borrowed(b) => b,
            Reference::Copied(c) => c,
        }
    }
}

impl<'de, 's> Reference<'de, 's, [u8]> {
    /// Checks that the bytes are UTF-8 and returns them as text.
    #[inline]
    pub fn into_str(self) -> Result<Reference<'de, 's, str>> {
        Ok(match self {
            Reference::Borrowed(b) => Reference::Borrowed(crate::str_from_utf8(b)?),
            Reference::Copied(b) => Reference::Copied(crate::str_from_utf8(b)?),
        })
    }
}

/// The big-endian unsigned integer in the `n` (at most 8) bytes of `bytes`
/// that start at `at`; `None` when they are not all there. Format drivers
/// use it to read a length or value in an item's head from bytes they
/// have only peeked at ([`Read::peek_bytes`]).
#[inline]
pub fn be_uint(bytes: &[u8], at: usize, n: usize) -> Option<u64> {
    let bytes = bytes.get(at..at.checked_add(n)?)?;
    Some(bytes.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
}

/// A byte source for the decoders.
///
/// Offsets count bytes consumed since the reader was made. Every method that
/// needs more bytes than remain returns an [`ErrorKind::UnexpectedEof`](crate::ErrorKind)
/// error; nothing here allocates more than the bytes actually delivered.
pub trait Read<'de> {
    /// `true` when [`Read::fill_buf`] always returns every byte left in the
    /// input (a slice's reader): a scan that reaches the end of that buffer
    /// has reached the end of the input, so a number there has ended. The
    /// default, `false`, makes no such promise.
    const HOLDS_REST: bool = false;

    /// Offset of the next unread byte.
    fn offset(&self) -> u64;

    /// The next byte without consuming it; `None` at the end of input.
    fn peek(&mut self) -> Result<Option<u8>>;

    /// Consumes and returns the next byte.
    fn read_u8(&mut self) -> Result<u8>;

    /// Consumes exactly `N` bytes.
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]>;

    /// Consumes `n` bytes, borrowing them from the input where possible.
    /// Otherwise they are `Copied`: lent from the reader's own buffer when
    /// they are all in it, else copied into `scratch` (cleared first).
    fn read_slice<'s>(
        &'s mut self,
        n: usize,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>>;

    /// Consumes `n` bytes and appends them to `out`.
    fn read_into(&mut self, n: usize, out: &mut Vec<u8>) -> Result<()>;

    /// Skips `n` bytes.
    fn skip(&mut self, n: usize) -> Result<()>;

    /// The buffered bytes not yet consumed, refilling when empty; empty only at
    /// the end of input. Use with [`Read::consume`] to scan quickly.
    fn fill_buf(&mut self) -> Result<&[u8]>;

    /// Marks `n` bytes of the last [`Read::fill_buf`] as consumed.
    fn consume(&mut self, n: usize);

    /// Up to `n` unconsumed bytes, without consuming them: fewer than `n`
    /// only at the end of input. Lets a format look at a whole item head
    /// (CBOR: a tag number, or the argument of a negative integer) before
    /// choosing how to read it. Readers keep at least 64 bytes of lookahead.
    ///
    /// The default returns [`Read::fill_buf`], which may be shorter than `n`
    /// before the end of input; the readers of this crate override it.
    fn peek_bytes(&mut self, n: usize) -> Result<&[u8]> {
        let _ = n;
        self.fill_buf()
    }

    /// How many bytes are known to remain, if the reader knows (a slice does).
    /// Bounds what is reserved for a declared length
    /// ([`Decoder::prealloc`](crate::Decoder::prealloc)).
    fn remaining_hint(&self) -> Option<usize>;

    /// Starts recording the bytes consumed from here on (for `Raw` capture).
    fn start_capture(&mut self);

    /// Asks the reader to count lines in what it consumes, for
    /// [`Read::line_column`] (a text format's decoder asks, once, before
    /// reading). Defaults to nothing.
    fn track_lines(&mut self) {}

    /// The line and column (from 1, the column in bytes) of offset `at`,
    /// where the reader can tell: a slice always; an [`IoReader`] asked to
    /// [`track_lines`](Read::track_lines) for an offset in its buffer or
    /// on one of the last 8 lines before it. For placing an error in a
    /// text. Defaults to `None`.
    fn line_column(&self, at: u64) -> Option<(u64, u64)> {
        let _ = at;
        None
    }

    /// Starts recording as [`Read::start_capture`] does, but from offset
    /// `at`, already consumed, when the reader still holds the bytes from
    /// there on (a slice always; a buffered reader while no refill has
    /// moved past them); returns false, recording nothing, when it does
    /// not. For an item a format read ahead before it was captured.
    /// Defaults to false.
    fn start_capture_at(&mut self, at: u64) -> bool {
        let _ = at;
        false
    }

    /// Stops recording and returns the bytes consumed since
    /// [`Read::start_capture`], borrowed from the input when possible.
    fn end_capture<'s>(&'s mut self, scratch: &'s mut Vec<u8>) -> Reference<'de, 's, [u8]>;

    /// The bytes consumed from offset `at` up to the current offset, where
    /// the reader still holds them (a slice always; a buffered reader while
    /// they are still in its buffer), else `None`. For error paths that look
    /// back at an item already read, to locate it precisely
    /// ([`Decoder::item_start`](crate::Decoder::item_start)). Defaults to `None`.
    fn consumed_since(&self, at: u64) -> Option<&[u8]> {
        let _ = at;
        None
    }
}

/// How many of the last lines' starts a [`LineCount`] keeps: an error's
/// offset may lie before bytes a reader has already counted (a token read
/// across refills, and the few bytes of lookahead after it), on one of
/// these lines.
const LINES_KEPT: usize = 8;

/// The lines counted over the bytes of a text read so far, to give an
/// offset's line and column.
#[derive(Debug, Clone, Copy)]
struct LineCount {
    /// `\n` bytes seen: the last line is line `newlines + 1`.
    newlines: u64,
    /// The offset where line `n` starts, at `n % LINES_KEPT`, for the last
    /// `LINES_KEPT` lines.
    starts: [u64; LINES_KEPT],
}

impl Default for LineCount {
    fn default() -> Self {
        // Line 1 starts at 0 (and the other slots are not read until set).
        LineCount {
            newlines: 0,
            starts: [0; LINES_KEPT],
        }
    }
}

impl LineCount {
    /// Counts `bytes`, which start at offset `from` and follow what was counted.
    fn advance(&mut self, bytes: &[u8], from: u64) {
        let total = memchr::memchr_iter(b'\n', bytes).count() as u64;
        if total == 0 {
            return;
        }
        self.newlines += total;
        // The starts of the last lines begun in `bytes`, latest first.
        let mut line = self.newlines + 1;
        for i in memchr::memrchr_iter(b'\n', bytes).take(LINES_KEPT) {
            self.starts[(line % LINES_KEPT as u64) as usize] = from + i as u64 + 1;
            line -= 1;
        }
    }

    /// The line and column (from 1, the column in bytes) of offset `at`,
    /// on one of the last lines counted; `None` before them.
    fn at(&self, at: u64) -> Option<(u64, u64)> {
        let last = self.newlines + 1;
        let first = last.saturating_sub(LINES_KEPT as u64 - 1).max(1);
        (first..=last).rev().find_map(|line| {
            let start = self.starts[(line % LINES_KEPT as u64) as usize];
            (start <= at).then(|| (line, at - start + 1))
        })
    }
}

/// Reads from a byte slice; decoded values may borrow from it.
#[derive(Debug, Clone)]
pub struct SliceReader<'de> {
    input: &'de [u8],
    pos: usize,
    capture: usize,
}

impl<'de> SliceReader<'de> {
    /// Reads `input` from its start.
    #[inline]
    pub fn new(input: &'de [u8]) -> Self {
        SliceReader {
            input,
            pos: 0,
            capture: 0,
        }
    }

    /// The bytes not yet consumed.
    #[inline]
    pub fn remaining(&self) -> &'de [u8] {
        &self.input[self.pos..]
    }

    #[cold]
    fn eof(&self) -> Error {
        Error::eof().at(self.input.len() as u64)
    }
}

impl<'de> Read<'de> for SliceReader<'de> {
    const HOLDS_REST: bool = true;

    #[inline]
    fn offset(&self) -> u64 {
        self.pos as u64
    }

    #[inline]
    fn peek(&mut self) -> Result<Option<u8>> {
        Ok(self.input.get(self.pos).copied())
    }

    #[inline]
    fn read_u8(&mut self) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof()),
        }
    }

    /// Always inlined: a call returned the array through memory and cost
    /// more than the read (MessagePack's 2-, 4- and 8-byte integer bodies).
    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.input.get(self.pos..self.pos + N) {
            Some(s) => {
                self.pos += N;
                let mut out = [0u8; N];
                out.copy_from_slice(s);
                Ok(out)
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn read_slice<'s>(
        &'s mut self,
        n: usize,
        _scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        if n > self.input.len() - self.pos {
            return Err(self.eof());
        }
        let s = &self.input[self.pos..self.pos + n];
        self.pos += n;
        Ok(Reference::Borrowed(s))
    }

    #[inline]
    fn read_into(&mut self, n: usize, out: &mut Vec<u8>) -> Result<()> {
        if n > self.input.len() - self.pos {
            return Err(self.eof());
        }
        out.extend_from_slice(&self.input[self.pos..self.pos + n]);
        self.pos += n;
        Ok(())
    }

    #[inline]
    fn skip(&mut self, n: usize) -> Result<()> {
        if n > self.input.len() - self.pos {
            return Err(self.eof());
        }
        self.pos += n;
        Ok(())
    }

    #[inline]
    fn fill_buf(&mut self) -> Result<&[u8]> {
        Ok(&self.input[self.pos..])
    }

    #[inline]
    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.input.len());
    }

    #[inline]
    fn peek_bytes(&mut self, n: usize) -> Result<&[u8]> {
        let rest = &self.input[self.pos..];
        Ok(&rest[..n.min(rest.len())])
    }

    #[inline]
    fn remaining_hint(&self) -> Option<usize> {
        Some(self.input.len() - self.pos)
    }

    #[inline]
    fn start_capture(&mut self) {
        self.capture = self.pos;
    }

    fn line_column(&self, at: u64) -> Option<(u64, u64)> {
        let mut lines = LineCount::default();
        lines.advance(self.input.get(..usize::try_from(at).ok()?)?, 0);
        lines.at(at)
    }

    fn start_capture_at(&mut self, at: u64) -> bool {
        match usize::try_from(at) {
            Ok(at) if at <= self.pos => {
                self.capture = at;
                true
            }
            _ => false,
        }
    }

    #[inline]
    fn end_capture<'s>(&'s mut self, _scratch: &'s mut Vec<u8>) -> Reference<'de, 's, [u8]> {
        Reference::Borrowed(&self.input[self.capture..self.pos])
    }

    fn consumed_since(&self, at: u64) -> Option<&[u8]> {
        self.input.get(usize::try_from(at).ok()?..self.pos)
    }
}

/// Size of the internal buffer of [`IoReader`] once the input has shown
/// itself to be longer than [`IO_BUF_FIRST`].
const IO_BUF: usize = 8 * 1024;

/// Size of [`IoReader`]'s first buffer: small enough that one short
/// message read through `from_reader` does not pay for allocating and
/// zeroing the full buffer (which took longer than decoding it), large
/// enough that most such messages arrive in one read.
const IO_BUF_FIRST: usize = 512;

/// Reads from any [`std::io::Read`] through an internal buffer.
///
/// `Interrupted` errors are retried; other I/O errors are returned as
/// [`ErrorKind::Io`](crate::ErrorKind::Io). Values cannot borrow from this
/// reader: `&'de str` targets fail, `Cow` and owned targets work.
pub struct IoReader<R: std::io::Read> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    /// Offset of `buf[0]` in the stream.
    base: u64,
    /// While capturing ([`Read::start_capture`]), `captured` holds the
    /// bytes consumed before `buf[capture_from..]`: the buffer's own bytes
    /// are appended only when it is about to be overwritten and at the end
    /// of the capture, so that consuming bytes stays a pointer bump.
    capturing: bool,
    capture_from: usize,
    captured: Vec<u8>,
    /// When asked to [`track_lines`](Read::track_lines): the lines of the
    /// bytes before `base`.
    lines: Option<LineCount>,
    /// The byte before `buf[0]` (at `base - 1`, when `base > 0`): what
    /// [`Read::consumed_since`] gives for the last byte consumed just
    /// after a refill, as a slice would (JSON names a leading zero by it).
    before: u8,
}

/// A zeroed buffer of `size` bytes, allocated and then zeroed rather than
/// allocated zeroed: glibc's `calloc` (2.36 here) does not take from its
/// per-thread cache, and going to its bins and back for each reader cost
/// more than decoding a short message.
#[allow(clippy::slow_vector_initialization)] // `vec![0; size]` is the `calloc` above.
fn zeroed(size: usize) -> Box<[u8]> {
    let mut buf = Vec::with_capacity(size);
    buf.resize(size, 0);
    buf.into_boxed_slice()
}

impl<R: std::io::Read> IoReader<R> {
    /// Wraps `inner`. Nothing is allocated or read until the first read:
    /// the buffer starts at 512 bytes and grows to 8 KB once a read fills it.
    pub fn new(inner: R) -> Self {
        IoReader {
            inner,
            buf: Box::default(),
            pos: 0,
            end: 0,
            base: 0,
            capturing: false,
            capture_from: 0,
            captured: Vec::new(),
            lines: None,
            before: 0,
        }
    }

    /// Moves `base` past the first `n` buffered bytes, counting their
    /// lines when asked to.
    #[inline]
    fn move_base(&mut self, n: usize) {
        if let Some(lines) = &mut self.lines {
            lines.advance(&self.buf[..n], self.base);
        }
        if let Some(&last) = n.checked_sub(1).and_then(|i| self.buf.get(i)) {
            self.before = last;
        }
        self.base += n as u64;
    }

    /// Returns the inner reader. Bytes buffered but not consumed are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Refills the buffer; returns false at the end of input. Out of line:
    /// it runs once per buffer, and the checks that lead to it stay small
    /// enough to inline into every read.
    #[inline(never)]
    fn refill(&mut self) -> Result<bool> {
        debug_assert!(self.pos == self.end);
        self.save_capture();
        let kept = self.end;
        let (lines, before) = (self.lines, self.before);
        self.move_base(kept);
        self.pos = 0;
        let replaced = kept == self.buf.len() && self.buf.len() < IO_BUF;
        if replaced {
            // The first read, or a read that filled the first buffer (the
            // input may well go on): nothing in the buffer is kept.
            let size = if self.buf.is_empty() {
                IO_BUF_FIRST
            } else {
                IO_BUF
            };
            self.buf = zeroed(size);
        }
        self.end = 0;
        loop {
            match self.inner.read(&mut self.buf) {
                Ok(0) => {
                    if !replaced {
                        // The end of input, and the buffer untouched: its
                        // bytes stay readable behind the position, as a
                        // slice's do, for `consumed_since` (a number that
                        // ends the input has to look for more to end).
                        self.base -= kept as u64;
                        self.lines = lines;
                        self.before = before;
                        self.pos = kept;
                        self.end = kept;
                        self.capture_from = kept;
                    }
                    return Ok(false);
                }
                Ok(n) => {
                    self.end = n;
                    return Ok(true);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::from(e).at(self.base)),
            }
        }
    }

    /// Consumes `n` buffered bytes.
    #[inline(always)]
    fn take(&mut self, n: usize) {
        self.pos += n;
    }

    /// While capturing, appends the bytes consumed from the buffer since
    /// the last call, before the buffer's bytes move or are overwritten;
    /// the capture goes on from the buffer's start.
    fn save_capture(&mut self) {
        if self.capturing {
            self.captured
                .extend_from_slice(&self.buf[self.capture_from..self.pos]);
            self.capture_from = 0;
        }
    }

    #[cold]
    fn eof(&self) -> Error {
        Error::eof().at(self.base + self.pos as u64)
    }

    /// Copies `n` bytes into `out`: in one step when they are buffered
    /// (nearly always: a string or a key), else [`IoReader::copy_out_slow`].
    #[inline]
    fn copy_out(&mut self, n: usize, out: &mut Vec<u8>) -> Result<()> {
        if n <= self.end - self.pos {
            out.extend_from_slice(&self.buf[self.pos..self.pos + n]);
            self.take(n);
            return Ok(());
        }
        self.copy_out_slow(n, out)
    }

    /// Copies `n` bytes into `out`, chunk by chunk (no allocation beyond what arrives).
    #[inline(never)]
    fn copy_out_slow(&mut self, mut n: usize, out: &mut Vec<u8>) -> Result<()> {
        while n > 0 {
            if self.pos == self.end && !self.refill()? {
                return Err(self.eof());
            }
            let k = n.min(self.end - self.pos);
            out.extend_from_slice(&self.buf[self.pos..self.pos + k]);
            self.take(k);
            n -= k;
        }
        Ok(())
    }

    /// Skips `n` bytes across refills.
    #[inline(never)]
    fn skip_slow(&mut self, mut n: usize) -> Result<()> {
        while n > 0 {
            if self.pos == self.end && !self.refill()? {
                return Err(self.eof());
            }
            let k = n.min(self.end - self.pos);
            self.take(k);
            n -= k;
        }
        Ok(())
    }

    /// [`Read::read_array`] across a refill.
    #[inline(never)]
    fn read_array_slow<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        for b in out.iter_mut() {
            *b = Read::read_u8(self)?;
        }
        Ok(out)
    }
}

impl<'de, R: std::io::Read> Read<'de> for IoReader<R> {
    #[inline]
    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    #[inline]
    fn peek(&mut self) -> Result<Option<u8>> {
        if self.pos == self.end && !self.refill()? {
            return Ok(None);
        }
        Ok(Some(self.buf[self.pos]))
    }

    #[inline]
    fn read_u8(&mut self) -> Result<u8> {
        if self.pos == self.end && !self.refill()? {
            return Err(self.eof());
        }
        let b = self.buf[self.pos];
        self.take(1);
        Ok(b)
    }

    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        if let Some(&out) = self.buf[self.pos..self.end].first_chunk::<N>() {
            self.take(N);
            return Ok(out);
        }
        self.read_array_slow()
    }

    fn read_slice<'s>(
        &'s mut self,
        n: usize,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        // Bytes already buffered are lent out of the buffer, not copied to
        // `scratch` first: a string read into a `String` is copied once.
        if n <= self.end - self.pos {
            let at = self.pos;
            self.take(n);
            return Ok(Reference::Copied(&self.buf[at..at + n]));
        }
        scratch.clear();
        self.copy_out_slow(n, scratch)?;
        Ok(Reference::Copied(&scratch[..]))
    }

    #[inline]
    fn read_into(&mut self, n: usize, out: &mut Vec<u8>) -> Result<()> {
        self.copy_out(n, out)
    }

    #[inline]
    fn skip(&mut self, n: usize) -> Result<()> {
        if n <= self.end - self.pos {
            self.take(n);
            return Ok(());
        }
        self.skip_slow(n)
    }

    #[inline(always)]
    fn fill_buf(&mut self) -> Result<&[u8]> {
        if self.pos == self.end {
            self.refill()?;
        }
        Ok(&self.buf[self.pos..self.end])
    }

    #[inline(always)]
    fn consume(&mut self, n: usize) {
        let n = n.min(self.end - self.pos);
        self.take(n);
    }

    fn peek_bytes(&mut self, n: usize) -> Result<&[u8]> {
        let n = n.min(IO_BUF);
        if self.end - self.pos < n {
            // Move the unread bytes to the front (of a full-size buffer if
            // `n` would not fit) and read until `n` are buffered.
            self.save_capture();
            self.move_base(self.pos);
            if n > self.buf.len() {
                let mut grown = zeroed(IO_BUF);
                grown[..self.end - self.pos].copy_from_slice(&self.buf[self.pos..self.end]);
                self.buf = grown;
            } else {
                self.buf.copy_within(self.pos..self.end, 0);
            }
            self.end -= self.pos;
            self.pos = 0;
            while self.end < n {
                match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(0) => break,
                    Ok(k) => self.end += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(Error::from(e).at(self.base + self.end as u64)),
                }
            }
        }
        Ok(&self.buf[self.pos..self.end.min(self.pos + n)])
    }

    #[inline]
    fn remaining_hint(&self) -> Option<usize> {
        None
    }

    fn start_capture(&mut self) {
        self.capturing = true;
        self.capture_from = self.pos;
        self.captured.clear();
    }

    fn track_lines(&mut self) {
        if self.lines.is_none() && self.base == 0 {
            self.lines = Some(LineCount::default());
        }
    }

    /// Exact for any offset in the buffer, and for one before it on one of
    /// the last 8 lines counted (a token read across refills has no `\n`,
    /// and the lookahead after it few).
    fn line_column(&self, at: u64) -> Option<(u64, u64)> {
        let mut lines = self.lines?;
        if let Some(from) = at.checked_sub(self.base) {
            let held = self.buf[..self.end].get(..usize::try_from(from).ok()?)?;
            lines.advance(held, self.base);
        }
        lines.at(at)
    }

    /// `buf[..pos]` holds the bytes from offset `base` on (as for
    /// [`Read::consumed_since`]).
    fn start_capture_at(&mut self, at: u64) -> bool {
        match at
            .checked_sub(self.base)
            .and_then(|a| usize::try_from(a).ok())
        {
            Some(from) if from <= self.pos => {
                self.capturing = true;
                self.capture_from = from;
                self.captured.clear();
                true
            }
            _ => false,
        }
    }

    fn end_capture<'s>(&'s mut self, scratch: &'s mut Vec<u8>) -> Reference<'de, 's, [u8]> {
        self.save_capture();
        self.capturing = false;
        std::mem::swap(scratch, &mut self.captured);
        self.captured.clear();
        Reference::Copied(&scratch[..])
    }

    /// `buf[..pos]` holds the bytes from offset `base` on: those since `at`
    /// while no refill has moved past it.
    /// Also the one byte before the buffer, when nothing of the buffer is
    /// consumed yet.
    fn consumed_since(&self, at: u64) -> Option<&[u8]> {
        if self.pos == 0 && self.base > 0 && at == self.base - 1 {
            return Some(std::slice::from_ref(&self.before));
        }
        let from = usize::try_from(at.checked_sub(self.base)?).ok()?;
        self.buf.get(from..self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_endian_integers_from_peeked_bytes() {
        let b = [0x01, 0x02, 0x03, 0x04, 0xff];
        assert_eq!(be_uint(&b, 0, 1), Some(1));
        assert_eq!(be_uint(&b, 1, 2), Some(0x0203));
        assert_eq!(be_uint(&b, 0, 4), Some(0x0102_0304));
        assert_eq!(be_uint(&b, 4, 1), Some(0xff));
        assert_eq!(be_uint(&b, 2, 0), Some(0));
        assert_eq!(be_uint(&[0xff; 8], 0, 8), Some(u64::MAX));
        // Not all there.
        assert_eq!(be_uint(&b, 3, 4), None);
        assert_eq!(be_uint(&b, 6, 1), None);
        assert_eq!(be_uint(&b, usize::MAX, 2), None);
    }

    #[test]
    fn capture_from_an_earlier_offset_while_the_bytes_are_held() {
        let data: Vec<u8> = (0..=255).cycle().take(3 * IO_BUF).collect();
        let mut scratch = Vec::new();
        let mut s = SliceReader::new(&data);
        s.skip(10).unwrap();
        assert!(!s.start_capture_at(11));
        assert!(s.start_capture_at(4));
        s.skip(2).unwrap();
        assert_eq!(&*s.end_capture(&mut scratch), &data[4..12]);

        let mut r = IoReader::new(&data[..]);
        r.skip(10).unwrap();
        assert!(!r.start_capture_at(11));
        assert!(r.start_capture_at(4));
        // Across refills: the bytes from 4 on are kept as the buffer moves.
        r.skip(2 * IO_BUF).unwrap();
        assert_eq!(&*r.end_capture(&mut scratch), &data[4..10 + 2 * IO_BUF]);
        // Bytes before the buffer's start are gone.
        assert!(!r.start_capture_at(4));
    }

    /// Line and column of every offset of a text with long and short lines
    /// and multi-byte characters (columns count bytes), from a slice and
    /// from a reader, whole or a byte at a time, looking back from as far
    /// as 40 bytes on.
    #[test]
    fn line_and_column_of_offsets_already_read() {
        let mut text = Vec::new();
        for i in 0..90 {
            text.extend_from_slice("é".repeat(i % 7).as_bytes());
            text.extend_from_slice(&b"x".repeat(i * 37 % 300));
            text.extend_from_slice(if i % 5 == 0 { b"\n\n" } else { b"\n" });
        }
        let want = |at: usize| {
            let before = &text[..at];
            let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            Some((line, (at - start) as u64 + 1))
        };
        let s = SliceReader::new(&text);
        for at in 0..=text.len() {
            assert_eq!(s.line_column(at as u64), want(at), "slice at {at}");
        }
        assert_eq!(s.line_column(text.len() as u64 + 1), None);
        struct OneByte<'a>(&'a [u8]);
        impl std::io::Read for OneByte<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let Some((&b, rest)) = self.0.split_first() else {
                    return Ok(0);
                };
                buf[0] = b;
                self.0 = rest;
                Ok(1)
            }
        }
        let mut whole = IoReader::new(&text[..]);
        let mut trickle = IoReader::new(OneByte(&text));
        assert_eq!(whole.line_column(0), None, "not asked to track lines");
        whole.track_lines();
        trickle.track_lines();
        for pos in 0..text.len() {
            whole.read_u8().unwrap();
            trickle.read_u8().unwrap();
            for at in (pos.saturating_sub(40)..=pos + 1).step_by(3) {
                let want = want(at);
                assert_eq!(
                    whole.line_column(at as u64),
                    want,
                    "reader at {at} from {pos}"
                );
                // A byte at a time, the lines kept reach back `LINES_KEPT` lines.
                if let Some(got) = trickle.line_column(at as u64) {
                    assert_eq!(Some(got), want, "one byte at a time at {at} from {pos}");
                } else {
                    let lines_after = text[at..=pos].iter().filter(|&&b| b == b'\n').count();
                    assert!(lines_after >= LINES_KEPT - 1, "at {at} from {pos}");
                }
            }
        }
    }

    #[test]
    fn consumed_since_looks_back_while_the_bytes_are_held() {
        let data: Vec<u8> = (0..=255).cycle().take(3 * IO_BUF).collect();
        let mut s = SliceReader::new(&data);
        s.skip(10).unwrap();
        assert_eq!(s.consumed_since(4), Some(&data[4..10]));
        assert_eq!(s.consumed_since(10), Some(&[][..]));
        assert_eq!(s.consumed_since(11), None);
        assert_eq!(s.consumed_since(u64::MAX), None);

        let mut r = IoReader::new(&data[..]);
        r.skip(10).unwrap();
        assert_eq!(r.consumed_since(4), Some(&data[4..10]));
        assert_eq!(r.consumed_since(11), None);
        // Past a refill, the bytes before the new buffer are gone.
        r.skip(IO_BUF).unwrap();
        let at = r.offset();
        assert_eq!(r.consumed_since(4), None);
        r.skip(3).unwrap();
        assert_eq!(
            r.consumed_since(at),
            Some(&data[at as usize..at as usize + 3])
        );
        // `peek_bytes` moves the unread bytes to the front: still exact.
        // Two bytes before the buffer's end:
        let end = r.base + r.end as u64 - 2;
        r.skip((end - r.offset()) as usize).unwrap();
        assert_eq!(
            r.peek_bytes(8).unwrap(),
            &data[end as usize..end as usize + 8]
        );
        r.skip(5).unwrap();
        assert_eq!(
            r.consumed_since(end),
            Some(&data[end as usize..end as usize + 5])
        );
        assert_eq!(r.consumed_since(end - 1), None);
    }

    /// The last byte consumed stays readable just after a refill, also when
    /// every read hands over one byte (each peek refills) and at the end.
    #[test]
    fn the_last_byte_consumed_is_held_across_a_refill() {
        struct OneByte<'a>(&'a [u8]);
        impl std::io::Read for OneByte<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let data: Vec<u8> = (0..=255).cycle().take(IO_BUF + 700).collect();
        for whole in [false, true] {
            let mut r: IoReader<Box<dyn std::io::Read>> = if whole {
                IoReader::new(Box::new(&data[..]))
            } else {
                IoReader::new(Box::new(OneByte(&data)))
            };
            assert_eq!(r.consumed_since(0), Some(&[][..]));
            while r.peek().unwrap().is_some() {
                let at = r.offset();
                if at > 0 {
                    let last = &data[at as usize - 1..at as usize];
                    assert_eq!(r.consumed_since(at - 1), Some(last), "at {at}");
                }
                r.read_u8().unwrap();
            }
            let at = r.offset();
            assert_eq!(at, data.len() as u64);
            assert_eq!(r.consumed_since(at - 1), Some(&data[data.len() - 1..]));
        }
    }

    fn exercise<'de>(r: &mut impl Read<'de>) {
        let mut scratch = Vec::new();
        assert_eq!(r.peek().unwrap(), Some(1));
        assert_eq!(r.read_u8().unwrap(), 1);
        assert_eq!(r.read_array::<3>().unwrap(), [2, 3, 4]);
        r.start_capture();
        assert_eq!(&*r.read_slice(2, &mut scratch).unwrap(), &[5, 6]);
        r.skip(1).unwrap();
        assert_eq!(&*r.end_capture(&mut scratch), &[5, 6, 7]);
        assert_eq!(r.offset(), 7);
        let mut out = Vec::new();
        r.read_into(2, &mut out).unwrap();
        assert_eq!(out, [8, 9]);
        let buf = r.fill_buf().unwrap().to_vec();
        assert_eq!(buf.first(), Some(&10));
        r.consume(1);
        assert_eq!(r.peek_bytes(2).unwrap(), &[11, 12]);
        assert_eq!(r.peek_bytes(5).unwrap(), &[11, 12]);
        assert_eq!(r.offset(), 10);
        let err = r.read_slice(100, &mut scratch).unwrap_err();
        assert!(err.is_eof());
    }

    #[test]
    fn slice_reader() {
        let data: Vec<u8> = (1..=12).collect();
        let mut r = SliceReader::new(&data);
        exercise(&mut r);
    }

    #[test]
    fn io_reader_one_byte_at_a_time_with_interrupts() {
        let data: Vec<u8> = (1..=12).collect();
        let mut r = IoReader::new(codec_test_support::Trickle::new(&data));
        exercise(&mut r);
    }

    #[test]
    fn io_reader_lends_buffered_bytes_and_copies_across_refills() {
        // Three refills' worth, handed over 5,000 bytes per read call.
        struct Chunks<'a>(&'a [u8]);
        impl std::io::Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(5_000);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut r = IoReader::new(Chunks(&data));
        let mut scratch = Vec::new();
        let mut at = 0;
        // Slices of every size from 1 to 600 bytes: within the buffer they
        // are lent from it; those that straddle a refill go through `scratch`.
        let (mut lent, mut copied) = (0, 0);
        for n in (1..=600).cycle() {
            if at + n > data.len() {
                break;
            }
            assert_eq!(
                &*r.read_slice(n, &mut scratch).unwrap(),
                &data[at..at + n],
                "{n} bytes at {at}"
            );
            if scratch.len() == n && scratch[..] == data[at..at + n] {
                copied += 1;
            } else {
                lent += 1;
            }
            at += n;
            assert_eq!(r.offset(), at as u64);
        }
        assert!(lent > 50 && copied >= 3, "lent {lent}, copied {copied}");

        // A capture sees lent, copied, skipped and peeked-then-read bytes
        // alike, across refills.
        let mut r = IoReader::new(Chunks(&data));
        r.skip(4_990).unwrap();
        r.start_capture();
        let mut out = Vec::new();
        r.read_into(5, &mut out).unwrap();
        assert_eq!(
            &*r.read_slice(10, &mut scratch).unwrap(),
            &data[4_995..5_005]
        );
        assert_eq!(
            &*r.read_slice(3, &mut scratch).unwrap(),
            &data[5_005..5_008]
        );
        r.skip(9_000).unwrap();
        assert_eq!(r.read_array::<4>().unwrap(), data[14_008..14_012]);
        // `peek_bytes` past the buffer's end moves its unread bytes.
        r.skip(978).unwrap();
        assert_eq!(r.peek_bytes(64).unwrap(), &data[14_990..15_054]);
        assert_eq!(
            &*r.read_slice(20, &mut scratch).unwrap(),
            &data[14_990..15_010]
        );
        assert_eq!(&*r.end_capture(&mut scratch), &data[4_990..15_010]);
        assert_eq!(out, &data[4_990..4_995]);
        let err = r.read_slice(10_000, &mut scratch).unwrap_err();
        assert!(err.is_eof());
    }

    #[test]
    fn io_reader_buffer_starts_small_and_grows_once_filled() {
        // Nothing is allocated before the first read; a short message is
        // read into the small first buffer, and stays there to its end.
        let short = [7u8; 100];
        let mut r = IoReader::new(&short[..]);
        assert_eq!(r.buf.len(), 0);
        r.skip(100).unwrap();
        assert_eq!(r.peek().unwrap(), None);
        assert_eq!(r.buf.len(), IO_BUF_FIRST);

        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut scratch = Vec::new();
        // A read that fills the first buffer makes the next one full size;
        // a capture across the change keeps every byte.
        let mut r = IoReader::new(&data[..]);
        r.skip(IO_BUF_FIRST - 10).unwrap();
        r.start_capture();
        assert_eq!(
            &*r.read_slice(30, &mut scratch).unwrap(),
            &data[IO_BUF_FIRST - 10..IO_BUF_FIRST + 20]
        );
        assert_eq!(r.buf.len(), IO_BUF);
        assert_eq!(
            &*r.end_capture(&mut scratch),
            &data[IO_BUF_FIRST - 10..IO_BUF_FIRST + 20]
        );
        assert_eq!(r.read_array::<2>().unwrap(), data[532..534]);

        // `peek_bytes` asking for more than the first buffer holds grows it,
        // keeping the unread bytes and a capture's.
        let mut r = IoReader::new(&data[..]);
        r.skip(490).unwrap();
        r.start_capture();
        r.skip(10).unwrap();
        assert_eq!(r.peek_bytes(600).unwrap(), &data[500..1_100]);
        assert_eq!(r.buf.len(), IO_BUF);
        assert_eq!(r.offset(), 500);
        assert_eq!(
            &*r.read_slice(700, &mut scratch).unwrap(),
            &data[500..1_200]
        );
        assert_eq!(&*r.end_capture(&mut scratch), &data[490..1_200]);
        // Reads go on to the end, across full-size refills.
        let mut out = Vec::new();
        r.read_into(data.len() - 1_200, &mut out).unwrap();
        assert_eq!(out, &data[1_200..]);
        assert_eq!(r.peek().unwrap(), None);
    }

    /// Looking for more at the end of input leaves the bytes consumed
    /// where `consumed_since` and a capture find them, once each.
    #[test]
    fn the_end_of_input_keeps_the_buffer() {
        let mut r = IoReader::new(Chunks(vec![b" 12".to_vec(), b"34".to_vec()]));
        let mut scratch = Vec::new();
        r.start_capture();
        assert_eq!(r.fill_buf().unwrap(), b" 12");
        r.consume(3);
        assert_eq!(r.fill_buf().unwrap(), b"34");
        r.consume(2);
        for _ in 0..2 {
            assert_eq!(r.fill_buf().unwrap(), b"");
            assert_eq!(r.offset(), 5);
            assert_eq!(r.consumed_since(3), Some(&b"34"[..]));
            // Bytes of a buffer since refilled are gone.
            assert_eq!(r.consumed_since(1), None);
        }
        assert_eq!(&*r.end_capture(&mut scratch), b" 1234");
        assert!(r.read_u8().unwrap_err().to_string().contains("byte 5"));
    }

    /// Hands out its chunks one per `read`.
    struct Chunks(Vec<Vec<u8>>);

    impl std::io::Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            buf[..chunk.len()].copy_from_slice(&chunk);
            Ok(chunk.len())
        }
    }

    #[test]
    fn slice_borrows() {
        let data = b"hello";
        let mut r = SliceReader::new(data);
        let mut scratch = Vec::new();
        match r.read_slice(5, &mut scratch).unwrap() {
            Reference::Borrowed(b) => assert_eq!(b, b"hello"),
            Reference::Copied(_) => panic!("slice reader must borrow"),
        }
    }
}

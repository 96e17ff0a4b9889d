//! Readers that make an [`std::io::Read`] misbehave in every legal way, for
//! checking that the streaming decoder gives the slice decoder's results.

use std::io;

/// How a [`Trickle`] reader delivers its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One byte per `read` call.
    OneByte,
    /// An `Interrupted` error before every `read` that delivers data, and one byte per call.
    Interrupted,
    /// Chunks of varying small sizes (1, 2, 3, 5, 8, ... bytes).
    Chunks,
    /// As much as the caller's buffer takes, per call: the decoder's
    /// buffer fills, so an input longer than its first, small buffer
    /// makes it grow.
    Fill,
}

/// An [`io::Read`] over a byte slice that delivers data in a hostile way, and
/// optionally fails with a hard error (not `Interrupted`) after `fail_at` bytes.
#[derive(Debug, Clone)]
pub struct Trickle<'a> {
    data: &'a [u8],
    mode: Mode,
    pos: usize,
    calls: usize,
    fail_at: Option<usize>,
}

impl<'a> Trickle<'a> {
    /// A reader over `data` delivering it as `mode` says.
    pub fn new(data: &'a [u8], mode: Mode) -> Self {
        Trickle {
            data,
            mode,
            pos: 0,
            calls: 0,
            fail_at: None,
        }
    }

    /// Fails with an `io::ErrorKind::ConnectionReset` error once `n` bytes are delivered.
    pub fn fail_after(mut self, n: usize) -> Self {
        self.fail_at = Some(n);
        self
    }
}

impl io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.mode == Mode::Interrupted && self.calls % 2 == 1 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.fail_at.is_some_and(|n| self.pos >= n) {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionReset,
                "test reader failed on purpose",
            ));
        }
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let mut want = match self.mode {
            Mode::OneByte | Mode::Interrupted => 1,
            Mode::Chunks => [1, 2, 3, 5, 8, 13, 21][self.calls % 7],
            Mode::Fill => usize::MAX,
        };
        if let Some(n) = self.fail_at {
            want = want.min(n - self.pos);
        }
        let n = want.min(rest.len()).min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

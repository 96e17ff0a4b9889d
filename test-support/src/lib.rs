//! `std::io::Read` sources that the codec crates' tests decode from, so
//! that no item is ever whole in a reader's buffer. Dev-only.
//!
//! ```
//! use std::io::Read;
//! let mut r = codec_test_support::OneByte(b"ab");
//! let mut buf = [0; 4];
//! assert_eq!(r.read(&mut buf).unwrap(), 1);
//! assert_eq!(r.read(&mut buf).unwrap(), 1);
//! assert_eq!(r.read(&mut buf).unwrap(), 0);
//! ```

/// Hands out one byte per `read`.
pub struct OneByte<'a>(pub &'a [u8]);

impl std::io::Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// Hands out one byte per `read`, with an `Interrupted` error before each
/// (which a reader must retry).
pub struct Trickle<'a> {
    one: OneByte<'a>,
    interrupt: bool,
}

impl<'a> Trickle<'a> {
    /// A trickle of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Trickle {
            one: OneByte(data),
            interrupt: false,
        }
    }
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        self.one.read(buf)
    }
}

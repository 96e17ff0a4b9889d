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

/// Inputs for checking a binary format's integer reads against each
/// other: every single byte, then for each `(head, n)` (a descriptor byte
/// followed by an `n`-byte big-endian payload, `n` in 1..=8) and each
/// payload at the edges of the widths and signs (0, 1, `0x7f`, `0xff`,
/// `0x8000`, `0x7fff_ffff`, `i64::MAX`, `2^63`, `u64::MAX`, cut to `n`
/// bytes): the item cut short at every length, the item whole, and the
/// item followed by nine more bytes (which a read of eight bytes at once
/// must not take).
///
/// ```
/// let inputs = codec_test_support::integer_items([(0x11, 2)]);
/// assert!(inputs.contains(&vec![0x11, 0x80, 0x00]));
/// assert!(inputs.contains(&vec![0x11, 0x80])); // cut short
/// assert_eq!(inputs.len(), 256 + 9 * 4);
/// ```
pub fn integer_items(heads: impl IntoIterator<Item = (u8, usize)>) -> Vec<Vec<u8>> {
    const PAYLOADS: [u64; 9] = [
        0,
        1,
        0x7f,
        0xff,
        0x8000,
        0x7fff_ffff,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        u64::MAX,
    ];
    let mut inputs: Vec<Vec<u8>> = (0..=0xffu8).map(|b| vec![b]).collect();
    for (head, n) in heads {
        assert!((1..=8).contains(&n), "a payload of {n} bytes");
        for p in PAYLOADS {
            let mut b = vec![head];
            b.extend_from_slice(&p.to_be_bytes()[8 - n..]);
            for cut in 1..b.len() {
                inputs.push(b[..cut].to_vec());
            }
            inputs.push(b.clone());
            b.extend_from_slice(&[0xa5; 9]);
            inputs.push(b);
        }
    }
    inputs
}

//! Helpers shared by this crate's integration tests.

/// An `io::Read` that hands out one byte per `read`, so that no item is
/// ever whole in a reader's buffer.
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

//! Byte sinks the encoders write into: `Vec<u8>` and any [`std::io::Write`].

use crate::error::Result;

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

    /// Hints that about `additional` more bytes will follow.
    #[inline]
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }

    /// Number of bytes accepted so far (including buffered ones).
    fn bytes_written(&self) -> u64;
}

impl Write for Vec<u8> {
    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> Result<()> {
        self.extend_from_slice(buf);
        Ok(())
    }

    #[inline]
    fn write_byte(&mut self, b: u8) -> Result<()> {
        self.push(b);
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

    #[inline]
    fn reserve(&mut self, additional: usize) {
        (**self).reserve(additional)
    }

    #[inline]
    fn bytes_written(&self) -> u64 {
        (**self).bytes_written()
    }
}

/// Size of the internal buffer of [`IoWriter`].
const IO_BUF: usize = 8 * 1024;

/// Adapts a [`std::io::Write`] with an internal buffer.
///
/// Call [`IoWriter::flush`] (or [`IoWriter::into_inner`]) at the end; dropping
/// the writer also flushes, ignoring errors, as `BufWriter` does.
pub struct IoWriter<W: std::io::Write> {
    inner: Option<W>,
    buf: Vec<u8>,
    flushed: u64,
}

impl<W: std::io::Write> IoWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        IoWriter {
            inner: Some(inner),
            buf: Vec::with_capacity(IO_BUF),
            flushed: 0,
        }
    }

    fn inner(&mut self) -> &mut W {
        self.inner.as_mut().expect("IoWriter used after into_inner")
    }

    /// Writes the buffered bytes through to the inner writer and flushes it.
    pub fn flush(&mut self) -> Result<()> {
        self.flush_buf()?;
        self.inner().flush()?;
        Ok(())
    }

    fn flush_buf(&mut self) -> Result<()> {
        if !self.buf.is_empty() {
            let buf = std::mem::take(&mut self.buf);
            let res = self.inner().write_all(&buf);
            self.buf = buf;
            res?;
            self.flushed += self.buf.len() as u64;
            self.buf.clear();
        }
        Ok(())
    }

    /// Flushes and returns the inner writer.
    pub fn into_inner(mut self) -> Result<W> {
        self.flush()?;
        Ok(self.inner.take().expect("IoWriter used after into_inner"))
    }

    /// Bytes that reached the inner writer so far.
    pub fn bytes_flushed(&self) -> u64 {
        self.flushed
    }
}

impl<W: std::io::Write> Write for IoWriter<W> {
    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> Result<()> {
        if self.buf.len() + buf.len() > IO_BUF {
            self.flush_buf()?;
            if buf.len() > IO_BUF {
                self.inner().write_all(buf)?;
                self.flushed += buf.len() as u64;
                return Ok(());
            }
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
}

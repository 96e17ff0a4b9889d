//! Regression tests from the hardening work: end-of-input offsets from a reader.

use codec_core::{Value, from_reader, from_slice};
use codec_msgpack::MsgpackHandle;

#[test]
fn ext_header_without_type_is_eof_at_the_end_from_slice_and_reader() {
    let h = MsgpackHandle::default();
    for input in [&[0xd6][..], &[0xc7, 0x01][..]] {
        let a = from_slice::<Value, _>(input, &h).unwrap_err();
        let b = from_reader::<Value, _, _>(input, &h).unwrap_err();
        assert!(a.is_eof() && b.is_eof(), "{a} / {b}");
        assert_eq!(a.offset(), Some(input.len() as u64), "{a}");
        assert_eq!(b.offset(), Some(input.len() as u64), "{b}");
    }
}

#[test]
fn ext_payload_counts_against_max_str_len() {
    let h = MsgpackHandle::default().with_options(codec_core::Options::default().max_str_len(4));
    // fixext8, type 5, eight bytes.
    let input = [0xd7, 0x05, 1, 2, 3, 4, 5, 6, 7, 8];
    let err = from_slice::<Value, _>(&input, &h).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("length 8 exceeds max_str_len (4)"),
        "{err}"
    );
    assert_eq!(err.offset(), Some(0));
}

/// Hands out one byte per `read`.
struct OneByte<'a>(&'a [u8]);

impl std::io::Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.0.len()).min(1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// Floats keep their exact bits, a signaling NaN included, whether their
/// bytes are all buffered (the one-check path) or arrive one at a time.
#[test]
fn floats_keep_their_bits_from_slices_and_byte_by_byte_readers() {
    let h = MsgpackHandle::default();
    let snan32 = f32::from_bits(0x7f80_0001);
    let snan64 = f64::from_bits(0x7ff0_0000_0000_0001);
    let mut doc = vec![0x94, 0xca];
    doc.extend_from_slice(&snan32.to_bits().to_be_bytes());
    doc.push(0xca);
    doc.extend_from_slice(&1.5f32.to_bits().to_be_bytes());
    doc.push(0xcb);
    doc.extend_from_slice(&snan64.to_bits().to_be_bytes());
    doc.push(0xcb);
    doc.extend_from_slice(&(-0.1f64).to_bits().to_be_bytes());
    type Four = (f32, f32, f64, f64);
    let bits = |v: Four| (v.0.to_bits(), v.1.to_bits(), v.2.to_bits(), v.3.to_bits());
    let want = (
        snan32.to_bits(),
        1.5f32.to_bits(),
        snan64.to_bits(),
        (-0.1f64).to_bits(),
    );
    let a: Four = from_slice(&doc, &h).unwrap();
    let b: Four = from_reader(OneByte(&doc), &h).unwrap();
    assert_eq!(bits(a), want);
    assert_eq!(bits(b), want);
}

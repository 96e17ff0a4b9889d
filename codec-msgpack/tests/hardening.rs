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

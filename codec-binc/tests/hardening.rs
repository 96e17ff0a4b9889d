//! Regression tests from the hardening work: error offsets and the symbol limit.

use codec_binc::BincHandle;
use codec_core::{ErrorKind, Handle, Value, from_slice};

#[test]
fn type_mismatch_points_at_the_descriptor() {
    // [1, "ab"] into Vec<u32>: the string's descriptor is at byte 2.
    let h = BincHandle::default();
    let bytes = codec_core::to_vec(&(1u32, "ab"), &h).unwrap();
    let err = from_slice::<Vec<u32>, _>(&bytes, &h).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TypeMismatch {
                expected: "u32",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.offset(), Some(2), "{err}");
    assert_eq!(err.path_string(), "[1]");
}

#[test]
fn symbol_table_is_limited() {
    // Four map keys written as symbols: a limit of 3 refuses the fourth definition.
    let h = BincHandle::default().as_symbols(true);
    let m: std::collections::BTreeMap<String, u8> = ["aa", "bb", "cc", "dd"]
        .iter()
        .map(|k| (k.to_string(), 1))
        .collect();
    let bytes = codec_core::to_vec(&m, &h).unwrap();
    assert!(from_slice::<Value, _>(&bytes, &h).is_ok());
    let limited = h.clone().max_symbols(3);
    assert_eq!(limited.dec_format().symbol_count(), 0);
    let err = from_slice::<Value, _>(&bytes, &limited).unwrap_err();
    match err.kind() {
        ErrorKind::LengthLimitExceeded {
            limit: "max_symbols",
            len: 4,
            max: 3,
        } => {}
        other => panic!("{other:?}: {err}"),
    }
    assert!(err.offset().is_some(), "{err}");
    assert!(err.to_string().contains("exceeds max_symbols (3)"), "{err}");
    // Referring to a defined symbol again does not count.
    assert!(from_slice::<Value, _>(&bytes, &h.clone().max_symbols(4)).is_ok());
    // A decoder reset onto new input starts a fresh table with the same limit.
    let mut d = limited.decoder(&bytes[..]);
    assert!(d.decode::<Value>().is_err());
    d.reset(codec_core::SliceReader::new(&bytes));
    let err = d.decode::<Value>().unwrap_err();
    assert!(err.to_string().contains("exceeds max_symbols (3)"), "{err}");
}

#[test]
fn declared_length_past_the_input_is_eof_at_its_end() {
    // An array header claiming 15 items, then one byte.
    let err = from_slice::<Value, _>(&[0x60, 0x0f, 0x90], &BincHandle::default()).unwrap_err();
    assert!(err.is_eof(), "{err}");
    assert_eq!(err.offset(), Some(3), "{err}");
}

/// An array of `refs` references to one symbol of `len` bytes (defined by
/// the first item): about `len` bytes of input that would decode to
/// `len * (refs + 1)` bytes of text.
fn symbol_bomb(len: u32, refs: u32) -> Vec<u8> {
    let mut b = vec![0x62];
    b.extend_from_slice(&(refs + 1).to_be_bytes());
    b.extend_from_slice(&[0xb6, 0x01]);
    b.extend_from_slice(&len.to_be_bytes());
    b.resize(b.len() + len as usize, b'a');
    for _ in 0..refs {
        b.extend_from_slice(&[0xb0, 0x01]);
    }
    b
}

#[test]
fn symbol_references_cannot_blow_up_memory() {
    let h = BincHandle::default();
    // 12 KB of input standing for 10 MB of text: refused part way, at the
    // reference past the budget (64 bytes per input byte read).
    let bomb = symbol_bomb(10_000, 1_000);
    for err in [
        from_slice::<Value, _>(&bomb, &h).unwrap_err(),
        from_slice::<Vec<String>, _>(&bomb, &h).unwrap_err(),
    ] {
        match err.kind() {
            ErrorKind::LengthLimitExceeded {
                limit: "symbol_expansion",
                len,
                max,
            } => assert!(*len > *max && *max <= 64 * bomb.len() as u64, "{err}"),
            other => panic!("{other:?}: {err}"),
        }
        let at = err.offset().unwrap() as usize;
        assert!(at > 10_011 && at < bomb.len() && bomb[at] == 0xb0, "{err}");
        assert_eq!(at % 2, (10_011 % 2), "{err}: at a reference");
    }
    // Within the budget, references decode to their symbol's text.
    let ok = symbol_bomb(100, 20);
    let v = from_slice::<Vec<String>, _>(&ok, &h).unwrap();
    assert_eq!(v.len(), 21);
    assert!(
        v.iter()
            .all(|s| s.len() == 100 && s.bytes().all(|b| b == b'a'))
    );
    // Skipped (an unknown field's value), references copy nothing and count
    // for nothing.
    #[derive(codec_core::Codec, Debug, PartialEq)]
    #[codec(crate = "codec_core")]
    struct One {
        a: u8,
    }
    let mut doc = vec![0x76, 0x45, b'a', 0x90, 0x45, b'z'];
    doc.extend_from_slice(&bomb);
    assert_eq!(from_slice::<One, _>(&doc, &h).unwrap(), One { a: 1 });
}

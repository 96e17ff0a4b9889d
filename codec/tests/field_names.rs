//! Struct field names: a driver's `write_field` (msgpack, CBOR and Simple
//! write a short name with its header in one store) gives the bytes of the
//! default path (`write_map_key`, `write_field_name`, `write_map_value`) and
//! leaves the driver in the same state, for names of every length and for
//! each option that changes how text is written.

use codec::formats::{binc, cbor, msgpack, simple};
use codec::{CborHandle, EncodeFormat, FieldName, MsgpackHandle, Result};

/// Every length from 0 to 47 bytes, and 49 (ending in a two-byte character).
const NAMES: &str = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKé";

fn bytes<F: EncodeFormat>(
    mk: &dyn Fn() -> F,
    write: impl FnOnce(&mut F, &mut Vec<u8>) -> Result<()>,
) -> Vec<u8> {
    let mut e = mk();
    let mut out = Vec::new();
    write(&mut e, &mut out).unwrap();
    out
}

fn same_as_default_path<F: EncodeFormat>(label: &str, mk: &dyn Fn() -> F) {
    for end in (0..=NAMES.len()).filter(|&n| NAMES.is_char_boundary(n)) {
        let name = FieldName::new(&NAMES[..end]);
        for index in [0, 3] {
            // The empty string written after the name shows the state the
            // name leaves (Simple's `zero_as_nil` writes it as nil outside
            // key position; binc's symbols are keyed on position too).
            let got = bytes(mk, |e, w| {
                e.write_field(w, index, name)?;
                e.write_str(w, "")
            });
            let want = bytes(mk, |e, w| {
                e.write_map_key(w, index)?;
                e.write_field_name(w, name.as_str())?;
                e.write_map_value(w)?;
                e.write_str(w, "")
            });
            assert_eq!(got, want, "{label}: {end}-byte name, entry {index}");
        }
    }
}

#[test]
fn field_names_of_every_length_are_as_the_default_path() {
    for ext in [true, false] {
        let h = MsgpackHandle::default().write_ext(ext);
        same_as_default_path(&format!("msgpack write_ext={ext}"), &|| {
            msgpack::MsgpackEncoder::new(&h)
        });
    }
    for indefinite in [false, true] {
        let h = CborHandle::default().indefinite_length(indefinite);
        same_as_default_path(&format!("cbor indefinite={indefinite}"), &|| {
            cbor::CborEncoder::new(&h)
        });
    }
    for zero_as_nil in [false, true] {
        same_as_default_path(&format!("simple zero_as_nil={zero_as_nil}"), &|| {
            simple::SimpleEncoder::new(zero_as_nil)
        });
    }
    for symbols in [false, true] {
        same_as_default_path(&format!("binc symbols={symbols}"), &|| {
            binc::BincEncoder::new(symbols)
        });
    }
}

#[test]
fn short_names_are_one_header_byte_and_the_text() {
    let name = FieldName::new("screen_name");
    let msgpack = bytes(
        &|| msgpack::MsgpackEncoder::new(&MsgpackHandle::default()),
        |e, w| e.write_field(w, 1, name),
    );
    assert_eq!(msgpack, b"\xabscreen_name");
    let cbor = bytes(
        &|| cbor::CborEncoder::new(&CborHandle::default()),
        |e, w| e.write_field(w, 1, name),
    );
    assert_eq!(cbor, b"\x6bscreen_name");
    let simple = bytes(&|| simple::SimpleEncoder::new(false), |e, w| {
        e.write_field(w, 1, name)
    });
    assert_eq!(simple, b"\xd9\x0bscreen_name");
}

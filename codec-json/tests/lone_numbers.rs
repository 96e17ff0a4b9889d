//! A number that is the whole document is read where it ends the input:
//! from a slice, in place to its last byte ([`codec_core::Read::HOLDS_REST`]);
//! from a reader, through the general path. Both must give what the same
//! number gives inside an array, for every target, and the same errors.

use codec_core::{DecodeOwned, Value, from_reader, from_slice};
use codec_json::JsonHandle;
use codec_test_support::OneByte;
use std::fmt::Debug;

/// Every way of reading `text` as a `T` agrees; returns whether it decoded.
fn agree<T: DecodeOwned + PartialEq + Debug>(text: &str, h: &JsonHandle) -> bool {
    let bytes = text.as_bytes();
    let slice = from_slice::<T, _>(bytes, h);
    let whole = from_reader::<T, _, _>(bytes, h);
    let trickled = from_reader::<T, _, _>(OneByte(bytes), h);
    let shown = |r: &codec_core::Result<T>| match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("error: {e}"),
    };
    let want = shown(&slice);
    assert_eq!(shown(&whole), want, "{text:?} from a reader");
    // A reader given a byte at a time no longer holds the bytes before a
    // number once it has read past them; a range error found after the
    // number is read then points at the start of the read, whitespace and
    // all (`Decoder::item_start`). Only the offset may differ.
    let unplaced = |s: String| match s.rfind(" (line ").or_else(|| s.rfind(" (byte ")) {
        Some(at) if s.starts_with("error: ") => s[..at].to_string(),
        _ => s,
    };
    assert_eq!(
        unplaced(shown(&trickled)),
        unplaced(want.clone()),
        "{text:?} a byte at a time"
    );
    // In an array the number is followed by `]`: the common path.
    let in_array = from_slice::<Vec<T>, _>(format!("[{text}]").as_bytes(), h);
    match (&slice, in_array) {
        (Ok(v), Ok(items)) => assert_eq!(items, std::slice::from_ref(v), "{text:?} in an array"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("{text:?}: alone {}, in an array {b:?}", shown(a)),
    }
    slice.is_ok()
}

fn every_target(text: &str, h: &JsonHandle) -> usize {
    [
        agree::<i64>(text, h),
        agree::<u64>(text, h),
        agree::<i32>(text, h),
        agree::<u8>(text, h),
        agree::<i128>(text, h),
        agree::<u128>(text, h),
        agree::<f64>(text, h),
        agree::<f32>(text, h),
        agree::<Value>(text, h),
    ]
    .into_iter()
    .filter(|&ok| ok)
    .count()
}

#[test]
fn lone_numbers_read_alike_from_slices_and_readers() {
    let h = JsonHandle::default();
    let mut decoded = 0;
    let fixed = [
        "0",
        "-0",
        "7",
        "-4.1",
        "4.1",
        "-1000",
        "1e3",
        "1E+3",
        "-2.5e-3",
        "0.1",
        "123456789",
        "9007199254740993",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211455",
        "1.7976931348623157e308",
        "1e400",
        "3.4028235e38",
        "3.5e38",
        "1.5",
        "2.0",
        // Malformed: each must fail alike everywhere.
        "-",
        "1.",
        "1e",
        "1e+",
        ".5",
        "01",
        "-01",
        "1.e3",
        "+1",
        "0x10",
        "1 2",
    ];
    for text in fixed {
        for padded in [text.to_string(), format!(" {text}"), format!("{text} \n")] {
            decoded += every_target(&padded, &h);
        }
    }
    // Random texts over the number alphabet, most of them well formed.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"0123456789012345678901234567890123456789.eE+-";
    for n in 0..3_000 {
        let text = if n % 4 == 0 {
            let len = 1 + (next() % 24) as usize;
            (0..len)
                .map(|_| char::from(alphabet[(next() % alphabet.len() as u64) as usize]))
                .collect()
        } else {
            let exp = match next() % 3 {
                0 => format!("e{}", (next() % 80) as i64 - 40),
                _ => String::new(),
            };
            let frac = match next() % 3 {
                0 => String::new(),
                _ => format!(".{}", next() >> (next() % 64)),
            };
            let sign = ["", "-"][(next() % 2) as usize];
            format!("{sign}{}{frac}{exp}", next() >> (next() % 64))
        };
        decoded += every_target(&text, &h);
    }
    // Not vacuous: most of the well-formed texts decode into some target.
    assert!(decoded > 10_000, "{decoded}");
}

//! CBOR's reader of a whole [`Document`](codec_core::Document) in one
//! step ([`DecodeFormat::read_document`](codec_core::DecodeFormat::read_document)):
//! one loop over the reader's buffer ([`DocumentBuilder::read_declared`]),
//! each data item appended as its head says, with no reader call, no
//! `Seq` and no trip through the shared driver per item.
//!
//! It takes the items of plain JSON-like data: integers within the 64-bit
//! ranges, floats of each width, null, bools, definite byte and text
//! strings, definite arrays and maps. It gives up (`None`) at anything
//! else: a tag (times, bignums, the self-described tag among them), an
//! indefinite length, a simple value other than false/true/null, text
//! that is not UTF-8, a limit reached, the buffer ending. The shared
//! driver then reads the item again the general way, which gives the same
//! document or reports the error exactly as it always has. Giving up costs
//! a second read of what was read here.

use crate::decode::f16_to_f32;
use codec_core::{DecodeOptions, DocumentBuilder, ItemHead};

/// Reads the item at the start of `buf` into `doc` and returns how many
/// bytes it used: the document the general path builds under `opts`
/// (which must not ask for `prefer_float`: the caller's check).
pub(crate) fn read(
    buf: &[u8],
    opts: &DecodeOptions,
    doc: &mut DocumentBuilder<'_>,
) -> Option<usize> {
    // A root under a `max_len` of 0 is left to the general path, which
    // decides what that limit allows.
    if opts.max_len == 0 {
        return None;
    }
    doc.read_declared(buf, opts.max_len, |b, doc| item(b, opts, doc))
}

/// The data item at the start of `b` (not empty): a scalar appended to
/// `doc`, or a container's head.
#[inline(always)]
fn item(b: &[u8], opts: &DecodeOptions, doc: &mut DocumentBuilder<'_>) -> Option<ItemHead> {
    let ib = b[0];
    // The head's argument and size (additional information 0..=27).
    let (arg, head) = match ib & 0x1f {
        ai @ 0..=23 => (u64::from(ai), 1),
        24 => (u64::from(*b.get(1)?), 2),
        25 => (
            u64::from(u16::from_be_bytes(*b.get(1..)?.first_chunk()?)),
            3,
        ),
        26 => (
            u64::from(u32::from_be_bytes(*b.get(1..)?.first_chunk()?)),
            5,
        ),
        27 => (u64::from_be_bytes(*b.get(1..)?.first_chunk()?), 9),
        // Reserved, or an indefinite length.
        _ => return None,
    };
    match ib >> 5 {
        0 => match i64::try_from(arg) {
            // As `scalar::uint` (no `prefer_float`).
            Ok(n) if opts.signed_integer => doc.int(n),
            _ => doc.uint(arg),
        },
        // `-1 - arg`; below `i64::MIN` it is a `BigInt`, for the general path.
        1 => doc.int(-1 - i64::try_from(arg).ok()?),
        major @ (2 | 3) => {
            let n = usize::try_from(arg).ok()?;
            if n > opts.max_str_len {
                return None;
            }
            let body = b.get(head..)?.get(..n)?;
            if major == 2 {
                doc.bytes(body);
            } else if !doc.text(body) {
                return None;
            }
            return Some(ItemHead::Leaf(head + n));
        }
        4 => {
            let items = usize::try_from(arg).ok()?;
            return Some(ItemHead::Array { items, head });
        }
        5 => {
            let entries = usize::try_from(arg).ok()?;
            return Some(ItemHead::Map { entries, head });
        }
        // Tags.
        6 => return None,
        _ => match ib {
            0xf4 | 0xf5 => doc.bool(ib == 0xf5),
            0xf6 => doc.nil(),
            0xf9 => doc.f32(f16_to_f32(arg as u16)),
            0xfa => doc.f32(f32::from_bits(arg as u32)),
            0xfb => doc.f64(f64::from_bits(arg)),
            // Other simple values (undefined among them).
            _ => return None,
        },
    }
    Some(ItemHead::Leaf(head))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CborHandle;
    use codec_core::{Document, Options, Value, from_slice, to_vec};

    /// The reader's document from `input` under `opts`, and the bytes used.
    fn fast(input: &[u8], opts: &Options) -> Option<(Document, usize)> {
        let mut used = 0;
        let doc = Document::build_with(opts.decode.max_depth, |d| {
            read(input, &opts.decode, d).map(|n| used = n).is_some()
        })?;
        Some((doc, used))
    }

    #[test]
    fn takes_plain_data_as_the_general_path_reads_it() {
        let values = [
            Value::Map(vec![
                (
                    Value::from("a"),
                    Value::Array(vec![Value::Uint(1), Value::Int(-2)]),
                ),
                (Value::from("é"), Value::from("x".repeat(300).as_str())),
                (Value::Uint(7), Value::Bytes(vec![0, 255])),
                (Value::from("m"), Value::Map(vec![])),
                (Value::from("e"), Value::Array(vec![])),
            ]),
            Value::Array(vec![
                Value::Nil,
                Value::Bool(true),
                Value::Bool(false),
                Value::F32(1.5),
                Value::F32(f32::NAN),
                Value::F64(-0.1),
                Value::Uint(u64::MAX),
                Value::Int(i64::MIN),
                Value::Uint(70_000),
                Value::Int(-70_000),
                Value::Bytes(vec![9; 300]),
            ]),
            Value::from("top"),
            Value::Array((0..30).map(Value::Uint).collect()),
        ];
        // Half floats too (`f9`): 1.0 and -infinity.
        let half = [0x82, 0xf9, 0x3c, 0x00, 0xf9, 0xfc, 0x00];
        let mut inputs: Vec<Vec<u8>> = values
            .iter()
            .map(|v| to_vec(v, &CborHandle::default()).unwrap())
            .collect();
        inputs.push(half.to_vec());
        for input in &inputs {
            for opts in [Options::default(), Options::default().signed_integer(true)] {
                let (doc, used) = fast(input, &opts).unwrap_or_else(|| panic!("{input:02x?}"));
                assert_eq!(used, input.len());
                let h = CborHandle::default().with_options(opts);
                assert_eq!(
                    doc,
                    from_slice::<Value, _>(input, &h).unwrap(),
                    "{input:02x?}"
                );
            }
        }
        assert_eq!(
            fast(&half, &Options::default()).unwrap().0,
            Value::Array(vec![Value::F32(1.0), Value::F32(f32::NEG_INFINITY)])
        );
        // What follows the item is not read.
        assert_eq!(fast(&[0x81, 0x01, 0x81], &Options::default()).unwrap().1, 2);
    }

    #[test]
    fn leaves_tags_indefinite_lengths_and_simple_values_to_the_general_path() {
        let gives_up = |input: &[u8]| fast(input, &Options::default()).is_none();
        // Tags: a time, a bignum, the self-described tag.
        assert!(gives_up(&[0x81, 0xc1, 0x00]));
        assert!(gives_up(&[0xc2, 0x41, 0x01]));
        assert!(gives_up(&[0xd9, 0xd9, 0xf7, 0x00]));
        // Indefinite lengths, and a break where none is open.
        assert!(gives_up(&[0x9f, 0x01, 0xff]));
        assert!(gives_up(&[0xbf, 0xff]));
        assert!(gives_up(&[0x7f, 0x61, 0x61, 0xff]));
        assert!(gives_up(&[0xff]));
        // Undefined, other simple values, reserved additional information.
        assert!(gives_up(&[0xf7]) && gives_up(&[0xe0]) && gives_up(&[0xf8, 0x20]));
        assert!(gives_up(&[0x1c]));
        // Below i64::MIN (a `BigInt`), and text that is not UTF-8.
        assert!(gives_up(&[0x3b, 0x80, 0, 0, 0, 0, 0, 0, 0]));
        assert!(!gives_up(&[
            0x3b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
        ]));
        assert!(gives_up(&[0x61, 0xff]) && !gives_up(&[0x41, 0xff]));
    }

    #[test]
    fn gives_up_at_each_limit() {
        // {"ab": [[1, 2]], "c": "xyz"}
        let input = [
            0xa2, 0x62, b'a', b'b', 0x81, 0x82, 0x01, 0x02, 0x61, b'c', 0x63, b'x', b'y', b'z',
        ];
        let under = |opts: Options| fast(&input, &opts).is_some();
        assert!(under(Options::default().max_depth(3)));
        assert!(!under(Options::default().max_depth(2)));
        assert!(under(Options::default().max_len(2)));
        assert!(!under(Options::default().max_len(1)));
        assert!(under(Options::default().max_str_len(3)));
        assert!(!under(Options::default().max_str_len(2)));
        assert!(!under(Options::default().max_len(0)));
        // A declared length past what the buffer holds.
        assert!(
            fast(
                &[0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                &Options::default()
            )
            .is_none()
        );
        assert!(
            fast(
                &[0xbb, 0x80, 0, 0, 0, 0, 0, 0, 0],
                &Options::default().max_len(usize::MAX)
            )
            .is_none()
        );
    }
}

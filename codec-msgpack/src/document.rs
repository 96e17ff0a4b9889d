//! MessagePack's reader of a whole [`Document`](codec_core::Document) in
//! one step ([`DecodeFormat::read_document`](codec_core::DecodeFormat::read_document)):
//! one loop over the reader's buffer, each item appended as its marker
//! byte says, with no reader call, no `Seq` and no trip through the shared
//! driver per item.
//!
//! It takes only what it reads to the end inside the buffer, under the
//! options' limits, and gives up (`None`) at anything else: an extension
//! item (timestamps included), `0xc1`, text that is not UTF-8, a limit
//! reached, the buffer ending. The shared driver then reads the item
//! again the general way, which gives the same document or reports the
//! error exactly as it always has. Giving up costs a second read of what
//! was read here.

use crate::spec::*;
use codec_core::{DecodeOptions, DocumentBuilder, ItemHead};

/// The `N` bytes after the marker at the start of `b`.
#[inline(always)]
fn after<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    b.get(1..)?.first_chunk().copied()
}

/// A length of `n` bytes (1, 2 or 4) after the marker at the start of
/// `b`, and the bytes the marker and length take.
#[inline(always)]
fn length(b: &[u8], n: usize) -> Option<(usize, usize)> {
    let len = match n {
        1 => u32::from(after::<1>(b)?[0]),
        2 => u32::from(u16::from_be_bytes(after(b)?)),
        _ => u32::from_be_bytes(after(b)?),
    };
    Some((usize::try_from(len).ok()?, 1 + n))
}

/// Reads the item at the start of `buf` into `doc` and returns how many
/// bytes it used. The document is what the general path builds under
/// `opts` (which must not ask for `prefer_float`: the caller's check),
/// with str items as text when `text_strings` (and as map keys), else as
/// byte strings, as `MsgpackDecoder` reads them.
pub(crate) fn read(
    buf: &[u8],
    opts: &DecodeOptions,
    text_strings: bool,
    doc: &mut DocumentBuilder<'_>,
) -> Option<usize> {
    // A root under a `max_len` of 0 is left to the general path, which
    // decides what that limit allows.
    if opts.max_len == 0 {
        return None;
    }
    doc.read_declared(buf, opts.max_len, |b, doc| item(b, opts, text_strings, doc))
}

/// The item at the start of `b` (not empty): a scalar appended to `doc`,
/// or a container's head.
#[inline(always)]
fn item(
    b: &[u8],
    opts: &DecodeOptions,
    text_strings: bool,
    doc: &mut DocumentBuilder<'_>,
) -> Option<ItemHead> {
    let m = b[0];
    let len = match m {
        0x00..=POS_FIXINT_MAX => int(doc, i64::from(m), 1),
        NEG_FIXINT_MIN..=0xff => int(doc, i64::from(m as i8), 1),
        NIL => {
            doc.nil();
            1
        }
        FALSE | TRUE => {
            doc.bool(m == TRUE);
            1
        }
        FIXMAP..=0x8f => {
            let entries = usize::from(m & 0x0f);
            return Some(ItemHead::Map { entries, head: 1 });
        }
        FIXARRAY..=0x9f => {
            let items = usize::from(m & 0x0f);
            return Some(ItemHead::Array { items, head: 1 });
        }
        MAP16 | MAP32 | ARRAY16 | ARRAY32 => {
            let (n, head) = length(b, if matches!(m, MAP16 | ARRAY16) { 2 } else { 4 })?;
            return Some(if matches!(m, MAP16 | MAP32) {
                ItemHead::Map { entries: n, head }
            } else {
                ItemHead::Array { items: n, head }
            });
        }
        FIXSTR..=0xbf | STR8..=STR32 | BIN8..=BIN32 => {
            let (n, head) = match m {
                STR8 | BIN8 => length(b, 1)?,
                STR16 | BIN16 => length(b, 2)?,
                STR32 | BIN32 => length(b, 4)?,
                _ => (usize::from(m & 0x1f), 1),
            };
            if n > opts.max_str_len {
                return None;
            }
            let body = b.get(head..)?.get(..n)?;
            // A map key is text even where str items are bytes (as
            // `MsgpackDecoder::str_kind` says); bin items are bytes.
            if matches!(m, BIN8..=BIN32) || !(text_strings || doc.at_key()) {
                doc.bytes(body);
            } else if !doc.text(body) {
                return None;
            }
            head + n
        }
        UINT8 => uint(doc, u64::from(after::<1>(b)?[0]), opts, 2),
        UINT16 => uint(doc, u64::from(u16::from_be_bytes(after(b)?)), opts, 3),
        UINT32 => uint(doc, u64::from(u32::from_be_bytes(after(b)?)), opts, 5),
        UINT64 => uint(doc, u64::from_be_bytes(after(b)?), opts, 9),
        INT8 => int(doc, i64::from(i8::from_be_bytes(after(b)?)), 2),
        INT16 => int(doc, i64::from(i16::from_be_bytes(after(b)?)), 3),
        INT32 => int(doc, i64::from(i32::from_be_bytes(after(b)?)), 5),
        INT64 => int(doc, i64::from_be_bytes(after(b)?), 9),
        FLOAT32 => {
            doc.f32(f32::from_be_bytes(after(b)?));
            5
        }
        FLOAT64 => {
            doc.f64(f64::from_be_bytes(after(b)?));
            9
        }
        // Extensions (timestamps among them) and the never-used 0xc1.
        RESERVED | EXT8..=EXT32 | FIXEXT1..=FIXEXT16 => return None,
    };
    Some(ItemHead::Leaf(len))
}

/// An unsigned integer item as `scalar::uint` reads it (no
/// `prefer_float`); returns the item's length `len`.
#[inline(always)]
fn uint(doc: &mut DocumentBuilder<'_>, v: u64, opts: &DecodeOptions, len: usize) -> usize {
    match i64::try_from(v) {
        Ok(n) if opts.signed_integer => doc.int(n),
        _ => doc.uint(v),
    }
    len
}

/// A signed integer item; returns the item's length `len`.
#[inline(always)]
fn int(doc: &mut DocumentBuilder<'_>, v: i64, len: usize) -> usize {
    doc.int(v);
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MsgpackHandle;
    use codec_core::{Document, Options, Value, from_slice, to_vec};

    /// Documents the reader takes, in the current spec's bytes.
    fn taken() -> Vec<Vec<u8>> {
        let h = MsgpackHandle::default();
        let map = |entries: Vec<(Value, Value)>| Value::Map(entries);
        let values = [
            map(vec![
                (
                    Value::from("a"),
                    Value::Array(vec![1u8.into(), (-2i64).into()]),
                ),
                (Value::from("é"), Value::from("x".repeat(40).as_str())),
                (Value::from("b"), Value::Bytes(vec![0, 255])),
                (Value::Uint(7), map(vec![])),
                (Value::from("c"), Value::Array(vec![])),
            ]),
            Value::Array(vec![
                Value::Nil,
                true.into(),
                false.into(),
                Value::F32(1.5),
                Value::F64(-0.1),
                Value::Uint(u64::MAX),
                Value::Int(i64::MIN),
                Value::Uint(200),
                Value::Int(-200),
                Value::Uint(70_000),
                Value::Int(-70_000),
                Value::Uint(1 << 40),
                Value::from("y".repeat(300).as_str()),
                Value::Bytes(vec![7; 300]),
                map(vec![(
                    Value::from("k"),
                    Value::Array(vec![Value::Array(vec![])]),
                )]),
            ]),
            Value::from("top"),
            Value::Array((0..20).map(Value::Uint).collect()),
            map((0..20).map(|i| (Value::Uint(i), Value::Nil)).collect()),
            map(vec![(
                Value::Array(vec![Value::from("in key")]),
                Value::Nil,
            )]),
        ];
        values.iter().map(|v| to_vec(v, &h).unwrap()).collect()
    }

    /// The handles the reader runs under: str items as text or as bytes.
    fn handles(opts: &Options) -> [MsgpackHandle; 2] {
        let h = MsgpackHandle::default().with_options(opts.clone());
        [h.clone(), h.write_ext(false)]
    }

    /// The reader's document from `input` under `h`, and the bytes used.
    fn fast(input: &[u8], h: &MsgpackHandle) -> Option<(Document, usize)> {
        let text = h.write_ext || h.raw_to_string;
        let mut used = 0;
        let opts = &h.options.decode;
        let doc = Document::build_with(opts.max_depth, |d| {
            read(input, opts, text, d).map(|n| used = n).is_some()
        })?;
        Some((doc, used))
    }

    /// Whatever the reader takes, the general path reads alike.
    fn agrees(input: &[u8], h: &MsgpackHandle) -> bool {
        let Some((doc, used)) = fast(input, h) else {
            return false;
        };
        match from_slice::<Value, _>(&input[..used], h) {
            Ok(v) => assert_eq!(doc, v, "{input:02x?}"),
            Err(e) => panic!("taken, but {e}: {input:02x?}"),
        }
        true
    }

    #[test]
    fn takes_whole_documents_as_the_general_path_reads_them() {
        for input in taken() {
            for opts in [Options::default(), Options::default().signed_integer(true)] {
                for h in handles(&opts) {
                    assert!(agrees(&input, &h), "not taken: {input:02x?}");
                    assert_eq!(fast(&input, &h).unwrap().1, input.len());
                }
            }
        }
        // What follows the item is not read.
        let h = MsgpackHandle::default();
        assert_eq!(fast(&[0x91, 0x01, 0x91, 0x02], &h).unwrap().1, 2);
        // Deeper than any fixed stack: 100 levels, an item on each side.
        let mut deep = Vec::new();
        for _ in 0..100 {
            deep.extend([0x93, 0x01]);
        }
        deep.push(0xc0);
        deep.extend([0x02; 100]);
        assert!(agrees(&deep, &h), "not taken: 100 levels");
    }

    #[test]
    fn leaves_extensions_and_the_unused_byte_to_the_general_path() {
        let h = MsgpackHandle::default();
        let time = codec_core::Time::from_unix(1, 0).unwrap();
        for v in [Value::Ext(5, vec![1, 2].into()), Value::Time(time)] {
            let input = to_vec(&Value::Array(vec![Value::Nil, v]), &h).unwrap();
            assert!(fast(&input, &h).is_none(), "{input:02x?}");
        }
        assert!(fast(&[0x91, 0xc1], &h).is_none());
        // Text that is not UTF-8, and the same bytes as a byte string.
        assert!(fast(&[0x91, 0xa1, 0xff], &h).is_none());
        assert!(agrees(&[0x91, 0xa1, 0xff], &h.clone().write_ext(false)));
    }

    #[test]
    fn gives_up_at_each_limit() {
        let input = to_vec(
            &Value::Map(vec![
                (
                    Value::from("ab"),
                    Value::Array(vec![Value::Array(vec![1u8.into(), 2u8.into()])]),
                ),
                (Value::from("c"), Value::from("xyz")),
            ]),
            &MsgpackHandle::default(),
        )
        .unwrap();
        let under =
            |opts: Options| fast(&input, &MsgpackHandle::default().with_options(opts)).is_some();
        assert!(under(Options::default().max_depth(3)));
        assert!(!under(Options::default().max_depth(2)));
        assert!(under(Options::default().max_len(2)));
        assert!(!under(Options::default().max_len(1)));
        assert!(under(Options::default().max_str_len(3)));
        assert!(!under(Options::default().max_str_len(2)));
        assert!(!under(Options::default().max_len(0)));
        // An empty container is as deep as any.
        let depth = |input: &[u8], n| {
            fast(
                input,
                &MsgpackHandle::default().with_options(Options::default().max_depth(n)),
            )
            .is_some()
        };
        assert!(depth(&[0x92, 0x90, 0x80], 2) && !depth(&[0x92, 0x90, 0x80], 1));
        assert!(depth(&[0x80], 1) && !depth(&[0x90], 0));
    }

    #[test]
    fn gives_up_or_agrees_on_every_cut_and_change() {
        let limits = [
            Options::default(),
            Options::default().signed_integer(true),
            Options::default().max_depth(2),
            Options::default().max_len(3),
            Options::default().max_str_len(2),
        ];
        let bytes = [
            0x00, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x91, 0x9f, 0xa0, 0xa3, 0xbf, 0xc0, 0xc1, 0xc2,
            0xc4, 0xc7, 0xca, 0xcb, 0xcc, 0xcf, 0xd0, 0xd3, 0xd4, 0xd9, 0xdc, 0xde, 0xdf, 0xe0,
            0xff,
        ];
        let (mut took, mut cases) = (0, 0);
        for input in taken() {
            for opts in &limits {
                for h in handles(opts) {
                    for cut in 0..=input.len() {
                        agrees(&input[..cut], &h);
                    }
                    for at in 0..input.len() {
                        for b in bytes {
                            let mut changed = input.clone();
                            changed[at] = b;
                            cases += 1;
                            took += usize::from(agrees(&changed, &h));
                        }
                    }
                }
            }
        }
        // Not a test that passes by giving up on everything.
        assert!(took * 4 > cases, "taken {took} of {cases}");
    }
}

//! Strings, byte strings and long field names carry the header each spec
//! gives their length, at every length where the header changes and
//! around the 60-byte edge of the drivers' one-block path
//! (`codec_core::write_headed`), into a `Vec` and through an
//! `io::Write`. The expected headers are written out here from the specs,
//! not taken from the drivers.

use codec::{
    BincHandle, CborHandle, Codec, Encode, Handle, MsgpackHandle, SimpleHandle, from_slice, to_vec,
    to_writer,
};

/// Lengths: every one to 300, then around the 2- and 4-byte lengths.
fn lengths() -> impl Iterator<Item = usize> {
    (0..=300).chain([65_535, 65_536, 70_000])
}

/// `len` bytes, not all ASCII (a multi-byte character where one fits), so
/// that a copy in the wrong place or of the wrong length shows.
fn text(len: usize) -> String {
    let mut s: String = (0..len)
        .map(|i| char::from(b'a' + (i * 7 % 26) as u8))
        .collect();
    if len >= 3 {
        s.replace_range(len - 2.., "é");
    }
    s
}

fn be(n: usize, width: usize) -> Vec<u8> {
    n.to_be_bytes()[8 - width..].to_vec()
}

/// The header before `len` bytes of text (`text`) or binary data.
fn msgpack_head(len: usize, text: bool, write_ext: bool) -> Vec<u8> {
    let (short, b8, b16, b32) = if text || !write_ext {
        (true, write_ext.then_some(0xd9), 0xda, 0xdb)
    } else {
        (false, Some(0xc4), 0xc5, 0xc6)
    };
    if short && len < 32 {
        vec![0xa0 | len as u8]
    } else if let (Some(b8), true) = (b8, len < 256) {
        vec![b8, len as u8]
    } else if len < 65_536 {
        [vec![b16], be(len, 2)].concat()
    } else {
        [vec![b32], be(len, 4)].concat()
    }
}

fn cbor_head(len: usize, major: u8) -> Vec<u8> {
    match len {
        0..24 => vec![major | len as u8],
        24..256 => vec![major | 24, len as u8],
        256..65_536 => [vec![major | 25], be(len, 2)].concat(),
        _ => [vec![major | 26], be(len, 4)].concat(),
    }
}

/// Binc §5: the length embedded below 12, else 1, 2 or 4 bytes.
fn binc_head(len: usize, vd: u8) -> Vec<u8> {
    let hi = vd << 4;
    match len {
        0..12 => vec![hi | (len as u8 + 4)],
        12..256 => vec![hi, len as u8],
        256..65_536 => [vec![hi | 1], be(len, 2)].concat(),
        _ => [vec![hi | 2], be(len, 4)].concat(),
    }
}

/// Simple: the family byte alone when empty, else plus 1, 2 or 3 for a
/// 1-, 2- or 4-byte length.
fn simple_head(len: usize, base: u8) -> Vec<u8> {
    match len {
        0 => vec![base],
        1..256 => vec![base + 1, len as u8],
        256..65_536 => [vec![base + 2], be(len, 2)].concat(),
        _ => [vec![base + 3], be(len, 4)].concat(),
    }
}

/// `v` encoded by `h` into a `Vec`, and the same through an `io::Write`.
fn both<T: Encode + ?Sized, H: Handle>(v: &T, h: &H) -> Vec<u8> {
    let vec = to_vec(v, h).unwrap();
    let mut io = Vec::new();
    to_writer(v, h, &mut io).unwrap();
    assert_eq!(vec, io, "Vec and io::Write agree");
    vec
}

fn check<H: Handle>(
    label: &str,
    h: &H,
    str_head: &dyn Fn(usize) -> Vec<u8>,
    bin_head: &dyn Fn(usize) -> Vec<u8>,
) {
    for len in lengths() {
        let s = text(len);
        let want = [str_head(len), s.clone().into_bytes()].concat();
        assert_eq!(both(s.as_str(), h), want, "{label}: {len}-byte string");
        assert_eq!(both(&s, h), want, "{label}: {len}-byte String");
        let b = s.into_bytes();
        let want = [bin_head(len), b.clone()].concat();
        assert_eq!(both(&b, h), want, "{label}: {len}-byte Vec<u8>");
    }
}

#[test]
fn strings_and_bytes_have_the_spec_header_at_every_length() {
    for ext in [true, false] {
        let h = MsgpackHandle::default().write_ext(ext);
        check(
            &format!("msgpack write_ext={ext}"),
            &h,
            &|n| msgpack_head(n, true, ext),
            &|n| msgpack_head(n, false, ext),
        );
    }
    check(
        "cbor",
        &CborHandle::default(),
        &|n| cbor_head(n, 0x60),
        &|n| cbor_head(n, 0x40),
    );
    check(
        "binc",
        &BincHandle::default(),
        &|n| binc_head(n, 0x4),
        &|n| binc_head(n, 0x5),
    );
    check(
        "simple",
        &SimpleHandle::default(),
        &|n| simple_head(n, 0xd8),
        &|n| simple_head(n, 0xe0),
    );
}

/// Field names on both sides of the one-block edge (58-61 bytes with the
/// header), at the 2-byte headers (fixstr/str8 at 32, CBOR at 24, Binc at
/// 12) and past 255.
#[derive(Codec, Debug, PartialEq)]
struct LongNames {
    #[codec(rename = "eleven_byte")]
    a: u8,
    #[codec(rename = "twelve_bytes")]
    b: u8,
    #[codec(rename = "twenty_four_bytes_long__")]
    c: u8,
    #[codec(rename = "thirty_one_bytes_long__________")]
    d: u8,
    #[codec(rename = "thirty_two_bytes_long___________")]
    e: u8,
    #[codec(rename = "fifty_eight_bytes_long____________________________________")]
    f: u8,
    #[codec(rename = "fifty_nine_bytes_long______________________________________")]
    g: u8,
    #[codec(rename = "sixty_bytes_long____________________________________________")]
    h: u8,
    #[codec(rename = "sixty_one_bytes_long_________________________________________")]
    i: u8,
    #[codec(
        rename = "two_hundred_fifty_six_bytes_long________________________________________________________________________________________________________________________________________________________________________________________________________________________________"
    )]
    j: u8,
}

const LONG_NAMES: [&str; 10] = [
    "eleven_byte",
    "twelve_bytes",
    "twenty_four_bytes_long__",
    "thirty_one_bytes_long__________",
    "thirty_two_bytes_long___________",
    "fifty_eight_bytes_long____________________________________",
    "fifty_nine_bytes_long______________________________________",
    "sixty_bytes_long____________________________________________",
    "sixty_one_bytes_long_________________________________________",
    "two_hundred_fifty_six_bytes_long________________________________________________________________________________________________________________________________________________________________________________________________________________________________",
];

#[test]
fn long_field_names_have_the_spec_header() {
    let lens: Vec<usize> = LONG_NAMES.iter().map(|n| n.len()).collect();
    assert_eq!(lens, [11, 12, 24, 31, 32, 58, 59, 60, 61, 256]);
    let v = LongNames {
        a: 1,
        b: 2,
        c: 3,
        d: 4,
        e: 5,
        f: 6,
        g: 7,
        h: 8,
        i: 9,
        j: 10,
    };
    // Each format: the map header for 10 entries, then name and value.
    let expect = |map: Vec<u8>, head: &dyn Fn(usize) -> Vec<u8>| {
        let mut out = map;
        for (k, name) in LONG_NAMES.iter().enumerate() {
            out.extend(head(name.len()));
            out.extend_from_slice(name.as_bytes());
            out.push(k as u8 + 1);
        }
        out
    };
    for ext in [true, false] {
        let h = MsgpackHandle::default().write_ext(ext);
        let want = expect(vec![0x8a], &|n| msgpack_head(n, true, ext));
        assert_eq!(both(&v, &h), want, "msgpack write_ext={ext}");
    }
    assert_eq!(
        both(&v, &CborHandle::default()),
        expect(vec![0xaa], &|n| cbor_head(n, 0x60)),
        "cbor"
    );
    // Binc and Simple: each name right after its spec header (the names
    // are not substrings of one another), and the whole round trip.
    let binc = both(&v, &BincHandle::default());
    let simple = both(&v, &SimpleHandle::default());
    for name in LONG_NAMES {
        let n = name.len();
        for (label, out, head) in [
            ("binc", &binc, binc_head(n, 0x4)),
            ("simple", &simple, simple_head(n, 0xd8)),
        ] {
            let at = out
                .windows(n)
                .position(|w| w == name.as_bytes())
                .unwrap_or_else(|| panic!("{label}: no {n}-byte name"));
            assert_eq!(out[at - head.len()..at], head[..], "{label}: {n}-byte name");
        }
    }
    assert_eq!(
        from_slice::<LongNames, _>(&binc, &BincHandle::default()).unwrap(),
        v
    );
    assert_eq!(
        from_slice::<LongNames, _>(&simple, &SimpleHandle::default()).unwrap(),
        v
    );
}

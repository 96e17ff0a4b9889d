//! Integers, floats, bools, `char`, `()`, `half::f16`, `NonZero*`.

use crate::encode::CanonicalKey;
use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, Error, Found, PathSegment, Read,
    Result, Write,
};
use std::num::{
    NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI128, NonZeroIsize, NonZeroU8,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU128, NonZeroUsize,
};

macro_rules! signed {
    ($($t:ty),*) => {$(
        impl crate::sealed::Sealed for $t {}

        impl crate::SignedInt for $t {
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
        }

        impl Encode for $t {
            #[inline]
            fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
                e.encode_i64(*self as i64)
            }
            /// An array of integers is written in one driver call.
            #[inline]
            fn encode_slice<W: Write, F: EncodeFormat>(
                items: &[Self],
                e: &mut Encoder<W, F>,
            ) -> Result<()> {
                e.encode_i64_array(items)
            }
            #[inline]
            fn is_empty_value(&self) -> bool {
                *self == 0
            }
            #[inline]
            fn canonical_key(&self) -> CanonicalKey<'_> {
                CanonicalKey::Int(*self as i128)
            }
            const CANONICAL_ORD: bool = true;
        }

        impl<'de> Decode<'de> for $t {
            #[inline]
            fn empty_value() -> Option<Self> {
                Some(0)
            }
            #[inline]
            fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
                // Name the target type (not the `i64` it is read through), and
                // point a range error at the number, not past it.
                let at = d.offset();
                let v = d.decode_i64().map_err(|e| e.expecting(stringify!($t)))?;
                <$t>::try_from(v).map_err(|_| Error::out_of_range(stringify!($t), v).at(d.item_start(at)))
            }

            #[cold]
            fn path_segment(&self) -> Option<crate::PathSegment> {
                Some(crate::PathSegment::KeyLiteral(self.to_string()))
            }

            /// Fills a zeroed array in place (no per-slot `Option`).
            #[inline]
            fn decode_array<R: Read<'de>, F: DecodeFormat, const N: usize>(
                d: &mut Decoder<'de, R, F>,
            ) -> Result<[Self; N]> {
                d.decode_array_filled([<$t>::default(); N])
            }
        }
    )*};
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl crate::sealed::Sealed for $t {}

        impl crate::UnsignedInt for $t {
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
        }

        impl Encode for $t {
            #[inline]
            fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
                e.encode_u64(*self as u64)
            }
            /// An array of integers is written in one driver call.
            #[inline]
            fn encode_slice<W: Write, F: EncodeFormat>(
                items: &[Self],
                e: &mut Encoder<W, F>,
            ) -> Result<()> {
                e.encode_u64_array(items)
            }
            #[inline]
            fn is_empty_value(&self) -> bool {
                *self == 0
            }
            #[inline]
            fn canonical_key(&self) -> CanonicalKey<'_> {
                CanonicalKey::Int(*self as i128)
            }
            const CANONICAL_ORD: bool = true;
        }

        impl<'de> Decode<'de> for $t {
            #[inline]
            fn empty_value() -> Option<Self> {
                Some(0)
            }
            #[inline]
            fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
                // Name the target type (not the `u64` it is read through), and
                // point a range error at the number, not past it.
                let at = d.offset();
                let v = d.decode_u64().map_err(|e| e.expecting(stringify!($t)))?;
                <$t>::try_from(v).map_err(|_| Error::out_of_range(stringify!($t), v).at(d.item_start(at)))
            }

            #[cold]
            fn path_segment(&self) -> Option<crate::PathSegment> {
                Some(crate::PathSegment::KeyLiteral(self.to_string()))
            }

            /// Fills a zeroed array in place (no per-slot `Option`).
            #[inline]
            fn decode_array<R: Read<'de>, F: DecodeFormat, const N: usize>(
                d: &mut Decoder<'de, R, F>,
            ) -> Result<[Self; N]> {
                d.decode_array_filled([<$t>::default(); N])
            }
        }
    )*};
}

signed!(i8, i16, i32, i64, isize);
unsigned!(u16, u32, u64, usize);

// `u8` is written like the other unsigned integers, but a slice of `u8`
// (`Vec<u8>`, `[u8; N]`, `&[u8]`) is a byte string, as Go's `[]byte` is.
impl Encode for u8 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_u64(*self as u64)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn encode_slice<W: Write, F: EncodeFormat>(
        items: &[Self],
        e: &mut Encoder<W, F>,
    ) -> Result<()> {
        e.encode_bytes(items)
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Int(*self as i128)
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for u8 {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(0)
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::KeyLiteral(self.to_string()))
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let at = d.offset();
        let v = d.decode_u64().map_err(|e| e.expecting("u8"))?;
        u8::try_from(v).map_err(|_| Error::out_of_range("u8", v).at(d.item_start(at)))
    }

    /// A byte string, or (as ugorji accepts) an array of small integers; nil is empty.
    fn decode_vec<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Vec<Self>> {
        match d.peek_kind()? {
            crate::Kind::Array => d.decode_array_vec(),
            crate::Kind::Nil => {
                d.decode_nil()?;
                Ok(Vec::new())
            }
            _ => Ok(d.decode_bytes()?.to_vec()),
        }
    }

    fn decode_vec_into<R: Read<'de>, F: DecodeFormat>(
        v: &mut Vec<Self>,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        match d.peek_kind()? {
            crate::Kind::Array => d.decode_array_into_vec(v),
            crate::Kind::Nil => {
                d.decode_nil()?;
                v.clear();
                Ok(())
            }
            _ => {
                let b = d.decode_bytes()?;
                v.clear();
                v.extend_from_slice(&b);
                Ok(())
            }
        }
    }

    fn decode_array<R: Read<'de>, F: DecodeFormat, const N: usize>(
        d: &mut Decoder<'de, R, F>,
    ) -> Result<[Self; N]> {
        if d.peek_kind()? == crate::Kind::Array {
            let v: Vec<u8> = d.decode_fixed_array(N)?;
            let mut out = [0u8; N];
            out.copy_from_slice(&v);
            return Ok(out);
        }
        let b = d.decode_bytes()?;
        <[u8; N]>::try_from(&*b).map_err(|_| {
            Error::new(crate::ErrorKind::InvalidLength {
                expected: N,
                found: b.len(),
            })
        })
    }
}

impl Encode for i128 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_i128(*self)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Int(*self)
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for i128 {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(0)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_i128()
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::KeyLiteral(self.to_string()))
    }
}

impl Encode for u128 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_u128(*self)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Uint(*self)
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for u128 {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(0)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_u128()
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::KeyLiteral(self.to_string()))
    }
}

impl Encode for f32 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_f32(*self)
    }
    /// An array of floats is written in one driver call.
    #[inline]
    fn encode_slice<W: Write, F: EncodeFormat>(
        items: &[Self],
        e: &mut Encoder<W, F>,
    ) -> Result<()> {
        e.encode_f32_array(items)
    }
    /// Rows of floats (`Vec<[f32; N]>`) are written in one driver call.
    #[inline]
    fn encode_rows<W: Write, F: EncodeFormat, const N: usize>(
        rows: &[[Self; N]],
        e: &mut Encoder<W, F>,
    ) -> Result<()> {
        e.encode_f32_rows(rows)
    }
    /// Only `+0.0` is empty (as in Go, where emptiness is all-zero memory).
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.to_bits() == 0
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Float(*self as f64)
    }
}

impl<'de> Decode<'de> for f32 {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(0.0)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_f32()
    }

    /// In one driver step where the format takes the array whole, else
    /// filled in place ([`Decoder::decode_f32_array`]).
    #[inline]
    fn decode_array<R: Read<'de>, F: DecodeFormat, const N: usize>(
        d: &mut Decoder<'de, R, F>,
    ) -> Result<[Self; N]> {
        d.decode_f32_array()
    }
}

impl Encode for f64 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_f64(*self)
    }
    /// An array of floats is written in one driver call.
    #[inline]
    fn encode_slice<W: Write, F: EncodeFormat>(
        items: &[Self],
        e: &mut Encoder<W, F>,
    ) -> Result<()> {
        e.encode_f64_array(items)
    }
    /// Rows of floats (`Vec<[f64; N]>`) are written in one driver call.
    #[inline]
    fn encode_rows<W: Write, F: EncodeFormat, const N: usize>(
        rows: &[[Self; N]],
        e: &mut Encoder<W, F>,
    ) -> Result<()> {
        e.encode_f64_rows(rows)
    }
    /// Only `+0.0` is empty (as in Go, where emptiness is all-zero memory).
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.to_bits() == 0
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Float(*self)
    }
}

impl<'de> Decode<'de> for f64 {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(0.0)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_f64()
    }

    /// In one driver step where the format takes the array whole, else
    /// filled in place ([`Decoder::decode_f64_array`]).
    #[inline]
    fn decode_array<R: Read<'de>, F: DecodeFormat, const N: usize>(
        d: &mut Decoder<'de, R, F>,
    ) -> Result<[Self; N]> {
        d.decode_f64_array()
    }
}

/// `f16` is written as a 32-bit float (CBOR's shortest-form option writes it as half).
impl Encode for half::f16 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_f32(self.to_f32())
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.to_bits() == 0
    }
}

/// Decoding into `f16` fails when the number has no exact `f16` form.
impl<'de> Decode<'de> for half::f16 {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(half::f16::ZERO)
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let v = d.decode_f64()?;
        let h = half::f16::from_f64(v);
        if h.to_f64() == v || v.is_nan() {
            Ok(h)
        } else {
            Err(Error::out_of_range("f16", v).at(d.offset()))
        }
    }
}

impl Encode for bool {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_bool(*self)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        !*self
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Bool(*self)
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for bool {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(false)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_bool()
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::KeyLiteral(self.to_string()))
    }

    /// Fills a zeroed array in place (no per-slot `Option`).
    #[inline]
    fn decode_array<R: Read<'de>, F: DecodeFormat, const N: usize>(
        d: &mut Decoder<'de, R, F>,
    ) -> Result<[Self; N]> {
        d.decode_array_filled([<bool>::default(); N])
    }
}

/// A `char` is a one-character text string.
impl Encode for char {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        let mut buf = [0u8; 4];
        e.encode_str(self.encode_utf8(&mut buf))
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        *self == '\0'
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Int(*self as i128)
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for char {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some('\0')
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let off = d.offset();
        let s = d.decode_str()?;
        let mut it = s.chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Error::type_mismatch(
                "char",
                Found::Text {
                    head: s.as_bytes(),
                    len: s.len(),
                },
            )
            .at(off)),
        }
    }
    /// A `char` key is text: `["c"]`.
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::Key(self.to_string()))
    }
}

/// `()` is nil.
impl Encode for () {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_nil()
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        true
    }
}

impl<'de> Decode<'de> for () {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(())
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_nil()
    }
}

macro_rules! nonzero {
    ($($nz:ty => $t:ty),*) => {$(
        impl Encode for $nz {
            #[inline]
            fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
                self.get().encode(e)
            }
            #[inline]
            fn canonical_key(&self) -> CanonicalKey<'_> {
                CanonicalKey::Int(self.get() as i128)
            }
            const CANONICAL_ORD: bool = true;
        }

        impl<'de> Decode<'de> for $nz {
            fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
                let v = <$t>::decode(d)?;
                <$nz>::new(v).ok_or_else(|| Error::out_of_range(stringify!($nz), 0).at(d.offset()))
            }
        }
    )*};
}

nonzero!(
    NonZeroI8 => i8, NonZeroI16 => i16, NonZeroI32 => i32, NonZeroI64 => i64,
    NonZeroIsize => isize, NonZeroU8 => u8, NonZeroU16 => u16, NonZeroU32 => u32,
    NonZeroU64 => u64, NonZeroUsize => usize
);

impl Encode for NonZeroI128 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_i128(self.get())
    }
}

impl<'de> Decode<'de> for NonZeroI128 {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let v = d.decode_i128()?;
        NonZeroI128::new(v).ok_or_else(|| Error::out_of_range("NonZeroI128", 0).at(d.offset()))
    }
}

impl Encode for NonZeroU128 {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_u128(self.get())
    }
}

impl<'de> Decode<'de> for NonZeroU128 {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let v = d.decode_u128()?;
        NonZeroU128::new(v).ok_or_else(|| Error::out_of_range("NonZeroU128", 0).at(d.offset()))
    }
}

//! Pointers and wrappers: `Option`, `Box`, `Rc`, `Arc`, references,
//! `PhantomData`, `Duration`, `SystemTime`, [`Time`](crate::Time).

use crate::encode::CanonicalKey;
use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, Error, Read, Result, Time, Write,
};
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// `None` is nil; `Some(v)` is `v`.
impl<T: Encode> Encode for Option<T> {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        match self {
            Some(v) => v.encode(e),
            None => e.encode_nil(),
        }
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_none()
    }
}

/// nil is `None`; a missing struct field is `None` too.
impl<'de, T: Decode<'de>> Decode<'de> for Option<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(None)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        if d.try_decode_nil()? {
            Ok(None)
        } else {
            T::decode(d).map(Some)
        }
    }
    /// Nil makes `None`; otherwise an existing `Some` is decoded into.
    #[inline]
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        if d.try_decode_nil()? {
            *self = None;
            return Ok(());
        }
        match self {
            Some(v) => v.decode_into(d),
            None => {
                *self = Some(T::decode(d)?);
                Ok(())
            }
        }
    }
    #[inline]
    fn missing() -> Option<Self> {
        Some(None)
    }
}

macro_rules! deref_encode {
    ($($(#[$m:meta])* [$($g:tt)*] $t:ty),*) => {$(
        $(#[$m])*
        impl<$($g)*> Encode for $t {
            #[inline]
            fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
                (**self).encode(e)
            }
            #[inline]
            fn is_empty_value(&self) -> bool {
                (**self).is_empty_value()
            }
            #[inline]
            fn canonical_key(&self) -> CanonicalKey<'_> {
                (**self).canonical_key()
            }
            const CANONICAL_ORD: bool = T::CANONICAL_ORD;
        }
    )*};
}

deref_encode!(
    [T: Encode + ?Sized] &T,
    [T: Encode + ?Sized] &mut T,
    [T: Encode + ?Sized] Box<T>,
    [T: Encode + ?Sized] Rc<T>,
    [T: Encode + ?Sized] Arc<T>
);

impl<'de, T: Decode<'de>> Decode<'de> for Box<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        T::empty_value().map(Box::new)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        T::decode(d).map(Box::new)
    }
    /// Decodes into the boxed value (keeping the box).
    #[inline]
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        (**self).decode_into(d)
    }
    #[inline]
    fn missing() -> Option<Self> {
        T::missing().map(Box::new)
    }
    #[cold]
    fn path_segment(&self) -> Option<crate::PathSegment> {
        (**self).path_segment()
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Rc<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        T::empty_value().map(Rc::new)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        T::decode(d).map(Rc::new)
    }
    #[inline]
    fn missing() -> Option<Self> {
        T::missing().map(Rc::new)
    }
    #[cold]
    fn path_segment(&self) -> Option<crate::PathSegment> {
        (**self).path_segment()
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Arc<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        T::empty_value().map(Arc::new)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        T::decode(d).map(Arc::new)
    }
    #[inline]
    fn missing() -> Option<Self> {
        T::missing().map(Arc::new)
    }
    #[cold]
    fn path_segment(&self) -> Option<crate::PathSegment> {
        (**self).path_segment()
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Box<[T]> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(Box::default())
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        T::decode_vec(d).map(Vec::into_boxed_slice)
    }
}

/// `PhantomData` is nil.
impl<T: ?Sized> Encode for PhantomData<T> {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_nil()
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        true
    }
}

impl<'de, T: ?Sized> Decode<'de> for PhantomData<T> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(PhantomData)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_nil()?;
        Ok(PhantomData)
    }
    #[inline]
    fn missing() -> Option<Self> {
        Some(PhantomData)
    }
}

/// A `Duration` is an integer count of nanoseconds (as Go's `time.Duration`);
/// durations past `i64::MAX` nanoseconds (292 years) are an error.
impl Encode for Duration {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        let n = i64::try_from(self.as_nanos()).map_err(|_| {
            Error::out_of_range("Duration as i64 nanoseconds", format_args!("{self:?}"))
        })?;
        e.encode_i64(n)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_zero()
    }
}

impl<'de> Decode<'de> for Duration {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(Duration::ZERO)
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let n = d.decode_i64()?;
        u64::try_from(n)
            .map(Duration::from_nanos)
            .map_err(|_| Error::out_of_range("Duration", n).at(d.offset()))
    }
}

/// A `Time` is the format's own timestamp. Go's zero time
/// ([`Time::GO_ZERO`]), which every handle writes as nil, is empty (for
/// `omitempty`), as ugorji treats a zero `time.Time`.
impl Encode for Time {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_time(self)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_go_zero()
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Time(*self)
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for Time {
    /// [`Time::GO_ZERO`], what `omit_empty` leaves out.
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(Time::GO_ZERO)
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_time()
    }
}

/// A `SystemTime` is the format's own timestamp, in UTC.
impl Encode for SystemTime {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_time(&Time::from_system_time(*self)?)
    }
    fn canonical_key(&self) -> CanonicalKey<'_> {
        match Time::from_system_time(*self) {
            Ok(t) => CanonicalKey::Time(t),
            Err(_) => CanonicalKey::Encoded,
        }
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for SystemTime {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        Ok(d.decode_time()?.to_system_time())
    }
}

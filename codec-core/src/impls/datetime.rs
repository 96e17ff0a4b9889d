//! Timestamps of the `chrono` and `time` crates (features `chrono` and `time`),
//! written as each format's own timestamp through [`Time`].
//!
//! The UTC offset is kept wherever the format keeps one (binc, JSON, CBOR
//! tag 0 text, simple) and the Rust type can carry it: `DateTime<Utc>` is
//! UTC, `DateTime<FixedOffset>` always carries its offset (so `+00:00` stays
//! distinct from `Z` where the format can tell them apart), and
//! `time::OffsetDateTime` is UTC when its offset is zero. Decoding a UTC
//! timestamp into a fixed-offset type gives offset zero; decoding an offset
//! timestamp into `DateTime<Utc>` keeps the instant. Leap seconds (chrono's
//! nanoseconds past 10^9) cannot be written.

#[cfg(any(feature = "chrono", feature = "time"))]
use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, Error, Read, Result, Time, Write,
};

#[cfg(any(feature = "chrono", feature = "time"))]
#[cold]
fn out_of_range(what: &'static str, t: &Time) -> Error {
    Error::out_of_range(what, t)
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;
    use chrono::{DateTime, FixedOffset, TimeZone, Utc};

    fn to_time<Tz: TimeZone>(t: &DateTime<Tz>) -> Result<Time> {
        Time::from_unix(t.timestamp(), t.timestamp_subsec_nanos())
            .ok_or_else(|| Error::unsupported("a leap second cannot be encoded"))
    }

    fn utc(t: &Time) -> Result<DateTime<Utc>> {
        DateTime::from_timestamp(t.unix_seconds(), t.nanos())
            .ok_or_else(|| out_of_range("chrono::DateTime", t))
    }

    /// The format's timestamp, in UTC.
    impl Encode for DateTime<Utc> {
        fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
            e.encode_time(&to_time(self)?)
        }
    }

    impl<'de> Decode<'de> for DateTime<Utc> {
        fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
            let off = d.offset();
            utc(&d.decode_time()?).map_err(|e| e.at(off))
        }
    }

    /// The format's timestamp with its offset.
    impl Encode for DateTime<FixedOffset> {
        fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
            let t = to_time(self)?.with_offset(self.offset().local_minus_utc());
            e.encode_time(&t)
        }
    }

    impl<'de> Decode<'de> for DateTime<FixedOffset> {
        fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
            let off = d.offset();
            let t = d.decode_time()?;
            let zone = FixedOffset::east_opt(t.offset().unwrap_or(0))
                .ok_or_else(|| out_of_range("chrono::FixedOffset", &t).at(off))?;
            Ok(utc(&t).map_err(|e| e.at(off))?.with_timezone(&zone))
        }
    }
}

#[cfg(feature = "time")]
mod time_impls {
    use super::*;
    use time::{OffsetDateTime, UtcOffset};

    /// The format's timestamp with its offset (UTC when the offset is zero).
    impl Encode for OffsetDateTime {
        fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
            let t = Time::from_unix(self.unix_timestamp(), self.nanosecond())
                .ok_or_else(|| Error::unsupported("nanoseconds out of range"))?;
            let t = match self.offset() {
                o if o.is_utc() => t,
                o => t.with_offset(o.whole_seconds()),
            };
            e.encode_time(&t)
        }
    }

    impl<'de> Decode<'de> for OffsetDateTime {
        fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
            let off = d.offset();
            let t = d.decode_time()?;
            let at = OffsetDateTime::from_unix_timestamp_nanos(t.unix_nanos())
                .map_err(|_| out_of_range("time::OffsetDateTime", &t).at(off))?;
            let zone = UtcOffset::from_whole_seconds(t.offset().unwrap_or(0))
                .map_err(|_| out_of_range("time::UtcOffset", &t).at(off))?;
            Ok(at.to_offset(zone))
        }
    }
}

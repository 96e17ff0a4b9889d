//! `SystemTime` in every format, and (with features `chrono` / `time`) the
//! chrono and time crates' timestamps, keeping the UTC offset where the
//! format keeps one.

mod common;

use codec::{Handle, Time, from_slice, to_vec};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[test]
fn system_time_round_trips_in_every_format() {
    each_handle!(h => {
        for t in [UNIX_EPOCH + Duration::new(1_614_834_367, 500_000_000), UNIX_EPOCH - Duration::from_secs(86_400)] {
            let back: SystemTime = from_slice(&to_vec(&t, &h).unwrap(), &h).unwrap();
            assert_eq!(back, t, "{}", h.name());
        }
    });
}

/// Whether the format keeps a zone offset by default (CBOR tag 1 is an epoch
/// float with microsecond precision and no zone, so the times below use whole
/// microseconds).
fn keeps_offset<H: Handle>(h: &H) -> bool {
    let t = Time::from_unix(1_000_000, 0).unwrap().with_offset(3600);
    from_slice::<Time, _>(&to_vec(&t, h).unwrap(), h)
        .map(|b| b.offset() == Some(3600))
        .unwrap_or(false)
}

#[test]
fn chrono_round_trips_keeping_the_offset_where_the_format_does() {
    use chrono::{DateTime, FixedOffset, TimeZone, Utc};
    each_handle!(h => {
        let utc: DateTime<Utc> = Utc.timestamp_opt(1_614_834_367, 123_456_000).unwrap();
        let back: DateTime<Utc> = from_slice(&to_vec(&utc, &h).unwrap(), &h).unwrap();
        assert_eq!(back, utc, "{}", h.name());
        let zone = FixedOffset::east_opt(19_800).unwrap();
        let fixed = utc.with_timezone(&zone);
        let back: DateTime<FixedOffset> = from_slice(&to_vec(&fixed, &h).unwrap(), &h).unwrap();
        assert_eq!(back, fixed, "{}: same instant", h.name());
        if keeps_offset(&h) {
            assert_eq!(back.offset().local_minus_utc(), 19_800, "{}", h.name());
        } else {
            assert_eq!(back.offset().local_minus_utc(), 0, "{}", h.name());
        }
        // The chrono value writes the same bytes as the equivalent codec Time.
        let t = Time::from_unix(1_614_834_367, 123_456_000).unwrap().with_offset(19_800);
        assert_eq!(to_vec(&fixed, &h).unwrap(), to_vec(&t, &h).unwrap(), "{}", h.name());
    });
}

#[test]
fn time_crate_round_trips_keeping_the_offset_where_the_format_does() {
    use time::{OffsetDateTime, UtcOffset};
    each_handle!(h => {
        let utc = OffsetDateTime::from_unix_timestamp_nanos(1_614_834_367_123_456_000).unwrap();
        let back: OffsetDateTime = from_slice(&to_vec(&utc, &h).unwrap(), &h).unwrap();
        assert_eq!(back, utc, "{}", h.name());
        let off = utc.to_offset(UtcOffset::from_whole_seconds(-7200).unwrap());
        let back: OffsetDateTime = from_slice(&to_vec(&off, &h).unwrap(), &h).unwrap();
        assert_eq!(back, off, "{}: same instant", h.name());
        let want = if keeps_offset(&h) { -7200 } else { 0 };
        assert_eq!(back.offset().whole_seconds(), want, "{}", h.name());
    });
}

/// A `Time` field can be `#[codec(omitempty)]`: Go's zero time is left out,
/// as ugorji leaves it out, and comes back as `Time::default()` (that zero).
#[test]
fn omitempty_time_fields_leave_out_go_zero() {
    #[derive(codec::Codec, Debug, PartialEq)]
    struct Event {
        id: u32,
        #[codec(omitempty)]
        at: Time,
    }
    each_handle!(h => {
        let zero = Event { id: 1, at: Time::GO_ZERO };
        let set = Event { id: 2, at: Time::from_unix(1_614_834_367, 0).unwrap() };
        let plain = to_vec(&Event2 { id: 1 }, &h).unwrap();
        assert_eq!(to_vec(&zero, &h).unwrap(), plain, "{}", h.name());
        let got: Event = from_slice(&plain, &h).unwrap();
        assert_eq!(got, zero, "{}", h.name());
        let back: Event = from_slice(&to_vec(&set, &h).unwrap(), &h).unwrap();
        assert_eq!(back, set, "{}", h.name());
    });

    #[derive(codec::Codec)]
    struct Event2 {
        id: u32,
    }
}

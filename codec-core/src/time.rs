//! [`Time`]: an instant with nanosecond precision and an optional UTC offset.
//!
//! Go's `time.Time` tells apart "UTC" and "a fixed zone whose offset is
//! zero"; Binc and Simple put that difference on the wire. `Time` keeps it:
//! `offset() == None` is UTC, `Some(0)` is a fixed zero offset.

use crate::error::{Error, Result};
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// An instant (seconds and nanoseconds since the Unix epoch) and an optional
/// UTC offset in seconds east of Greenwich.
///
/// ```
/// use codec_core::Time;
/// let t = Time::parse_rfc3339("2021-03-04T10:36:07.5+05:30").unwrap();
/// assert_eq!(t.unix_seconds(), 1614834367);
/// assert_eq!(t.nanos(), 500_000_000);
/// assert_eq!(t.offset(), Some(19800));
/// assert_eq!(t.to_rfc3339(), "2021-03-04T10:36:07.5+05:30");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Time {
    secs: i64,
    nanos: u32,
    offset: Option<i32>,
}

/// Civil (calendar) fields of a [`Time`] in its own offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    /// Proleptic Gregorian year.
    pub year: i64,
    /// 1..=12
    pub month: u32,
    /// 1..=31
    pub day: u32,
    /// 0..=23
    pub hour: u32,
    /// 0..=59
    pub minute: u32,
    /// 0..=59
    pub second: u32,
}

const NANOS: u32 = 1_000_000_000;

impl Time {
    /// The Unix epoch, UTC.
    pub const UNIX_EPOCH: Time = Time {
        secs: 0,
        nanos: 0,
        offset: None,
    };

    /// Go's zero `time.Time`, 0001-01-01T00:00:00Z: what every handle
    /// writes as nil (as ugorji does) and reads nil back as, when the
    /// target is a time.
    ///
    /// ```
    /// use codec_core::Time;
    /// assert_eq!(Time::GO_ZERO.to_rfc3339(), "0001-01-01T00:00:00Z");
    /// assert!(Time::GO_ZERO.with_offset(3600).is_go_zero());
    /// assert!(!Time::UNIX_EPOCH.is_go_zero());
    /// ```
    pub const GO_ZERO: Time = Time {
        secs: -62_135_596_800,
        nanos: 0,
        offset: None,
    };

    /// Whether this is the instant [`Time::GO_ZERO`], at any offset.
    #[inline]
    pub const fn is_go_zero(&self) -> bool {
        self.secs == Self::GO_ZERO.secs && self.nanos == 0
    }

    /// A UTC instant; `None` if `nanos` is not below one second.
    pub const fn from_unix(secs: i64, nanos: u32) -> Option<Time> {
        if nanos >= NANOS {
            return None;
        }
        Some(Time {
            secs,
            nanos,
            offset: None,
        })
    }

    /// The same instant shown at `offset_seconds` east of UTC (a fixed zone).
    pub const fn with_offset(self, offset_seconds: i32) -> Time {
        Time {
            offset: Some(offset_seconds),
            ..self
        }
    }

    /// The same instant in UTC.
    pub const fn to_utc(self) -> Time {
        Time {
            offset: None,
            ..self
        }
    }

    /// Seconds since the Unix epoch (negative before 1970).
    pub const fn unix_seconds(&self) -> i64 {
        self.secs
    }

    /// Nanoseconds within the second, `0..1_000_000_000`.
    pub const fn nanos(&self) -> u32 {
        self.nanos
    }

    /// The UTC offset in seconds east, or `None` for UTC.
    pub const fn offset(&self) -> Option<i32> {
        self.offset
    }

    /// Nanoseconds since the Unix epoch, as a 128-bit integer.
    pub const fn unix_nanos(&self) -> i128 {
        self.secs as i128 * NANOS as i128 + self.nanos as i128
    }

    /// A UTC instant from nanoseconds since the epoch; `None` outside the `i64` seconds range.
    pub fn from_unix_nanos(n: i128) -> Option<Time> {
        let secs = i64::try_from(n.div_euclid(NANOS as i128)).ok()?;
        let nanos = n.rem_euclid(NANOS as i128) as u32;
        Time::from_unix(secs, nanos)
    }

    /// The same instant rounded to the nearest multiple of `unit_nanos` (half away from zero in time).
    pub fn round_to(self, unit_nanos: u32) -> Time {
        if unit_nanos <= 1 {
            return self;
        }
        let n = self.unix_nanos();
        let u = unit_nanos as i128;
        let r = n.rem_euclid(u);
        let rounded = if r * 2 >= u { n - r + u } else { n - r };
        Time::from_unix_nanos(rounded).map_or(self, |t| Time {
            offset: self.offset,
            ..t
        })
    }

    /// Converts to a `SystemTime`.
    pub fn to_system_time(&self) -> SystemTime {
        if self.secs >= 0 {
            UNIX_EPOCH + Duration::new(self.secs as u64, self.nanos)
        } else {
            let back = Duration::new(self.secs.unsigned_abs(), 0);
            UNIX_EPOCH - back + Duration::new(0, self.nanos)
        }
    }

    /// Converts from a `SystemTime` (UTC). Fails outside the `i64` seconds range.
    pub fn from_system_time(t: SystemTime) -> Result<Time> {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => {
                let secs = i64::try_from(d.as_secs())
                    .map_err(|_| Error::out_of_range("Time", format!("{d:?} after the epoch")))?;
                Ok(Time {
                    secs,
                    nanos: d.subsec_nanos(),
                    offset: None,
                })
            }
            Err(e) => {
                let d = e.duration();
                let n = -(d.as_nanos() as i128);
                Time::from_unix_nanos(n)
                    .ok_or_else(|| Error::out_of_range("Time", format!("{d:?} before the epoch")))
            }
        }
    }

    /// Calendar fields in the time's own offset.
    pub fn civil(&self) -> Civil {
        let local = self.secs as i128 + self.offset.unwrap_or(0) as i128;
        let days = local.div_euclid(86_400) as i64;
        let sod = local.rem_euclid(86_400) as u32;
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: sod / 3600,
            minute: sod / 60 % 60,
            second: sod % 60,
        }
    }

    /// A time from calendar fields in a given offset (`None` = UTC).
    pub fn from_civil(c: Civil, nanos: u32, offset: Option<i32>) -> Option<Time> {
        if !(1..=12).contains(&c.month)
            || c.day == 0
            || c.day > days_in_month(c.year, c.month)
            || c.hour > 23
            || c.minute > 59
            || c.second > 59
            || nanos >= NANOS
        {
            return None;
        }
        let days = days_from_civil(c.year, c.month, c.day) as i128;
        let local = days * 86_400 + (c.hour * 3600 + c.minute * 60 + c.second) as i128;
        let secs = i64::try_from(local - offset.unwrap_or(0) as i128).ok()?;
        Some(Time {
            secs,
            nanos,
            offset,
        })
    }

    /// Formats as RFC 3339 with nanoseconds, trailing zeros of the fraction
    /// removed (Go's `time.RFC3339Nano`). A zero offset is written `Z`.
    pub fn to_rfc3339(&self) -> String {
        self.to_string()
    }

    /// Parses RFC 3339 (`2006-01-02T15:04:05.999999999Z07:00`). `Z` gives UTC;
    /// a numeric offset gives a fixed offset.
    pub fn parse_rfc3339(s: &str) -> Result<Time> {
        parse_rfc3339(s.as_bytes())
            .ok_or_else(|| Error::syntax(format!("invalid RFC 3339 time {s:?}")))
    }
}

/// [`Time::GO_ZERO`], Go's zero `time.Time`: the value ugorji calls empty,
/// so an absent `#[codec(omitempty)]` or `#[codec(default)]` time field
/// comes back as the time that `omit_empty` leaves out.
///
/// ```
/// use codec_core::Time;
/// assert_eq!(Time::default(), Time::GO_ZERO);
/// ```
impl Default for Time {
    #[inline]
    fn default() -> Time {
        Time::GO_ZERO
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.civil();
        if (0..=9999).contains(&c.year) {
            write!(f, "{:04}", c.year)?;
        } else {
            write!(f, "{}", c.year)?;
        }
        write!(
            f,
            "-{:02}-{:02}T{:02}:{:02}:{:02}",
            c.month, c.day, c.hour, c.minute, c.second
        )?;
        if self.nanos != 0 {
            let mut frac = format!("{:09}", self.nanos);
            while frac.ends_with('0') {
                frac.pop();
            }
            write!(f, ".{frac}")?;
        }
        match self.offset {
            None | Some(0) => f.write_str("Z"),
            Some(o) => {
                let sign = if o < 0 { '-' } else { '+' };
                let a = o.unsigned_abs();
                write!(f, "{sign}{:02}:{:02}", a / 3600, a / 60 % 60)
            }
        }
    }
}

impl From<SystemTime> for Time {
    /// Converts a `SystemTime`, saturating far outside the `i64` seconds range.
    fn from(t: SystemTime) -> Self {
        Time::from_system_time(t).unwrap_or_else(|_| {
            if t > UNIX_EPOCH {
                Time {
                    secs: i64::MAX,
                    nanos: NANOS - 1,
                    offset: None,
                }
            } else {
                Time {
                    secs: i64::MIN,
                    nanos: 0,
                    offset: None,
                }
            }
        })
    }
}

impl From<Time> for SystemTime {
    fn from(t: Time) -> Self {
        t.to_system_time()
    }
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn digits(s: &[u8]) -> Option<u32> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0u32, |acc, &b| {
        acc.checked_mul(10)?.checked_add((b - b'0') as u32)
    })
}

fn parse_rfc3339(s: &[u8]) -> Option<Time> {
    // YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
    if s.len() < 20 || s[4] != b'-' || s[7] != b'-' || s[13] != b':' || s[16] != b':' {
        return None;
    }
    if !matches!(s[10], b'T' | b't' | b' ') {
        return None;
    }
    let year = digits(&s[0..4])? as i64;
    let month = digits(&s[5..7])?;
    let day = digits(&s[8..10])?;
    let hour = digits(&s[11..13])?;
    let minute = digits(&s[14..16])?;
    let second = digits(&s[17..19])?;
    let mut rest = &s[19..];
    let mut nanos = 0u32;
    if rest.first() == Some(&b'.') {
        let n = rest[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 || n > 9 {
            return None;
        }
        nanos = digits(&rest[1..1 + n])? * 10u32.pow(9 - n as u32);
        rest = &rest[1 + n..];
    }
    let offset = match rest {
        [b'Z' | b'z'] => None,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let h = digits(&[*h1, *h2])? as i32;
            let m = digits(&[*m1, *m2])? as i32;
            if h > 23 || m > 59 {
                return None;
            }
            let o = h * 3600 + m * 60;
            Some(if *sign == b'-' { -o } else { o })
        }
        _ => return None,
    };
    Time::from_civil(
        Civil {
            year,
            month,
            day,
            hour,
            minute,
            second,
        },
        nanos,
        offset,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip_over_a_wide_range() {
        for days in (-800_000i64..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn rfc3339_examples() {
        let cases = [
            ("1970-01-01T00:00:00Z", 0, 0, None),
            (
                "2021-03-04T05:06:07.123456789Z",
                1614834367,
                123456789,
                None,
            ),
            (
                "2021-03-04T10:36:07.5+05:30",
                1614834367,
                500_000_000,
                Some(19800),
            ),
            ("1969-12-31T23:59:59.999999999Z", -1, 999_999_999, None),
            ("2000-02-29T12:00:00-08:00", 951854400, 0, Some(-28800)),
        ];
        for (s, secs, nanos, off) in cases {
            let t = Time::parse_rfc3339(s).unwrap();
            assert_eq!(
                (t.unix_seconds(), t.nanos(), t.offset()),
                (secs, nanos, off),
                "{s}"
            );
            assert_eq!(t.to_rfc3339(), s);
        }
    }

    #[test]
    fn rfc3339_rejects_garbage() {
        for s in [
            "",
            "2021-02-30T00:00:00Z",
            "2021-01-01T24:00:00Z",
            "2021-01-01T00:00:00",
            "2021-01-01T00:00:00.Z",
        ] {
            assert!(Time::parse_rfc3339(s).is_err(), "{s}");
        }
    }

    #[test]
    fn system_time_round_trip() {
        for (secs, nanos) in [
            (0, 0),
            (1_600_000_000, 5),
            (-1, 999_999_999),
            (-86_400 * 365 * 300, 1),
        ] {
            let t = Time::from_unix(secs, nanos).unwrap();
            assert_eq!(Time::from(t.to_system_time()), t);
        }
    }

    #[test]
    fn rounding_to_micros() {
        let t = Time::parse_rfc3339("2021-03-04T05:06:07.123456789Z").unwrap();
        assert_eq!(t.round_to(1000).to_rfc3339(), "2021-03-04T05:06:07.123457Z");
    }
}

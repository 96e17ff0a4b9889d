//! Dataset 5a: rust_serialization_benchmark's `log`: 10,000 HTTP access log
//! records, with an owned ([`Logs`]) and a borrowing ([`LogsBorrowed`]) form.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// Number of records, as in rust_serialization_benchmark.
pub const LOGS: usize = 10_000;

/// One access log record.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    msgpacker::MsgPacker,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct Log {
    /// IPv4 address (an array of four integers for the serde peers; a byte
    /// string in our codec).
    #[n(0)]
    pub address: [u8; 4],
    /// RFC 1413 identity.
    #[n(1)]
    pub identity: String,
    /// User id.
    #[n(2)]
    pub userid: String,
    /// Date.
    #[n(3)]
    pub date: String,
    /// Request line.
    #[n(4)]
    pub request: String,
    /// Status code.
    #[n(5)]
    pub code: u16,
    /// Response size.
    #[n(6)]
    pub size: u64,
}

/// The owned dataset.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    msgpacker::MsgPacker,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct Logs {
    /// The records.
    #[n(0)]
    pub logs: Vec<Log>,
}

/// One record borrowing its strings from the input.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    minicbor::Encode,
    minicbor::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct LogBorrowed<'a> {
    /// IPv4 address.
    #[n(0)]
    pub address: [u8; 4],
    /// RFC 1413 identity.
    #[b(1)]
    pub identity: &'a str,
    /// User id.
    #[b(2)]
    pub userid: &'a str,
    /// Date.
    #[b(3)]
    pub date: &'a str,
    /// Request line.
    #[b(4)]
    pub request: &'a str,
    /// Status code.
    #[n(5)]
    pub code: u16,
    /// Response size.
    #[n(6)]
    pub size: u64,
}

/// The borrowing dataset.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    minicbor::Encode,
    minicbor::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct LogsBorrowed<'a> {
    /// The records.
    #[serde(borrow)]
    #[b(0)]
    pub logs: Vec<LogBorrowed<'a>>,
}

impl LogsBorrowed<'_> {
    /// Copies into the owned form (for round-trip checks).
    #[must_use]
    pub fn to_owned_logs(&self) -> Logs {
        Logs {
            logs: self
                .logs
                .iter()
                .map(|l| Log {
                    address: l.address,
                    identity: l.identity.to_owned(),
                    userid: l.userid.to_owned(),
                    date: l.date.to_owned(),
                    request: l.request.to_owned(),
                    code: l.code,
                    size: l.size,
                })
                .collect(),
        }
    }
}

/// Generates the 10,000 deterministic records.
#[must_use]
pub fn generate() -> Logs {
    const USERS: [&str; 6] = ["-", "frank", "alice", "bob", "carol", "dave"];
    const METHODS: [&str; 4] = ["GET", "POST", "PUT", "DELETE"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    const CODES: [u16; 6] = [200, 201, 301, 404, 500, 503];
    let mut rng = Rng::new(0x0106_5EED);
    let logs = (0..LOGS)
        .map(|_| Log {
            address: rng.next_u32().to_be_bytes(),
            identity: if rng.chance(0.9) {
                "-".into()
            } else {
                rng.ascii(8)
            },
            userid: USERS[rng.range(0, USERS.len() as u64) as usize].into(),
            date: format!(
                "{:02}/{}/{} {:02}:{:02}:{:02} -0700",
                rng.range(1, 29),
                MONTHS[rng.range(0, 12) as usize],
                rng.range(1995, 2025),
                rng.range(0, 24),
                rng.range(0, 60),
                rng.range(0, 60)
            ),
            request: format!(
                "{} /{}/{}.{} HTTP/1.{}",
                METHODS[rng.range(0, 4) as usize],
                {
                    let n = rng.range(2, 10) as usize;
                    rng.ascii(n)
                },
                {
                    let n = rng.range(4, 16) as usize;
                    rng.ascii(n)
                },
                ["html", "png", "js", "css"][rng.range(0, 4) as usize],
                rng.range(0, 2)
            ),
            code: CODES[rng.range(0, CODES.len() as u64) as usize],
            size: rng.range(0, 100_000_000),
        })
        .collect();
    Logs { logs }
}

//! Dataset 4: the polyglot benchmark message (a message string, an embedded
//! bytes message, a `map<string, double>`, an enum message and a repeated
//! embedded message); the dataset is 1024 messages encoded and decoded in a row.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::rng::Rng;

/// Number of messages in the dataset.
pub const MESSAGES: usize = 1024;

/// The embedded message: a byte string.
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
pub struct Embedded {
    /// Payload bytes.
    #[serde(with = "serde_bytes")]
    #[cbor(n(0), with = "minicbor::bytes")]
    #[msgpacker(binary)]
    pub payload: Vec<u8>,
}

/// The enum of the enum message.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
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
#[msgpack(c_enum)]
#[cbor(index_only)]
#[repr(u8)]
#[derive(codec::Codec)]
pub enum Kind {
    /// First.
    #[n(0)]
    Unknown = 0,
    /// Second.
    #[n(1)]
    Request = 1,
    /// Third.
    #[n(2)]
    Response = 2,
    /// Fourth.
    #[n(3)]
    Event = 3,
}

/// The enum message.
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
pub struct EnumMessage {
    /// The kind.
    #[n(0)]
    pub kind: Kind,
}

/// One polyglot message.
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
pub struct Message {
    /// A string.
    #[n(0)]
    pub message: String,
    /// An embedded bytes message.
    #[n(1)]
    pub embedded: Embedded,
    /// A `map<string, double>`.
    #[n(2)]
    pub map: BTreeMap<String, f64>,
    /// An enum message.
    #[n(3)]
    pub enum_message: EnumMessage,
    /// A repeated embedded message.
    #[n(4)]
    pub repeated: Vec<Embedded>,
}

/// The dataset: [`MESSAGES`] messages.
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
pub struct Messages {
    /// The messages.
    #[n(0)]
    pub messages: Vec<Message>,
}

/// Generates the 1024 deterministic messages.
#[must_use]
pub fn generate() -> Messages {
    let mut rng = Rng::new(0x9017_6107);
    let kinds = [Kind::Unknown, Kind::Request, Kind::Response, Kind::Event];
    let bytes = |rng: &mut Rng, n: usize| -> Embedded {
        Embedded {
            payload: (0..n).map(|_| rng.next_u32() as u8).collect(),
        }
    };
    let messages = (0..MESSAGES)
        .map(|i| Message {
            message: format!("message {i}: {}", rng.ascii(24)),
            embedded: bytes(&mut rng, 32),
            map: (0..4)
                .map(|k| (format!("key{k}"), rng.f64() * 1e6))
                .collect(),
            enum_message: EnumMessage {
                kind: kinds[i % kinds.len()],
            },
            repeated: (0..3).map(|_| bytes(&mut rng, 8)).collect(),
        })
        .collect();
    Messages { messages }
}

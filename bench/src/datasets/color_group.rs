//! Dataset 3: gosercomp's `ColorGroup`.

use serde::{Deserialize, Serialize};

/// `{id: 1, name: "Reds", colors: ["Crimson", "Red", "Ruby", "Maroon"]}`.
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
pub struct ColorGroup {
    /// The id.
    #[n(0)]
    pub id: i32,
    /// The name.
    #[n(1)]
    pub name: String,
    /// The colours.
    #[n(2)]
    pub colors: Vec<String>,
}

/// The gosercomp value.
#[must_use]
pub fn generate() -> ColorGroup {
    ColorGroup {
        id: 1,
        name: "Reds".into(),
        colors: ["Crimson", "Red", "Ruby", "Maroon"]
            .map(String::from)
            .to_vec(),
    }
}

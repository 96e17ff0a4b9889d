//! Dataset 7b: typed structs for `citm_catalog.json` (an event catalogue).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Map keyed by numeric ids written as strings.
pub type IdMap<V> = BTreeMap<String, V>;

/// The document.
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
#[serde(rename_all = "camelCase")]
#[derive(codec::Codec)]
#[codec(rename_all = "camelCase")]
pub struct CitmCatalog {
    /// Area names.
    #[n(0)]
    pub area_names: IdMap<String>,
    /// Audience subcategory names.
    #[n(1)]
    pub audience_sub_category_names: IdMap<String>,
    /// Block names (empty).
    #[n(2)]
    pub block_names: IdMap<String>,
    /// Events.
    #[n(3)]
    pub events: IdMap<Event>,
    /// Performances.
    #[n(4)]
    pub performances: Vec<Performance>,
    /// Seat category names.
    #[n(5)]
    pub seat_category_names: IdMap<String>,
    /// Subtopic names.
    #[n(6)]
    pub sub_topic_names: IdMap<String>,
    /// Subject names (empty).
    #[n(7)]
    pub subject_names: IdMap<String>,
    /// Topic names.
    #[n(8)]
    pub topic_names: IdMap<String>,
    /// Topic to subtopics.
    #[n(9)]
    pub topic_sub_topics: IdMap<Vec<u64>>,
    /// Venue names.
    #[n(10)]
    pub venue_names: BTreeMap<String, String>,
}

/// An event.
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
#[serde(rename_all = "camelCase")]
#[derive(codec::Codec)]
#[codec(rename_all = "camelCase")]
pub struct Event {
    /// Always null here.
    #[n(0)]
    pub description: Option<String>,
    /// Id.
    #[n(1)]
    pub id: u64,
    /// Logo path.
    #[n(2)]
    pub logo: Option<String>,
    /// Name.
    #[n(3)]
    pub name: String,
    /// Subtopics (missing in a few events).
    #[serde(default)]
    #[n(4)]
    #[codec(default)]
    pub sub_topic_ids: Vec<u64>,
    /// Always null here.
    #[n(5)]
    pub subject_code: Option<String>,
    /// Always null here.
    #[n(6)]
    pub subtitle: Option<String>,
    /// Topics (missing in a few events).
    #[serde(default)]
    #[n(7)]
    #[codec(default)]
    pub topic_ids: Vec<u64>,
}

/// A performance.
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
#[serde(rename_all = "camelCase")]
#[derive(codec::Codec)]
#[codec(rename_all = "camelCase")]
pub struct Performance {
    /// Event id.
    #[n(0)]
    pub event_id: u64,
    /// Id.
    #[n(1)]
    pub id: u64,
    /// Logo path.
    #[n(2)]
    pub logo: Option<String>,
    /// Always null here.
    #[n(3)]
    pub name: Option<String>,
    /// Prices.
    #[n(4)]
    pub prices: Vec<Price>,
    /// Seat categories.
    #[n(5)]
    pub seat_categories: Vec<SeatCategory>,
    /// Always null here.
    #[n(6)]
    pub seat_map_image: Option<String>,
    /// Start (ms since the epoch).
    #[n(7)]
    pub start: u64,
    /// Venue code.
    #[n(8)]
    pub venue_code: String,
}

/// A price.
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
#[serde(rename_all = "camelCase")]
#[derive(codec::Codec)]
#[codec(rename_all = "camelCase")]
pub struct Price {
    /// Amount.
    #[n(0)]
    pub amount: u64,
    /// Audience subcategory.
    #[n(1)]
    pub audience_sub_category_id: u64,
    /// Seat category.
    #[n(2)]
    pub seat_category_id: u64,
}

/// A seat category.
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
#[serde(rename_all = "camelCase")]
#[derive(codec::Codec)]
#[codec(rename_all = "camelCase")]
pub struct SeatCategory {
    /// Areas.
    #[n(0)]
    pub areas: Vec<Area>,
    /// Id.
    #[n(1)]
    pub seat_category_id: u64,
}

/// An area.
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
#[serde(rename_all = "camelCase")]
#[derive(codec::Codec)]
#[codec(rename_all = "camelCase")]
pub struct Area {
    /// Id.
    #[n(0)]
    pub area_id: u64,
    /// Blocks (always empty here).
    #[n(1)]
    pub block_ids: Vec<u64>,
}

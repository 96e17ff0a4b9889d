//! Dataset 7c: typed structs for `canada.json` (a GeoJSON outline of Canada).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The document: a feature collection.
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
pub struct Canada {
    /// `"FeatureCollection"`.
    #[serde(rename = "type")]
    #[msgpack(key = "type")]
    #[n(0)]
    #[codec(rename = "type")]
    pub kind: String,
    /// The features.
    #[n(1)]
    pub features: Vec<Feature>,
}

/// A feature.
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
pub struct Feature {
    /// `"Feature"`.
    #[serde(rename = "type")]
    #[msgpack(key = "type")]
    #[n(0)]
    #[codec(rename = "type")]
    pub kind: String,
    /// Properties (`{"name": "Canada"}`).
    #[n(1)]
    pub properties: BTreeMap<String, String>,
    /// The geometry.
    #[n(2)]
    pub geometry: Geometry,
}

/// A polygon geometry.
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
pub struct Geometry {
    /// `"Polygon"`.
    #[serde(rename = "type")]
    #[msgpack(key = "type")]
    #[n(0)]
    #[codec(rename = "type")]
    pub kind: String,
    /// Rings of `[longitude, latitude]` points.
    #[n(1)]
    pub coordinates: Vec<Vec<[f64; 2]>>,
}

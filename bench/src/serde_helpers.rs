//! `#[serde(with = ...)]` helpers so that nested byte containers serialize as
//! byte strings (the way our codec encodes `Vec<u8>` natively) instead of as
//! arrays of integers.

/// `Vec<Vec<u8>>` as a sequence of byte strings.
pub mod vec_bytes {
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_bytes::{ByteBuf, Bytes};

    /// Serializes every element with `serialize_bytes`.
    pub fn serialize<S: Serializer>(v: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|b| Bytes::new(b)))
    }

    /// Deserializes a sequence of byte strings.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        let v = Vec::<ByteBuf>::deserialize(d)?;
        Ok(v.into_iter().map(ByteBuf::into_vec).collect())
    }
}

/// `BTreeMap<String, Vec<u8>>` with byte-string values.
pub mod map_bytes {
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_bytes::{ByteBuf, Bytes};
    use std::collections::BTreeMap;

    /// Serializes every value with `serialize_bytes`.
    pub fn serialize<S: Serializer>(
        m: &BTreeMap<String, Vec<u8>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(m.iter().map(|(k, v)| (k, Bytes::new(v))))
    }

    /// Deserializes a map whose values are byte strings.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, Vec<u8>>, D::Error> {
        let m = BTreeMap::<String, ByteBuf>::deserialize(d)?;
        Ok(m.into_iter().map(|(k, v)| (k, v.into_vec())).collect())
    }
}

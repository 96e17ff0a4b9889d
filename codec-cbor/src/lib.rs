//! The cbor handle of the codec family (being written).

//! The msgpack handle of the codec family (being written).

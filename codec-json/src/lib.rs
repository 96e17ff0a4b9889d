//! The json handle of the codec family (being written).

//! The simple handle of the codec family (being written).

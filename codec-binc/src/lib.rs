//! The binc handle of the codec family (being written).

//! The `codec` command (being written).
fn main() {}

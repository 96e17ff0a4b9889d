extern crate codec_core as codec;
use codec::Codec;

use std::collections::BTreeMap;

#[derive(Codec)]
struct S {
    #[codec(key = 1)]
    a: u8,
    #[codec(rest)]
    b: BTreeMap<String, u8>,
}

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

use std::collections::BTreeMap;

#[derive(Codec)]
struct S {
    #[codec(rest)]
    a: BTreeMap<String, u8>,
    #[codec(rest)]
    b: BTreeMap<String, u8>,
}

fn main() {}

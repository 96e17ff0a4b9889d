extern crate codec_core as codec;
use codec::Codec;
use std::collections::BTreeMap;

#[derive(Codec)]
struct Inner {
    id: u32,
    #[codec(rest)]
    more: BTreeMap<String, u32>,
}

#[derive(Codec)]
struct Middle {
    #[codec(flatten)]
    inner: Inner,
}

#[derive(Codec)]
struct Outer {
    name: String,
    #[codec(flatten)]
    middle: Middle,
    #[codec(rest)]
    extra: BTreeMap<String, u32>,
}

fn main() {}

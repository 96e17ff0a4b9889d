extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct Inner {
    id: u32,
    #[codec(rename = "name")]
    label: String,
}

#[derive(Codec)]
struct Middle {
    #[codec(flatten)]
    inner: Inner,
    extra: u8,
}

#[derive(Codec)]
struct Outer {
    name: String,
    #[codec(flatten)]
    middle: Middle,
}

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct Inner {
    a: u8,
}

#[derive(Codec)]
struct S {
    #[codec(flatten, rename = "x")]
    inner: Inner,
}

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S {
    a: u8,
    #[codec(rename = "a")]
    b: u8,
}

fn main() {}

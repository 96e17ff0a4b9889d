extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S {
    #[codec(rename = 5)]
    a: u8,
}

fn main() {}

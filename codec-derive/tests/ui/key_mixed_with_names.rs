extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S {
    #[codec(key = 1)]
    a: u8,
    b: u8,
}

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S {
    #[codec(key = 1)]
    a: u8,
    #[codec(key = 1)]
    b: u8,
}

fn main() {}

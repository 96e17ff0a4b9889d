extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
#[codec(index)]
struct S {
    a: u8,
}

fn main() {}

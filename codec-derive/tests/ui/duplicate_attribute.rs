extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S {
    #[codec(skip, skip)]
    a: u8,
}

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S {
    #[codec(renam = "x")]
    a: u8,
}

fn main() {}

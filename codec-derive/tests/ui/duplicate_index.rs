extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
#[codec(index)]
enum E {
    A,
    #[codec(index = 0)]
    B,
}

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
enum E {
    #[codec(index = 3)]
    A,
}

fn main() {}

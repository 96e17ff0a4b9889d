extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
#[codec(toarray)]
enum E {
    A { x: u8 },
}

fn main() {}

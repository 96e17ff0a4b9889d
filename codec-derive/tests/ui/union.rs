extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
union U {
    a: u8,
    b: u16,
}

fn main() {}

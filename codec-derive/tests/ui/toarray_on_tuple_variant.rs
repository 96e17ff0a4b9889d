extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
enum E {
    #[codec(toarray)]
    A(u8, u8),
}

fn main() {}

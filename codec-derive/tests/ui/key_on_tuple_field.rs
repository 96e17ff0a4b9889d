extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S(#[codec(key = 1)] u8, u8);

fn main() {}

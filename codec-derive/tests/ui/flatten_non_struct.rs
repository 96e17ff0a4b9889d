extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct S {
    #[codec(flatten)]
    a: u32,
}

fn main() {}

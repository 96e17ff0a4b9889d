extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
#[codec(rename_all = "Title Case")]
struct S {
    a: u8,
}

fn main() {}

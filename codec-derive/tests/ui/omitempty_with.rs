extern crate codec_core as codec;
use codec::Codec;

mod m {}

#[derive(Codec)]
struct S {
    #[codec(with = "m", omitempty)]
    a: u8,
}

fn main() {}

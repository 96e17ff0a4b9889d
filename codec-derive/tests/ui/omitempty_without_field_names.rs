extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
enum E {
    #[codec(omitempty)]
    A(u8, u8),
    #[codec(omitempty)]
    B(u8),
    #[codec(omitempty)]
    C,
    #[codec(omitempty)]
    D { a: u8 },
}

#[derive(Codec)]
#[codec(omitempty)]
struct T(Option<u8>, u8);

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
struct Inner {
    a: u8,
}

#[derive(Codec)]
enum E {
    A {
        #[codec(flatten)]
        inner: Inner,
    },
}

fn main() {}

extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
#[codec(rename_all = "lowercase")]
enum E {
    Ab,
    #[codec(rename = "ab")]
    Other,
}

fn main() {}

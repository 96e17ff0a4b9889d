extern crate codec_core as codec;
use codec::Codec;

#[derive(Codec)]
enum E {
    #[codec(rename_all = "camelCase")]
    A(u8, u8),
    #[codec(rename_all = "camelCase")]
    B(u8),
    #[codec(rename_all = "camelCase")]
    C,
    #[codec(rename_all = "camelCase")]
    D { field_one: u8 },
}

#[derive(Codec)]
#[codec(rename_all = "camelCase")]
struct T(u8, u8);

fn main() {}

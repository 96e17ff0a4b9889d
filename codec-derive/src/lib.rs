//! `#[derive(Codec)]` for the codec family (placeholder while the derive is written).
use proc_macro::TokenStream;

/// Derives `Encode` and `Decode`.
#[proc_macro_derive(Codec, attributes(codec))]
pub fn derive_codec(input: TokenStream) -> TokenStream {
    let _ = input;
    TokenStream::new()
}

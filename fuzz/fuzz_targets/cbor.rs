//! cargo-fuzz target `cbor`: see `codec_fuzz_targets::targets::cbor`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    codec_fuzz_targets::targets::cbor(data);
});

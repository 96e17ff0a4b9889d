//! cargo-fuzz target `binc`: see `codec_fuzz_targets::targets::binc`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    codec_fuzz_targets::targets::binc(data);
});

//! cargo-fuzz target `json`: see `codec_fuzz_targets::targets::json`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    codec_fuzz_targets::targets::json(data);
});

//! cargo-fuzz target `json_whitespace`: see `codec_fuzz_targets::targets::json_whitespace`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    codec_fuzz_targets::targets::json_whitespace(data);
});

//! cargo-fuzz target `simple`: see `codec_fuzz_targets::targets::simple`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    codec_fuzz_targets::targets::simple(data);
});

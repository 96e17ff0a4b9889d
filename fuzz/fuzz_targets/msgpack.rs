//! cargo-fuzz target `msgpack`: see `codec_fuzz_targets::targets::msgpack`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    codec_fuzz_targets::targets::msgpack(data);
});

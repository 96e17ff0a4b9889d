#!/bin/sh
# Compile time of #[derive(Codec)] against serde's derives, on a generated
# crate of N structs of ten fields (scalars, strings, vectors, options, a
# boxed struct), each crate with one JSON round trip in use.
#
#   bench/compile-time.sh [N] [DIR]
#
# N defaults to 100; the crate is written to DIR (default
# target/compile-time) and built there with its own target directory. For
# each derive it builds the dependencies once, then times a rebuild of the
# crate alone (after touching it), in release and as a non-incremental
# `cargo check`, and prints the size of the macro-expanded source (rustc
# -Zunpretty=expanded, through RUSTC_BOOTSTRAP).
set -eu
n=${1:-100}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-$root/target/compile-time}
mkdir -p "$dir/src"
cd "$dir"

cat >Cargo.toml <<EOF
[package]
name = "compile-time"
version = "0.0.0"
edition = "2024"
publish = false

[features]
codec = ["dep:codec"]
serde = ["dep:serde", "dep:serde_json"]

[dependencies]
codec = { path = "$root/codec", optional = true }
serde = { version = "1", features = ["derive"], optional = true }
serde_json = { version = "1", optional = true }

[workspace]
EOF

gen() {
    # $1: derive line, $2: use line
    echo "$2"
    i=0
    while [ "$i" -lt "$n" ]; do
        echo "$1"
        echo "pub struct S$i {"
        echo "    pub id: u64, pub name: String, pub tags: Vec<String>, pub score: f64, pub flag: bool,"
        echo "    pub opt: Option<i32>, pub small: u8, pub big: i64, pub data: Vec<u32>, pub next: Option<Box<S0>>,"
        echo "}"
        i=$((i + 1))
    done
}
last=$((n - 1))
{
    echo '#![allow(dead_code)]'
    echo '#[cfg(feature = "codec")]'
    echo 'mod types {'
    gen '#[derive(codec::Codec, Debug, PartialEq)]' ''
    echo '}'
    echo '#[cfg(feature = "codec")]'
    echo "pub fn round_trip(v: &types::S$last) -> types::S$last {"
    echo '    let h = codec::JsonHandle::default();'
    echo '    codec::from_slice(&codec::to_vec(v, &h).unwrap(), &h).unwrap()'
    echo '}'
    echo '#[cfg(feature = "serde")]'
    echo 'mod types {'
    gen '#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]' ''
    echo '}'
    echo '#[cfg(feature = "serde")]'
    echo "pub fn round_trip(v: &types::S$last) -> types::S$last {"
    echo '    serde_json::from_slice(&serde_json::to_vec(v).unwrap()).unwrap()'
    echo '}'
} >src/lib.rs

secs() {
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    printf '%.1f' "$(echo "$end - $start" | bc)"
}

echo "| derive | release rebuild (s) | check rebuild (s) | expanded source (bytes) |"
echo "|---|---:|---:|---:|"
for f in codec serde; do
    cargo build -q --release --features "$f"
    cargo check -q --features "$f"
    touch src/lib.rs
    rel=$(secs cargo build -q --release --features "$f")
    touch src/lib.rs
    chk=$(secs env CARGO_INCREMENTAL=0 cargo check -q --features "$f")
    size=$(RUSTC_BOOTSTRAP=1 cargo rustc -q --features "$f" --lib -- -Zunpretty=expanded 2>/dev/null | wc -c)
    echo "| $f ($n structs) | $rel | $chk | $size |"
done

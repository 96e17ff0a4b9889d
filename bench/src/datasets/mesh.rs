//! Dataset 5b: rust_serialization_benchmark's `mesh`: 125,000 triangles of
//! four `[f32; 3]` vectors.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// Number of triangles, as in rust_serialization_benchmark.
pub const TRIANGLES: usize = 125_000;

/// One triangle.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    msgpacker::MsgPacker,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct Triangle {
    /// First vertex.
    #[n(0)]
    pub v0: [f32; 3],
    /// Second vertex.
    #[n(1)]
    pub v1: [f32; 3],
    /// Third vertex.
    #[n(2)]
    pub v2: [f32; 3],
    /// Normal.
    #[n(3)]
    pub normal: [f32; 3],
}

/// The mesh.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    msgpacker::MsgPacker,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct Mesh {
    /// The triangles.
    #[n(0)]
    pub triangles: Vec<Triangle>,
}

/// Generates the deterministic mesh.
#[must_use]
pub fn generate() -> Mesh {
    let mut rng = Rng::new(0x3E54);
    let v = |rng: &mut Rng| [rng.f32(), rng.f32(), rng.f32()];
    let triangles = (0..TRIANGLES)
        .map(|_| Triangle {
            v0: v(&mut rng),
            v1: v(&mut rng),
            v2: v(&mut rng),
            normal: v(&mut rng),
        })
        .collect();
    Mesh { triangles }
}

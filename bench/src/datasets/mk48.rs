//! Dataset 5d: rust_serialization_benchmark's `mk48`: 1,000 game updates of
//! small integers, floats, optional enums, `Vec<bool>` and `Vec<u16>`.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// Number of updates, as in rust_serialization_benchmark.
pub const UPDATES: usize = 1_000;

/// Entity kind (a subset of mk48's).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
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
#[msgpack(c_enum)]
#[cbor(index_only)]
#[repr(u8)]
#[derive(codec::Codec)]
pub enum EntityType {
    /// Arleigh Burke.
    #[n(0)]
    ArleighBurke = 0,
    /// Bismarck.
    #[n(1)]
    Bismarck = 1,
    /// Crate.
    #[n(2)]
    Crate = 2,
    /// Fairmile D.
    #[n(3)]
    FairmileD = 3,
    /// Mark 18 torpedo.
    #[n(4)]
    Mark18 = 4,
    /// Oil platform.
    #[n(5)]
    OilPlatform = 5,
    /// Seahawk.
    #[n(6)]
    Seahawk = 6,
    /// Typhoon.
    #[n(7)]
    Typhoon = 7,
}

/// A 2-D vector.
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
pub struct Vector2f {
    /// x.
    #[n(0)]
    pub x: f32,
    /// y.
    #[n(1)]
    pub y: f32,
}

/// Position and motion.
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
pub struct Transform {
    /// Altitude.
    #[n(0)]
    pub altitude: i8,
    /// Angle.
    #[n(1)]
    pub angle: u16,
    /// Position.
    #[n(2)]
    pub position: Vector2f,
    /// Velocity.
    #[n(3)]
    pub velocity: i16,
}

/// Steering.
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
pub struct Guidance {
    /// Angle.
    #[n(0)]
    pub angle: u16,
    /// Submerge.
    #[n(1)]
    pub submerge: bool,
    /// Velocity.
    #[n(2)]
    pub velocity: i16,
}

/// A visible contact.
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
pub struct Contact {
    /// Damage.
    #[n(0)]
    pub damage: u8,
    /// Entity id.
    #[n(1)]
    pub entity_id: u32,
    /// Entity type.
    #[n(2)]
    pub entity_type: Option<EntityType>,
    /// Guidance.
    #[n(3)]
    pub guidance: Guidance,
    /// Player id.
    #[n(4)]
    pub player_id: Option<u16>,
    /// Reload state per weapon.
    #[n(5)]
    pub reloads: Vec<bool>,
    /// Transform.
    #[n(6)]
    pub transform: Transform,
    /// Turret angles.
    #[n(7)]
    pub turret_angles: Vec<u16>,
}

/// A terrain chunk update.
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
pub struct TerrainUpdate {
    /// Chunk id.
    #[n(0)]
    pub chunk_id: [i8; 2],
    /// Chunk data.
    #[serde(with = "serde_bytes")]
    #[cbor(n(1), with = "minicbor::bytes")]
    #[msgpacker(binary)]
    pub data: Vec<u8>,
}

/// One game update.
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
pub struct Update {
    /// Contacts.
    #[n(0)]
    pub contacts: Vec<Contact>,
    /// Score.
    #[n(1)]
    pub score: u32,
    /// World radius.
    #[n(2)]
    pub world_radius: f32,
    /// Terrain updates.
    #[n(3)]
    pub terrain_updates: Vec<TerrainUpdate>,
}

/// The dataset.
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
pub struct Updates {
    /// The updates.
    #[n(0)]
    pub updates: Vec<Update>,
}

const TYPES: [EntityType; 8] = [
    EntityType::ArleighBurke,
    EntityType::Bismarck,
    EntityType::Crate,
    EntityType::FairmileD,
    EntityType::Mark18,
    EntityType::OilPlatform,
    EntityType::Seahawk,
    EntityType::Typhoon,
];

fn contact(rng: &mut Rng) -> Contact {
    Contact {
        damage: rng.range(0, 256) as u8,
        entity_id: rng.next_u32(),
        entity_type: rng.chance(0.9).then(|| TYPES[rng.range(0, 8) as usize]),
        guidance: Guidance {
            angle: rng.next_u32() as u16,
            submerge: rng.bool(),
            velocity: rng.next_u32() as i16,
        },
        player_id: rng.chance(0.5).then(|| rng.next_u32() as u16),
        reloads: (0..rng.range(0, 16)).map(|_| rng.bool()).collect(),
        transform: Transform {
            altitude: rng.next_u32() as i8,
            angle: rng.next_u32() as u16,
            position: Vector2f {
                x: rng.f32() * 1000.0,
                y: rng.f32() * 1000.0,
            },
            velocity: rng.next_u32() as i16,
        },
        turret_angles: (0..rng.range(0, 8))
            .map(|_| rng.next_u32() as u16)
            .collect(),
    }
}

/// Generates the 1,000 deterministic updates.
#[must_use]
pub fn generate() -> Updates {
    let mut rng = Rng::new(0x3B48);
    let rng = &mut rng;
    let updates = (0..UPDATES)
        .map(|_| Update {
            contacts: (0..rng.range(0, 20)).map(|_| contact(rng)).collect(),
            score: rng.range(0, 100_000) as u32,
            world_radius: rng.f32() * 10_000.0,
            terrain_updates: (0..rng.range(0, 2))
                .map(|_| TerrainUpdate {
                    chunk_id: [rng.next_u32() as i8, rng.next_u32() as i8],
                    data: (0..rng.range(8, 64))
                        .map(|_| rng.next_u32() as u8)
                        .collect(),
                })
                .collect(),
        })
        .collect();
    Updates { updates }
}

//! Dataset 5c: rust_serialization_benchmark's `minecraft_savedata`: 500
//! players with enums, options, nested structs and vectors.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// Number of players, as in rust_serialization_benchmark.
pub const PLAYERS: usize = 500;

/// Game mode.
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
pub enum GameType {
    /// Survival.
    #[n(0)]
    Survival = 0,
    /// Creative.
    #[n(1)]
    Creative = 1,
    /// Adventure.
    #[n(2)]
    Adventure = 2,
    /// Spectator.
    #[n(3)]
    Spectator = 3,
}

/// An inventory item.
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
pub struct Item {
    /// Stack size.
    #[n(0)]
    pub count: i8,
    /// Slot.
    #[n(1)]
    pub slot: u8,
    /// Item id.
    #[n(2)]
    pub id: String,
}

/// Player abilities.
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
pub struct Abilities {
    /// Walking speed.
    #[n(0)]
    pub walk_speed: f32,
    /// Flying speed.
    #[n(1)]
    pub fly_speed: f32,
    /// May fly.
    #[n(2)]
    pub may_fly: bool,
    /// Flying.
    #[n(3)]
    pub flying: bool,
    /// Invulnerable.
    #[n(4)]
    pub invulnerable: bool,
    /// May build.
    #[n(5)]
    pub may_build: bool,
    /// Builds instantly.
    #[n(6)]
    pub instabuild: bool,
}

/// An entity.
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
pub struct Entity {
    /// Entity id.
    #[n(0)]
    pub id: String,
    /// Position.
    #[n(1)]
    pub pos: [f64; 3],
    /// Motion.
    #[n(2)]
    pub motion: [f64; 3],
    /// Rotation.
    #[n(3)]
    pub rotation: [f32; 2],
    /// Fall distance.
    #[n(4)]
    pub fall_distance: f32,
    /// Fire ticks.
    #[n(5)]
    pub fire: u16,
    /// Air ticks.
    #[n(6)]
    pub air: u16,
    /// On the ground.
    #[n(7)]
    pub on_ground: bool,
    /// No gravity.
    #[n(8)]
    pub no_gravity: bool,
    /// Invulnerable.
    #[n(9)]
    pub invulnerable: bool,
    /// Portal cooldown.
    #[n(10)]
    pub portal_cooldown: i32,
    /// UUID.
    #[n(11)]
    pub uuid: [u32; 4],
    /// Custom name.
    #[n(12)]
    pub custom_name: Option<String>,
    /// Custom name visible.
    #[n(13)]
    pub custom_name_visible: bool,
    /// Silent.
    #[n(14)]
    pub silent: bool,
    /// Glowing.
    #[n(15)]
    pub glowing: bool,
}

/// A vehicle: its UUID and entity.
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
pub struct Vehicle {
    /// UUID.
    #[n(0)]
    pub uuid: [u32; 4],
    /// Entity.
    #[n(1)]
    pub entity: Entity,
}

/// Recipe book state.
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
pub struct RecipeBook {
    /// Known recipes.
    #[n(0)]
    pub recipes: Vec<String>,
    /// Recipes to display.
    #[n(1)]
    pub to_be_displayed: Vec<String>,
    /// Filter.
    #[n(2)]
    pub is_filtering_craftable: bool,
    /// GUI open.
    #[n(3)]
    pub is_gui_open: bool,
    /// Furnace filter.
    #[n(4)]
    pub is_furnace_filtering_craftable: bool,
    /// Furnace GUI open.
    #[n(5)]
    pub is_furnace_gui_open: bool,
    /// Blast furnace filter.
    #[n(6)]
    pub is_blasting_furnace_filtering_craftable: bool,
    /// Blast furnace GUI open.
    #[n(7)]
    pub is_blasting_furnace_gui_open: bool,
    /// Smoker filter.
    #[n(8)]
    pub is_smoker_filtering_craftable: bool,
    /// Smoker GUI open.
    #[n(9)]
    pub is_smoker_gui_open: bool,
}

/// One player's save data.
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
pub struct Player {
    /// Game mode.
    #[n(0)]
    pub game_type: GameType,
    /// Previous game mode.
    #[n(1)]
    pub previous_game_type: GameType,
    /// Score.
    #[n(2)]
    pub score: u64,
    /// Dimension.
    #[n(3)]
    pub dimension: String,
    /// Selected slot.
    #[n(4)]
    pub selected_item_slot: u32,
    /// Selected item.
    #[n(5)]
    pub selected_item: Item,
    /// Spawn dimension.
    #[n(6)]
    pub spawn_dimension: Option<String>,
    /// Spawn x.
    #[n(7)]
    pub spawn_x: i64,
    /// Spawn y.
    #[n(8)]
    pub spawn_y: i64,
    /// Spawn z.
    #[n(9)]
    pub spawn_z: i64,
    /// Spawn forced.
    #[n(10)]
    pub spawn_forced: Option<bool>,
    /// Sleep timer.
    #[n(11)]
    pub sleep_timer: u16,
    /// Food exhaustion.
    #[n(12)]
    pub food_exhaustion_level: f32,
    /// Food saturation.
    #[n(13)]
    pub food_saturation_level: f32,
    /// Food tick timer.
    #[n(14)]
    pub food_tick_timer: u32,
    /// XP level.
    #[n(15)]
    pub xp_level: u32,
    /// XP progress.
    #[n(16)]
    pub xp_p: f32,
    /// XP total.
    #[n(17)]
    pub xp_total: i32,
    /// XP seed.
    #[n(18)]
    pub xp_seed: i32,
    /// Inventory.
    #[n(19)]
    pub inventory: Vec<Item>,
    /// Ender chest.
    #[n(20)]
    pub ender_items: Vec<Item>,
    /// Abilities.
    #[n(21)]
    pub abilities: Abilities,
    /// Nether entry.
    #[n(22)]
    pub entered_nether_position: Option<[f64; 3]>,
    /// Root vehicle.
    #[n(23)]
    pub root_vehicle: Option<Vehicle>,
    /// Left shoulder.
    #[n(24)]
    pub shoulder_entity_left: Option<Entity>,
    /// Right shoulder.
    #[n(25)]
    pub shoulder_entity_right: Option<Entity>,
    /// Seen credits.
    #[n(26)]
    pub seen_credits: bool,
    /// Recipe book.
    #[n(27)]
    pub recipe_book: RecipeBook,
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
pub struct Players {
    /// The players.
    #[n(0)]
    pub players: Vec<Player>,
}

const ITEMS: [&str; 8] = [
    "dirt",
    "stone",
    "pickaxe",
    "sand",
    "gravel",
    "shovel",
    "chestplate",
    "steak",
];
const ENTITIES: [&str; 8] = [
    "cow", "sheep", "zombie", "skeleton", "spider", "creeper", "parrot", "bee",
];
const RECIPES: [&str; 8] = [
    "pickaxe",
    "torch",
    "bow",
    "crafting table",
    "furnace",
    "shears",
    "arrow",
    "tnt",
];

fn game_type(rng: &mut Rng) -> GameType {
    [
        GameType::Survival,
        GameType::Creative,
        GameType::Adventure,
        GameType::Spectator,
    ][rng.range(0, 4) as usize]
}

fn item(rng: &mut Rng) -> Item {
    Item {
        count: rng.range(0, 64) as i8,
        slot: rng.range(0, 36) as u8,
        id: format!("minecraft:{}", ITEMS[rng.range(0, 8) as usize]),
    }
}

fn entity(rng: &mut Rng) -> Entity {
    Entity {
        id: format!("minecraft:{}", ENTITIES[rng.range(0, 8) as usize]),
        pos: [rng.f64() * 1e4, rng.f64() * 256.0, rng.f64() * 1e4],
        motion: [rng.f64(), rng.f64(), rng.f64()],
        rotation: [rng.f32() * 360.0, rng.f32() * 360.0],
        fall_distance: rng.f32() * 10.0,
        fire: rng.range(0, 100) as u16,
        air: rng.range(0, 300) as u16,
        on_ground: rng.bool(),
        no_gravity: rng.bool(),
        invulnerable: rng.bool(),
        portal_cooldown: rng.range(0, 1000) as i32,
        uuid: [
            rng.next_u32(),
            rng.next_u32(),
            rng.next_u32(),
            rng.next_u32(),
        ],
        custom_name: rng.chance(0.5).then(|| rng.ascii(8)),
        custom_name_visible: rng.bool(),
        silent: rng.bool(),
        glowing: rng.bool(),
    }
}

fn recipes(rng: &mut Rng) -> Vec<String> {
    (0..rng.range(0, 30))
        .map(|_| format!("minecraft:{}", RECIPES[rng.range(0, 8) as usize]))
        .collect()
}

/// Generates the 500 deterministic players.
#[must_use]
pub fn generate() -> Players {
    let mut rng = Rng::new(0x003C_4AF7);
    let rng = &mut rng;
    let players = (0..PLAYERS)
        .map(|_| Player {
            game_type: game_type(rng),
            previous_game_type: game_type(rng),
            score: rng.range(0, 1_000_000),
            dimension: ["overworld", "nether", "end"][rng.range(0, 3) as usize].into(),
            selected_item_slot: rng.range(0, 9) as u32,
            selected_item: item(rng),
            spawn_dimension: rng.chance(0.5).then(|| "overworld".into()),
            spawn_x: rng.range(0, 20_000) as i64 - 10_000,
            spawn_y: rng.range(0, 256) as i64,
            spawn_z: rng.range(0, 20_000) as i64 - 10_000,
            spawn_forced: rng.chance(0.5).then(|| rng.bool()),
            sleep_timer: rng.range(0, 100) as u16,
            food_exhaustion_level: rng.f32() * 4.0,
            food_saturation_level: rng.f32() * 20.0,
            food_tick_timer: rng.range(0, 80) as u32,
            xp_level: rng.range(0, 30) as u32,
            xp_p: rng.f32(),
            xp_total: rng.range(0, 2000) as i32,
            xp_seed: rng.next_u32() as i32,
            inventory: (0..rng.range(0, 36)).map(|_| item(rng)).collect(),
            ender_items: (0..rng.range(0, 27)).map(|_| item(rng)).collect(),
            abilities: Abilities {
                walk_speed: 0.1,
                fly_speed: 0.05,
                may_fly: rng.bool(),
                flying: rng.bool(),
                invulnerable: rng.bool(),
                may_build: rng.bool(),
                instabuild: rng.bool(),
            },
            entered_nether_position: rng
                .chance(0.5)
                .then(|| [rng.f64() * 1e4, rng.f64() * 128.0, rng.f64() * 1e4]),
            root_vehicle: rng.chance(0.5).then(|| Vehicle {
                uuid: [
                    rng.next_u32(),
                    rng.next_u32(),
                    rng.next_u32(),
                    rng.next_u32(),
                ],
                entity: entity(rng),
            }),
            shoulder_entity_left: rng.chance(0.5).then(|| entity(rng)),
            shoulder_entity_right: rng.chance(0.5).then(|| entity(rng)),
            seen_credits: rng.bool(),
            recipe_book: RecipeBook {
                recipes: recipes(rng),
                to_be_displayed: recipes(rng),
                is_filtering_craftable: rng.bool(),
                is_gui_open: rng.bool(),
                is_furnace_filtering_craftable: rng.bool(),
                is_furnace_gui_open: rng.bool(),
                is_blasting_furnace_filtering_craftable: rng.bool(),
                is_blasting_furnace_gui_open: rng.bool(),
                is_smoker_filtering_craftable: rng.bool(),
                is_smoker_gui_open: rng.bool(),
            },
        })
        .collect();
    Players { players }
}

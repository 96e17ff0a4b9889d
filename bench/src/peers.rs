//! The peers: other Rust libraries, wired to every dataset they can express.
//!
//! Each peer is a [`Typed<T>`] constructor generic over the dataset type;
//! [`register_all`] builds every dataset once and registers each peer that
//! can express it. Encoders write into the reused [`Scratch::buf`] where the
//! peer's API allows it:
//!
//! | peer | encode | decode |
//! |---|---|---|
//! | serde_json | `to_writer` into the cleared buffer | `from_slice` |
//! | sonic-rs | `to_writer` into the cleared buffer | `from_slice` |
//! | simd-json | `serde::to_writer` into the cleared buffer | `serde::from_slice` on a copy of the input in a reused buffer (it parses in place) |
//! | rmp-serde | `encode::write_named` (structs as maps) | `from_slice` |
//! | zerompk | `write_msgpack` into the cleared buffer (`#[msgpack(map)]`) | `from_msgpack` |
//! | msgpacker | `Packable::pack` into the cleared buffer (structs positional) | `Unpackable::unpack` |
//! | ciborium | `into_writer` into the cleared buffer | `from_reader` |
//! | minicbor | `encode` into the cleared buffer (`#[cbor(map)]`: integer keys) | `decode` |
//! | cbor4ii | `serde::to_vec` reusing the buffer | `serde::from_slice` |
//! | bitcode | `Buffer::encode` (a reused `bitcode::Buffer`) | `Buffer::decode` |
//! | postcard | `to_extend` into the cleared buffer | `from_bytes` |
//!
//! Our handles (see [`ours`]) encode with `codec::encode_into` into the
//! cleared, reused buffer and decode with `codec::from_slice`, on a concrete
//! handle (static path: `msgpack`, `msgpack-toarray`, `cbor`, `binc`,
//! `simple`, `json`) or on an `AnyHandle` (run-time path:
//! `AnyHandle-<handle>`); every dataset list ends with them.

use std::rc::Rc;
use std::sync::LazyLock;

use codec::{
    AnyHandle, BincHandle, CborHandle, DecodeOwned, Encode, JsonHandle, MsgpackHandle, SimpleHandle,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::datasets::{
    canada, citm, color_group, fxcbor, log, mesh, minecraft, mk48, polyglot, test_struc, twitter,
};
use crate::harness::{Family, Imp, Registry, Res, Scratch, Typed};

/// Every dataset name, as used in reports and benchmark ids.
pub const DATASETS: &[&str] = &[
    "test_struc",
    "fxcbor_struct",
    "fxcbor_intkeys",
    "fxcbor_toarray",
    "fxcbor_dynmap",
    "fxcbor_bool",
    "fxcbor_u64",
    "fxcbor_i64",
    "fxcbor_f64",
    "fxcbor_bytes",
    "fxcbor_text",
    "fxcbor_array",
    "fxcbor_map",
    "color_group",
    "polyglot",
    "log",
    "mesh",
    "minecraft_savedata",
    "mk48",
    "value",
    "twitter",
    "citm_catalog",
    "canada",
    "twitter_value",
    "citm_catalog_value",
    "canada_value",
    "twitter_ids",
];

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn encode_into(s: &mut Scratch, f: impl FnOnce(&mut Vec<u8>) -> Res<()>) -> Res<&[u8]> {
    s.buf.clear();
    f(&mut s.buf)?;
    Ok(&s.buf)
}

// ---- serde peers -------------------------------------------------------

/// serde_json.
#[must_use]
pub fn serde_json<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "serde_json",
        family: Family::Json,
        ours: false,
        positional: false,
        encode: |v, s| encode_into(s, |b| serde_json::to_writer(b, v).map_err(err)),
        decode: |b, _| serde_json::from_slice(b).map_err(err),
    }
}

/// sonic-rs.
#[must_use]
pub fn sonic_rs<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "sonic-rs",
        family: Family::Json,
        ours: false,
        positional: false,
        encode: |v, s| encode_into(s, |b| sonic_rs::to_writer(b, v).map_err(err)),
        decode: |b, _| sonic_rs::from_slice(b).map_err(err),
    }
}

/// simd-json (serde API).
#[must_use]
pub fn simd_json<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "simd-json",
        family: Family::Json,
        ours: false,
        positional: false,
        encode: |v, s| encode_into(s, |b| simd_json::serde::to_writer(b, v).map_err(err)),
        decode: |b, s| {
            s.input.clear();
            s.input.extend_from_slice(b);
            simd_json::serde::from_slice(&mut s.input).map_err(err)
        },
    }
}

/// rmp-serde, structs as maps (`write_named`), like the other self-describing peers.
#[must_use]
pub fn rmp_serde<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "rmp-serde",
        family: Family::MsgPack,
        ours: false,
        positional: false,
        encode: |v, s| encode_into(s, |b| rmp_serde::encode::write_named(b, v).map_err(err)),
        decode: |b, _| rmp_serde::from_slice(b).map_err(err),
    }
}

/// ciborium.
#[must_use]
pub fn ciborium<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "ciborium",
        family: Family::Cbor,
        ours: false,
        positional: false,
        encode: |v, s| encode_into(s, |b| ciborium::into_writer(v, b).map_err(err)),
        decode: |b, _| ciborium::from_reader(b).map_err(err),
    }
}

/// cbor4ii (serde API).
#[must_use]
pub fn cbor4ii<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "cbor4ii",
        family: Family::Cbor,
        ours: false,
        positional: false,
        encode: |v, s| {
            let mut buf = std::mem::take(&mut s.buf);
            buf.clear();
            s.buf = cbor4ii::serde::to_vec(buf, v).map_err(err)?;
            Ok(&s.buf)
        },
        decode: |b, _| cbor4ii::serde::from_slice(b).map_err(err),
    }
}

/// postcard (not self-describing; a reference point).
#[must_use]
pub fn postcard<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "postcard",
        family: Family::Binary,
        ours: false,
        positional: false,
        encode: |v, s| {
            let buf = std::mem::take(&mut s.buf);
            s.buf = postcard::to_extend(v, {
                let mut b = buf;
                b.clear();
                b
            })
            .map_err(err)?;
            Ok(&s.buf)
        },
        decode: |b, _| postcard::from_bytes(b).map_err(err),
    }
}

/// bitcode through its serde API (for types its derive cannot express).
#[must_use]
pub fn bitcode_serde<T: Serialize + DeserializeOwned>() -> Typed<T> {
    Typed {
        name: "bitcode",
        family: Family::Binary,
        ours: false,
        positional: false,
        encode: |v, s| {
            s.buf = bitcode::serialize(v).map_err(err)?;
            Ok(&s.buf)
        },
        decode: |b, _| bitcode::deserialize(b).map_err(err),
    }
}

/// The self-describing serde peers (those that can also decode into a `Value`).
#[must_use]
pub fn serde_self_describing<T: Serialize + DeserializeOwned>() -> Vec<Typed<T>> {
    vec![
        serde_json(),
        sonic_rs(),
        simd_json(),
        rmp_serde(),
        ciborium(),
        cbor4ii(),
    ]
}

/// Every serde peer.
#[must_use]
pub fn serde_all<T: Serialize + DeserializeOwned>() -> Vec<Typed<T>> {
    let mut v = serde_self_describing();
    v.push(postcard());
    v
}

// ---- derive-based peers ------------------------------------------------

/// zerompk (its own derive; `#[msgpack(map)]` on our types).
#[must_use]
pub fn zerompk<T: zerompk::ToMessagePack + for<'a> zerompk::FromMessagePack<'a>>() -> Typed<T> {
    Typed {
        name: "zerompk",
        family: Family::MsgPack,
        ours: false,
        positional: false,
        encode: |v, s| encode_into(s, |b| zerompk::write_msgpack(b, v).map_err(err)),
        decode: |b, _| zerompk::from_msgpack(b).map_err(err),
    }
}

/// msgpacker (its own derive; structs are positional, without field names).
#[must_use]
pub fn msgpacker<T: msgpacker::Packable + msgpacker::Unpackable>() -> Typed<T> {
    Typed {
        name: "msgpacker",
        family: Family::MsgPack,
        ours: false,
        positional: true,
        encode: |v, s| {
            encode_into(s, |b| {
                v.pack(b);
                Ok(())
            })
        },
        decode: |b, _| T::unpack(b).map_err(err),
    }
}

/// minicbor (its own derive; `#[cbor(map)]`: fields keyed by integers).
#[must_use]
pub fn minicbor<T: minicbor::Encode<()> + for<'b> minicbor::Decode<'b, ()>>() -> Typed<T> {
    Typed {
        name: "minicbor",
        family: Family::Cbor,
        ours: false,
        positional: false,
        encode: |v, s| encode_into(s, |b| minicbor::encode(v, b).map_err(err)),
        decode: |b, _| minicbor::decode(b).map_err(err),
    }
}

/// bitcode (its own derive).
#[must_use]
pub fn bitcode<T: bitcode::Encode + for<'a> bitcode::Decode<'a>>() -> Typed<T> {
    Typed {
        name: "bitcode",
        family: Family::Binary,
        ours: false,
        positional: false,
        encode: |v, s| Ok(s.bitcode.encode(v)),
        decode: |b, s| s.bitcode.decode(b).map_err(err),
    }
}

// ---- our handles ------------------------------------------------------

/// Our handles, each configured once (as an application would) and shared by
/// every case. `MSGPACK` is the default: current spec (`write_ext = true`),
/// structs as maps with field names, like zerompk `#[msgpack(map)]` and
/// rmp-serde `write_named`; `MSGPACK_TOARRAY` writes structs as arrays of
/// values (`Options::struct_to_array`), the positional layout of msgpacker.
static MSGPACK: LazyLock<MsgpackHandle> = LazyLock::new(MsgpackHandle::default);
static MSGPACK_TOARRAY: LazyLock<MsgpackHandle> = LazyLock::new(|| {
    let mut h = MsgpackHandle::default();
    h.options = h.options.struct_to_array(true);
    h
});
static CBOR: LazyLock<CborHandle> = LazyLock::new(CborHandle::default);
static BINC: LazyLock<BincHandle> = LazyLock::new(BincHandle::default);
static SIMPLE: LazyLock<SimpleHandle> = LazyLock::new(SimpleHandle::default);
static JSON: LazyLock<JsonHandle> = LazyLock::new(JsonHandle::default);

/// The run-time path: an [`AnyHandle`] chosen by name; every call matches on
/// the format once, then runs the static path.
fn any(name: &str) -> AnyHandle {
    AnyHandle::from_name(name).unwrap_or_else(|e| panic!("AnyHandle {name}: {e}"))
}
static ANY_MSGPACK: LazyLock<AnyHandle> = LazyLock::new(|| any("msgpack"));
static ANY_CBOR: LazyLock<AnyHandle> = LazyLock::new(|| any("cbor"));
static ANY_BINC: LazyLock<AnyHandle> = LazyLock::new(|| any("binc"));
static ANY_SIMPLE: LazyLock<AnyHandle> = LazyLock::new(|| any("simple"));
static ANY_JSON: LazyLock<AnyHandle> = LazyLock::new(|| any("json"));

/// Defines the `Typed` constructor of one of our handles: static path
/// (`codec::encode_into` into the cleared, reused buffer; `codec::from_slice`)
/// or run-time path (the same calls on an `AnyHandle`).
macro_rules! our_handle {
    ($(#[$doc:meta])* $f:ident, $name:literal, $family:expr, $positional:literal, static $h:ident) => {
        $(#[$doc])*
        #[must_use]
        pub fn $f<T: Encode + DecodeOwned>() -> Typed<T> {
            Typed {
                name: $name,
                family: $family,
                ours: true,
                positional: $positional,
                encode: |v, s| encode_into(s, |b| codec::encode_into(v, &*$h, b).map_err(err)),
                decode: |b, _| codec::from_slice(b, &*$h).map_err(err),
            }
        }
    };
    ($(#[$doc:meta])* $f:ident, $name:literal, $family:expr, any $h:ident) => {
        $(#[$doc])*
        #[must_use]
        pub fn $f<T: Encode + DecodeOwned>() -> Typed<T> {
            Typed {
                name: $name,
                family: $family,
                ours: true,
                positional: false,
                encode: |v, s| encode_into(s, |b| $h.encode_into(v, b).map_err(err)),
                decode: |b, _| $h.from_slice(b).map_err(err),
            }
        }
    };
}

our_handle!(
    /// Our `MsgpackHandle` (default: current spec, structs as maps).
    codec_msgpack, "msgpack", Family::MsgPack, false, static MSGPACK
);
our_handle!(
    /// Our `MsgpackHandle` with `struct_to_array`: structs as arrays of values.
    codec_msgpack_toarray, "msgpack-toarray", Family::MsgPack, true, static MSGPACK_TOARRAY
);
our_handle!(
    /// Our `CborHandle` (default).
    codec_cbor, "cbor", Family::Cbor, false, static CBOR
);
our_handle!(
    /// Our `BincHandle` (default).
    codec_binc, "binc", Family::Binc, false, static BINC
);
our_handle!(
    /// Our `SimpleHandle` (default).
    codec_simple, "simple", Family::Simple, false, static SIMPLE
);
our_handle!(
    /// Our `JsonHandle` (default).
    codec_json, "json", Family::Json, false, static JSON
);
our_handle!(
    /// `AnyHandle::from_name("msgpack")`.
    any_msgpack, "AnyHandle-msgpack", Family::MsgPack, any ANY_MSGPACK
);
our_handle!(
    /// `AnyHandle::from_name("cbor")`.
    any_cbor, "AnyHandle-cbor", Family::Cbor, any ANY_CBOR
);
our_handle!(
    /// `AnyHandle::from_name("binc")`.
    any_binc, "AnyHandle-binc", Family::Binc, any ANY_BINC
);
our_handle!(
    /// `AnyHandle::from_name("simple")`.
    any_simple, "AnyHandle-simple", Family::Simple, any ANY_SIMPLE
);
our_handle!(
    /// `AnyHandle::from_name("json")`.
    any_json, "AnyHandle-json", Family::Json, any ANY_JSON
);

/// Our five handles on the static path (plus `msgpack-toarray`).
#[must_use]
pub fn ours_static<T: Encode + DecodeOwned>() -> Vec<Typed<T>> {
    vec![
        codec_msgpack(),
        codec_msgpack_toarray(),
        codec_cbor(),
        codec_binc(),
        codec_simple(),
        codec_json(),
    ]
}

/// Our handles for type `T`: the static path ([`ours_static`]) and the
/// run-time path (`AnyHandle-<handle>`). Every dataset list appends these.
#[must_use]
pub fn ours<T: Encode + DecodeOwned>() -> Vec<Typed<T>> {
    let mut v = ours_static();
    v.extend([
        any_msgpack(),
        any_cbor(),
        any_binc(),
        any_simple(),
        any_json(),
    ]);
    v
}

// ---- dynamic values ----------------------------------------------------

/// Registers the `Value` variants of `dataset`: each self-describing peer
/// decodes its own encoding of `source` into its own dynamic value type.
fn register_values<T>(reg: &mut Registry, dataset: &str, source: &T)
where
    T: Serialize + DeserializeOwned + Encode + DecodeOwned,
{
    // Ours: each handle decodes its own encoding into `codec::Value`.
    reg.dynamic(
        dataset,
        source,
        codec_msgpack(),
        codec_msgpack::<codec::Value>(),
    );
    reg.dynamic(dataset, source, codec_cbor(), codec_cbor::<codec::Value>());
    reg.dynamic(dataset, source, codec_binc(), codec_binc::<codec::Value>());
    reg.dynamic(
        dataset,
        source,
        codec_simple(),
        codec_simple::<codec::Value>(),
    );
    reg.dynamic(dataset, source, codec_json(), codec_json::<codec::Value>());
    // And into `codec::Document`, the flat dynamic document.
    let doc = |t: Typed<codec::Document>, name| Typed { name, ..t };
    reg.dynamic(
        dataset,
        source,
        codec_msgpack(),
        doc(codec_msgpack(), "msgpack-document"),
    );
    reg.dynamic(
        dataset,
        source,
        codec_cbor(),
        doc(codec_cbor(), "cbor-document"),
    );
    reg.dynamic(
        dataset,
        source,
        codec_json(),
        doc(codec_json(), "json-document"),
    );
    reg.dynamic(
        dataset,
        source,
        serde_json(),
        serde_json::<serde_json::Value>(),
    );
    reg.dynamic(dataset, source, sonic_rs(), sonic_rs::<sonic_rs::Value>());
    reg.dynamic(
        dataset,
        source,
        simd_json(),
        simd_json::<simd_json::OwnedValue>(),
    );
    reg.dynamic(dataset, source, rmp_serde(), rmp_serde::<rmpv::Value>());
    reg.dynamic(dataset, source, ciborium(), ciborium::<ciborium::Value>());
    reg.dynamic(
        dataset,
        source,
        cbor4ii(),
        cbor4ii::<cbor4ii::core::Value>(),
    );
    for (peer, why) in [
        (
            "msgpacker",
            "no dynamic value type (its serde mode reuses serde_json::Value)",
        ),
        ("minicbor", "no owned dynamic value type"),
        (
            "zerompk",
            "zerompk::Value<'a> borrows from the input: not wired yet",
        ),
        (
            "bitcode",
            "not self-describing: cannot decode without a schema",
        ),
        (
            "postcard",
            "not self-describing: cannot decode without a schema",
        ),
    ] {
        reg.gap(dataset, peer, why);
    }
}

// ---- datasets ----------------------------------------------------------

macro_rules! list {
    ($($peer:expr),* $(,)?) => {{
        let mut v = Vec::new();
        $(v.extend($peer);)*
        v.extend(ours());
        v
    }};
}

/// Builds every dataset (that the registry's filter wants) and registers
/// every peer that can express it.
pub fn register_all(reg: &mut Registry) {
    if reg.wants_dataset("test_struc") {
        let v = Rc::new(test_struc::generate());
        reg.typed(
            "test_struc",
            &v,
            &list![serde_all(), [zerompk(), minicbor(), bitcode_serde()]],
        );
        reg.gap(
            "test_struc",
            "msgpacker",
            "no Packable impl for Box<T> (recursive fields)",
        );
    }
    if reg.wants_dataset("value") {
        register_values(reg, "value", &test_struc::generate());
    }
    register_fxcbor(reg);
    if reg.wants_dataset("color_group") {
        let v = Rc::new(color_group::generate());
        let encoded = reg.typed(
            "color_group",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
        // One short message read from a stream: the reader's set-up counts.
        register_readers(reg, "color_group", &v, &encoded);
    }
    if reg.wants_dataset("polyglot") {
        let v = Rc::new(polyglot::generate());
        reg.typed(
            "polyglot",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
    }
    if reg.wants_dataset("log") {
        let v = Rc::new(log::generate());
        let encoded = reg.typed(
            "log",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
        register_log_borrowed(reg, &v, &encoded);
    }
    if reg.wants_dataset("mesh") {
        let v = Rc::new(mesh::generate());
        reg.typed(
            "mesh",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
    }
    if reg.wants_dataset("minecraft_savedata") {
        let v = Rc::new(minecraft::generate());
        reg.typed(
            "minecraft_savedata",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
    }
    if reg.wants_dataset("mk48") {
        let v = Rc::new(mk48::generate());
        reg.typed(
            "mk48",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
    }
    register_documents(reg);
}

fn register_fxcbor(reg: &mut Registry) {
    if reg.wants_dataset("fxcbor_struct") {
        let v = Rc::new(fxcbor::fx_struct());
        reg.typed(
            "fxcbor_struct",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
    }
    if reg.wants_dataset("fxcbor_intkeys") {
        let v = Rc::new(fxcbor::fx_int_keys());
        reg.typed("fxcbor_intkeys", &v, &list![[minicbor()]]);
        for p in [
            "serde_json",
            "sonic-rs",
            "simd-json",
            "rmp-serde",
            "ciborium",
            "cbor4ii",
        ] {
            reg.gap(
                "fxcbor_intkeys",
                p,
                "serde derive has only string field names",
            );
        }
        reg.gap(
            "fxcbor_intkeys",
            "zerompk",
            "map-mode keys are strings only",
        );
        reg.gap("fxcbor_intkeys", "msgpacker", "no keys at all (positional)");
    }
    if reg.wants_dataset("fxcbor_toarray") {
        let v = Rc::new(fxcbor::fx_to_array());
        reg.typed(
            "fxcbor_toarray",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
    }
    if reg.wants_dataset("fxcbor_dynmap") {
        register_values(reg, "fxcbor_dynmap", &fxcbor::fx_struct());
    }
    macro_rules! builtin {
        ($name:literal, $value:expr, [$($peer:expr),*]) => {
            if reg.wants_dataset($name) {
                let v = Rc::new($value);
                reg.typed($name, &v, &list![serde_all(), [$($peer),*]]);
            }
        };
    }
    builtin!(
        "fxcbor_bool",
        true,
        [zerompk(), msgpacker(), minicbor(), bitcode()]
    );
    builtin!(
        "fxcbor_u64",
        u64::MAX,
        [zerompk(), msgpacker(), minicbor(), bitcode()]
    );
    builtin!(
        "fxcbor_i64",
        -1000_i64,
        [zerompk(), msgpacker(), minicbor(), bitcode()]
    );
    builtin!(
        "fxcbor_f64",
        -4.1_f64,
        [zerompk(), msgpacker(), minicbor(), bitcode()]
    );
    builtin!(
        "fxcbor_text",
        fxcbor::TEXT.to_string(),
        [zerompk(), msgpacker(), minicbor(), bitcode()]
    );
    builtin!(
        "fxcbor_array",
        fxcbor::slice(),
        [zerompk(), msgpacker(), minicbor(), bitcode()]
    );
    builtin!(
        "fxcbor_map",
        fxcbor::mss13(),
        [zerompk(), msgpacker(), minicbor(), bitcode()]
    );
    if reg.wants_dataset("fxcbor_bytes") {
        let v = Rc::new(serde_bytes::ByteBuf::from(fxcbor::bytes()));
        reg.typed("fxcbor_bytes", &v, &serde_all());
        let v = Rc::new(minicbor::bytes::ByteVec::from(fxcbor::bytes()));
        reg.typed("fxcbor_bytes", &v, &[minicbor()]);
        let v = Rc::new(fxcbor::bytes());
        // `Vec<u8>` is a byte string in our codec natively.
        let mut imps = vec![bitcode()];
        imps.extend(ours());
        reg.typed("fxcbor_bytes", &v, &imps);
        reg.gap(
            "fxcbor_bytes",
            "zerompk",
            "a bare Vec<u8> encodes as an array (bin only for derived fields)",
        );
        reg.gap(
            "fxcbor_bytes",
            "msgpacker",
            "a bare Vec<u8> encodes as an array (bin only for #[msgpacker(binary)] fields)",
        );
    }
}

fn register_log_borrowed(
    reg: &mut Registry,
    owned: &log::Logs,
    encoded: &[(&'static str, Rc<Vec<u8>>)],
) {
    macro_rules! borrowed {
        ($name:literal, $family:expr, |$b:ident| $decode:expr) => {
            borrowed!($name, $family, false, |$b| $decode)
        };
        ($name:literal, $family:expr, $ours:literal, |$b:ident| $decode:expr) => {
            if let Some((_, bytes)) = encoded.iter().find(|(n, _)| *n == $name) {
                reg.borrowed(
                    "log",
                    Imp {
                        name: $name,
                        family: $family,
                        ours: $ours,
                        positional: false,
                    },
                    Rc::clone(bytes),
                    |$b| {
                        let v: log::LogsBorrowed<'_> = $decode.map_err(err)?;
                        Ok(v.to_owned_logs() == *owned)
                    },
                    |$b| {
                        let v: log::LogsBorrowed<'_> = $decode.expect("decode");
                        std::hint::black_box(v);
                    },
                );
            }
        };
    }
    borrowed!("serde_json", Family::Json, |b| serde_json::from_slice(b));
    borrowed!("sonic-rs", Family::Json, |b| sonic_rs::from_slice(b));
    borrowed!("rmp-serde", Family::MsgPack, |b| rmp_serde::from_slice(b));
    borrowed!("zerompk", Family::MsgPack, |b| zerompk::from_msgpack(b));
    borrowed!("minicbor", Family::Cbor, |b| minicbor::decode(b));
    borrowed!("cbor4ii", Family::Cbor, |b| cbor4ii::serde::from_slice(b));
    borrowed!("postcard", Family::Binary, |b| postcard::from_bytes(b));
    reg.gap("log", "simd-json", "DecodeBorrowed: parses a mutable copy of the input, which the borrowed value cannot outlive");
    reg.gap(
        "log",
        "ciborium",
        "DecodeBorrowed: reads through io::Read, cannot lend &str",
    );
    reg.gap(
        "log",
        "msgpacker",
        "DecodeBorrowed: not wired yet (MsgPackerBorrowed)",
    );
    reg.gap("log", "bitcode", "DecodeBorrowed: not wired yet");
    // Ours: static path, then run-time path.
    borrowed!("msgpack", Family::MsgPack, true, |b| codec::from_slice(
        b, &*MSGPACK
    ));
    borrowed!("msgpack-toarray", Family::MsgPack, true, |b| {
        codec::from_slice(b, &*MSGPACK_TOARRAY)
    });
    borrowed!("cbor", Family::Cbor, true, |b| codec::from_slice(b, &*CBOR));
    borrowed!("binc", Family::Binc, true, |b| codec::from_slice(b, &*BINC));
    borrowed!("simple", Family::Simple, true, |b| codec::from_slice(
        b, &*SIMPLE
    ));
    borrowed!("json", Family::Json, true, |b| codec::from_slice(b, &*JSON));
    borrowed!("AnyHandle-msgpack", Family::MsgPack, true, |b| ANY_MSGPACK
        .from_slice(b));
    borrowed!("AnyHandle-cbor", Family::Cbor, true, |b| ANY_CBOR
        .from_slice(b));
    borrowed!("AnyHandle-binc", Family::Binc, true, |b| ANY_BINC
        .from_slice(b));
    borrowed!("AnyHandle-simple", Family::Simple, true, |b| ANY_SIMPLE
        .from_slice(b));
    borrowed!("AnyHandle-json", Family::Json, true, |b| ANY_JSON
        .from_slice(b));
}

fn register_documents(reg: &mut Registry) {
    if ["twitter", "twitter_value", "twitter_ids"]
        .iter()
        .any(|d| reg.wants_dataset(d))
    {
        let v: twitter::Twitter =
            serde_json::from_slice(&crate::datasets::read_document("twitter.json"))
                .expect("twitter.json");
        if reg.wants_dataset("twitter_value") {
            register_values(reg, "twitter_value", &v);
        }
        if reg.wants_dataset("twitter_ids") {
            register_twitter_ids(reg, &v);
        }
        let v = Rc::new(v);
        let encoded = reg.typed(
            "twitter",
            &v,
            &list![serde_all(), [zerompk(), bitcode_serde()]],
        );
        register_readers(reg, "twitter", &v, &encoded);
        reg.gap(
            "twitter",
            "msgpacker",
            "no Packable impl for Box<T> (retweeted_status)",
        );
        reg.gap(
            "twitter",
            "minicbor",
            "not wired: needs #[n(i)] on ~100 fields",
        );
    }
    if reg.wants_dataset("citm_catalog") || reg.wants_dataset("citm_catalog_value") {
        let v: citm::CitmCatalog =
            serde_json::from_slice(&crate::datasets::read_document("citm_catalog.json"))
                .expect("citm_catalog.json");
        if reg.wants_dataset("citm_catalog_value") {
            register_values(reg, "citm_catalog_value", &v);
        }
        let v = Rc::new(v);
        let encoded = reg.typed(
            "citm_catalog",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
        register_readers(reg, "citm_catalog", &v, &encoded);
    }
    if reg.wants_dataset("canada") || reg.wants_dataset("canada_value") {
        let v: canada::Canada =
            serde_json::from_slice(&crate::datasets::read_document("canada.json"))
                .expect("canada.json");
        if reg.wants_dataset("canada_value") {
            register_values(reg, "canada_value", &v);
        }
        let v = Rc::new(v);
        let encoded = reg.typed(
            "canada",
            &v,
            &list![serde_all(), [zerompk(), msgpacker(), minicbor(), bitcode()]],
        );
        register_readers(reg, "canada", &v, &encoded);
    }
}

/// `DecodeReader` cases for a document: each implementation with an API
/// over `std::io::Read` decodes its own encoding (from `encoded`) through a
/// `&[u8]` reader, as it would read a file or a socket behind a buffer.
/// cbor4ii's reader API takes a `BufRead`, which the `&[u8]` also is;
/// sonic-rs and simd-json read the whole input into a `Vec` and parse that.
fn register_readers<T>(
    reg: &mut Registry,
    dataset: &str,
    v: &Rc<T>,
    encoded: &[(&'static str, Rc<Vec<u8>>)],
) where
    T: Serialize + DeserializeOwned + codec::DecodeOwned + PartialEq + std::fmt::Debug + 'static,
{
    macro_rules! reader {
        ($name:literal, $family:expr, $ours:literal, |$b:ident| $decode:expr) => {
            if let Some((_, bytes)) = encoded.iter().find(|(n, _)| *n == $name) {
                let imp = Imp {
                    name: $name,
                    family: $family,
                    ours: $ours,
                    positional: false,
                };
                reg.reader(dataset, imp, Rc::clone(bytes), v, |$b| $decode.map_err(err));
            }
        };
    }
    reader!("serde_json", Family::Json, false, |b| {
        serde_json::from_reader(b)
    });
    reader!("sonic-rs", Family::Json, false, |b| sonic_rs::from_reader(
        b
    ));
    reader!(
        "simd-json",
        Family::Json,
        false,
        |b| simd_json::from_reader(b)
    );
    reader!("rmp-serde", Family::MsgPack, false, |b| {
        rmp_serde::from_read(b)
    });
    reader!("ciborium", Family::Cbor, false, |b| ciborium::from_reader(
        b
    ));
    reader!("cbor4ii", Family::Cbor, false, |b| {
        cbor4ii::serde::from_reader(b)
    });
    reader!("json", Family::Json, true, |b| codec::from_reader(
        b, &*JSON
    ));
    reader!("msgpack", Family::MsgPack, true, |b| codec::from_reader(
        b, &*MSGPACK
    ));
    reader!("cbor", Family::Cbor, true, |b| codec::from_reader(
        b, &*CBOR
    ));
    reader!("binc", Family::Binc, true, |b| codec::from_reader(
        b, &*BINC
    ));
    reader!("simple", Family::Simple, true, |b| codec::from_reader(
        b, &*SIMPLE
    ));
}

/// `twitter_ids`: each self-describing implementation decodes its own
/// encoding of the whole document into [`twitter::TwitterIds`], skipping
/// most of it. (`msgpack-toarray` is left out: a positional struct has no
/// field to skip.)
fn register_twitter_ids(reg: &mut Registry, v: &twitter::Twitter) {
    use twitter::{StatusIds, TwitterIds, UserIds};
    let want = TwitterIds {
        statuses: v
            .statuses
            .iter()
            .map(|s| StatusIds {
                id: s.id,
                text: s.text.clone(),
                user: UserIds {
                    id: s.user.id,
                    screen_name: s.user.screen_name.clone(),
                },
            })
            .collect(),
    };
    let ds = "twitter_ids";
    reg.partial(ds, v, &want, codec_json(), codec_json());
    reg.partial(ds, v, &want, any_json(), any_json());
    reg.partial(ds, v, &want, serde_json(), serde_json());
    reg.partial(ds, v, &want, sonic_rs(), sonic_rs());
    reg.partial(ds, v, &want, simd_json(), simd_json());
    reg.partial(ds, v, &want, codec_msgpack(), codec_msgpack());
    reg.partial(ds, v, &want, any_msgpack(), any_msgpack());
    reg.partial(ds, v, &want, rmp_serde(), rmp_serde());
    reg.partial(ds, v, &want, codec_cbor(), codec_cbor());
    reg.partial(ds, v, &want, any_cbor(), any_cbor());
    reg.partial(ds, v, &want, ciborium(), ciborium());
    reg.partial(ds, v, &want, cbor4ii(), cbor4ii());
    reg.partial(ds, v, &want, codec_binc(), codec_binc());
    reg.partial(ds, v, &want, any_binc(), any_binc());
    reg.partial(ds, v, &want, codec_simple(), codec_simple());
    reg.partial(ds, v, &want, any_simple(), any_simple());
}

/// Convenience: a registry with every dataset that passes `filter`.
#[must_use]
pub fn registry(filter: Option<&str>) -> Registry {
    let mut reg = Registry::new(filter);
    register_all(&mut reg);
    reg
}

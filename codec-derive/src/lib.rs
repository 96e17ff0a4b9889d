//! # codec-derive: `#[derive(Codec)]` for the codec family
//!
//! One derive implements both `Encode` and `Decode<'de>` of `codec_core`
//! (re-exported by the `codec` crate). Generated code is monomorphic over
//! the format driver: no `dyn`, no `HashMap`, struct keys matched as bytes.
//!
//! ```
//! # extern crate codec_core as codec;
//! use codec::{Codec, Value, from_value, to_value};
//!
//! #[derive(Codec, Debug, PartialEq)]
//! #[codec(rename_all = "camelCase")]
//! struct User {
//!     user_id: u64,
//!     #[codec(omitempty)]
//!     nick: Option<String>,
//!     role: Role,
//! }
//!
//! #[derive(Codec, Debug, PartialEq)]
//! enum Role { Admin, Guest { until: u32 } }
//!
//! let u = User { user_id: 7, nick: None, role: Role::Guest { until: 9 } };
//! let v = to_value(&u).unwrap();
//! assert_eq!(v, Value::Map(vec![
//!     (Value::from("userId"), Value::Uint(7)),
//!     (Value::from("role"), Value::Map(vec![(
//!         Value::from("Guest"),
//!         Value::Map(vec![(Value::from("until"), Value::Uint(9))]),
//!     )])),
//! ]));
//! assert_eq!(from_value::<User>(&v).unwrap(), u);
//! ```
//!
//! ## Shapes
//!
//! | Rust | encoded as |
//! |---|---|
//! | struct with named fields | map `{name: value}` (array of values with `toarray` or the `struct_to_array` option) |
//! | tuple struct | array |
//! | newtype struct `S(T)` | `T` itself (transparent) |
//! | unit struct | nil |
//! | unit variant | its name as a text string (its index with `#[codec(index)]`) |
//! | newtype / tuple / struct variant | one-entry map `{name: payload}`: the value / an array / a struct |
//!
//! Structs decode from a map or an array. Enums decode from a bare tag (unit
//! variants) or a one-entry map (every variant; a unit variant's payload is
//! ignored, normally nil). An enum without variants has no value to encode,
//! and decoding one is always a type mismatch naming it.
//!
//! ## Attributes
//!
//! Container: `crate = "path"`, `rename_all = "..."` (`lowercase`,
//! `UPPERCASE`, `PascalCase`, `camelCase`, `snake_case`,
//! `SCREAMING_SNAKE_CASE`, `kebab-case`), `omitempty`, `toarray`, `index`
//! (enums: integer tags), `bound = "..."`, `encode_bound = "..."`,
//! `decode_bound = "..."` (replace the inferred where-clauses; `'de` names
//! the input lifetime), `ext = N` (the derived encoding becomes the content
//! of an extension with tag `N`, written each format's native way: msgpack /
//! binc / simple ext holding the encoded body, CBOR tag `N` + body, JSON the
//! body alone; see `codec_core::ext`).
//!
//! Variant: `rename = "n"`, `index = N`, `rename_all`, `toarray` and
//! `omitempty` (struct variants).
//!
//! `rename_all`, `omitempty` and `toarray` act on field names, so on a
//! struct or variant without them (tuple, newtype, unit) they are an error
//! rather than ignored; on an enum, `rename_all` renames the variants.
//!
//! Field: `rename = "n"`, `skip`, `omitempty`, `key = N`, `default`,
//! `default = "path"`, `flatten`, `rest`, `with = "module"`.
//!
//! ## Differences from ugorji and serde, and why
//!
//! - A missing field takes its explicit `default` first, then
//!   `Decode::missing()` (`None` for `Option`), then, with the
//!   `absent_as_empty` decode option (set by `Options::omit_empty`, so that
//!   a handle reads back what it writes), `Decode::empty_value()` (0,
//!   false, "", an empty collection), else it is a `MissingField` error: an
//!   explicit attribute should win over the type's fallback. ugorji leaves
//!   Go zero values; Rust has no zero value for every type.
//! - `rest` entries are written after (or, under `canonical`, sorted among)
//!   the fields; under the struct's `omitempty` or the `omit_empty` option,
//!   those whose value is empty are left out (as ugorji leaves out a
//!   `MissingFielder`'s). A rest key equal to a key the struct writes for a field
//!   (its own, a flattened struct's, or, for a `rest` map inside a
//!   flattened struct, the outer struct's) is a `DuplicateField` error when
//!   encoding: the decoder never puts known keys there, so the entry would
//!   be written twice and not read back. An unknown key given twice is a
//!   `DuplicateField` error at its second occurrence, as a field given
//!   twice is (ugorji's Go map would keep the last value).
//! - A flattened struct's field whose key is also a key of the struct it
//!   is flattened into (or of another struct flattened into it, at any
//!   depth) is a compile-time error naming the struct and the key, not a
//!   key written twice that the decoder would refuse as a duplicate (ugorji
//!   writes only the shallower one). For a generic struct the error comes
//!   when its `encode` is instantiated (a constant that depends on the type
//!   parameters), for any other when the crate compiles. `toarray` structs
//!   write no keys and are not checked.
//! - A struct and the structs flattened into it hold at most one `rest`
//!   map between them (checked as above): the decoder gives every unknown
//!   key to one map, so the entries of a second would come back in the
//!   first, and a key both held would be written twice.
//! - In array form (`toarray`), flattened structs are inlined positionally
//!   (as ugorji does with embedded structs) and `rest` maps are not written.
//! - Structs with integer keys decode keys given as integers or as text
//!   holding an integer (JSON object keys).
//! - With several lifetime parameters, the decode impl is
//!   `impl<'de: 'a + 'b, 'a, 'b>` and fields decode as their type with
//!   `'de` in place of each lifetime, relying on covariance; a type with one
//!   lifetime uses it as the input lifetime directly (so invariant uses work).
//! - A decode that fails with an error drops every field it has read. A
//!   panic inside a field's decode (a hand-written `Decode` impl, a `with`
//!   function) leaks the fields of the structs being read that were read
//!   before it instead of dropping them (nothing is dropped twice, and the
//!   decoder can be used again). In exchange the derived code has no
//!   unwinding cleanup: kept ready for one, the state of every field was
//!   written back to memory before each call, 5 % of the instructions of
//!   decoding twitter's 40-field `User`.

mod attr;
mod decode;
mod encode;
mod generics;
mod model;

use proc_macro::TokenStream;
use quote::quote;

/// Derives `Encode` and `Decode<'de>` (and the hidden flatten support for
/// structs with named fields). See the crate docs for the attributes.
#[proc_macro_derive(Codec, attributes(codec))]
pub fn derive_codec(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    match expand(&input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(input: &syn::DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let c = model::build(input)?;
    let g = generics::Gen::new(&c.generics);
    let enc = encode::derive(&c, &g);
    let dec = decode::derive(&c, &g);
    Ok(quote! {
        #[doc(hidden)]
        #[allow(
            unused_mut, unused_variables, unused_labels, unreachable_code,
            non_shorthand_field_patterns, clippy::all, clippy::pedantic
        )]
        const _: () = {
            #enc
            #dec
        };
    })
}

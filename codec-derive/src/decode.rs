//! Code generation for `Decode` and `FlattenDecode`.
//!
//! Generated code names the decoder `__d`. A struct's fields decode into
//! `Option` slots (locals, or the tuple state of `FlattenDecode`) and are
//! assembled at the end, where missing fields get their fallback.

use crate::attr::DefaultAttr;
use crate::generics::{Gen, decode_bounds, decode_impl_generics};
use crate::model::{Body, Container, Field, Struct, Style};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Lifetime, Path, Type};

struct Cx<'a> {
    k: &'a Path,
    de: &'a Lifetime,
    g: &'a Gen,
}

impl Cx<'_> {
    fn sup(&self) -> TokenStream {
        let k = self.k;
        quote!(#k::derive_support)
    }
}

/// One field with its slot expression.
struct Slot<'a> {
    f: &'a Field,
    slot: TokenStream,
    ty: Type,
    /// Position among the fields (for tuple paths and missing-item errors).
    pos: usize,
    /// In the `FlattenDecode` state (behind `&mut`), not a local.
    in_state: bool,
    /// A plain field's local (`slot` is `(*local)`): a
    /// `ManuallyDrop<Option<T>>` while the input is read ([`guarded`]).
    local: Option<syn::Ident>,
}

fn slots<'a>(cx: &Cx<'_>, st: &'a Struct, state: bool) -> Vec<Slot<'a>> {
    let mut j = 0usize;
    st.fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut local = None;
            let slot = if state {
                if f.skip {
                    quote!(())
                } else {
                    let idx = syn::Index::from(j);
                    j += 1;
                    quote!(__st.#idx)
                }
            } else {
                let id = format_ident!("__f{}", i);
                if f.plain() {
                    let slot = quote!((*#id));
                    local = Some(id);
                    slot
                } else {
                    quote!(#id)
                }
            };
            Slot {
                f,
                slot,
                ty: cx.g.de_ty(&f.ty),
                pos: i,
                in_state: state,
                local,
            }
        })
        .collect()
}

fn path_seg(st: &Struct, s: &Slot<'_>) -> TokenStream {
    if st.style == Style::Named {
        let name = &s.f.name;
        quote!(__err.in_field(#name))
    } else {
        let i = s.pos;
        quote!(__err.in_index(#i))
    }
}

fn value(cx: &Cx<'_>, st: &Struct, s: &Slot<'_>) -> TokenStream {
    let (k, de, ty) = (cx.k, cx.de, &s.ty);
    let call = match &s.f.with {
        Some(m) => quote!(#m::decode(__d)),
        None => quote!(<#ty as #k::Decode<#de>>::decode(__d)),
    };
    let seg = path_seg(st, s);
    quote!(#call.map_err(|__err| #seg)?)
}

/// The slot's type in the state tuple / its local declaration.
fn slot_ty(cx: &Cx<'_>, s: &Slot<'_>) -> TokenStream {
    let (sup, de, ty) = (cx.sup(), cx.de, &s.ty);
    if s.f.flatten {
        quote!(<#ty as #sup::FlattenDecode<#de>>::State)
    } else if s.f.rest {
        quote!(#ty)
    } else {
        quote!(#sup::Option<#ty>)
    }
}

fn slot_init(cx: &Cx<'_>, s: &Slot<'_>) -> TokenStream {
    let (sup, de, ty) = (cx.sup(), cx.de, &s.ty);
    if s.f.flatten {
        quote!(<#ty as #sup::FlattenDecode<#de>>::flat_init())
    } else if s.f.rest {
        quote!(<#ty as #sup::Default>::default())
    } else {
        quote!(#sup::None)
    }
}

fn decls(cx: &Cx<'_>, ss: &[Slot<'_>]) -> TokenStream {
    let sup = cx.sup();
    ss.iter()
        .filter(|s| !s.f.skip)
        .map(|s| {
            let (slot, ty, init) = (&s.slot, slot_ty(cx, s), slot_init(cx, s));
            match &s.local {
                Some(id) => quote! {
                    let mut #id: #sup::ManuallyDrop<#ty> = #sup::ManuallyDrop::new(#init);
                },
                None => quote!(let mut #slot: #ty = #init;),
            }
        })
        .collect()
}

/// Statements that run `read` (which reads the input into the slots of
/// [`decls`] and may return early with an error), then make the plain
/// fields' slots, `ManuallyDrop` locals, own their values again as
/// `Option` locals of the same names, and only then return `read`'s error
/// if it had one. The construction follows them.
///
/// Why: a slot that needs dropping, live across every call that may
/// unwind, gives each of those calls a landing pad, and the compiler
/// keeps every slot's current state where the landing pad reads it,
/// storing the `None` of each slot not yet read again before each call.
/// Slots that are not dropped on unwinding need no landing pad; the error
/// path (a `Result`, not an unwinding) still drops them. The price: a
/// panic while reading (in a `Decode` impl or a `with` function) leaks
/// the fields read before it (`codec/tests/drops.rs`). Measured with
/// callgrind: twitter's 40-field `User` ran 4,745 instructions of its own
/// per user instead of 5,011, with half the stores to the stack; the
/// whole decode of twitter ran 1.4 % fewer instructions in JSON (and took
/// 4 % less time, median of six alternated runs), 2.0 % fewer in
/// MessagePack, 1.9 % in CBOR; citm_catalog 1.4 % in JSON.
fn guarded(cx: &Cx<'_>, ss: &[Slot<'_>], read: TokenStream) -> TokenStream {
    let (k, sup) = (cx.k, cx.sup());
    let owned = ss
        .iter()
        .filter_map(|s| s.local.as_ref())
        .map(|id| quote!(let #id = #sup::ManuallyDrop::into_inner(#id);));
    quote! {
        let __read = #sup::read_fields(#[inline(always)] || -> #k::Result<()> {
            #read
            #sup::Ok(())
        });
        #(#owned)*
        __read?;
    }
}

fn plain<'s, 'a>(ss: &'s [Slot<'a>]) -> impl Iterator<Item = &'s Slot<'a>> {
    ss.iter().filter(|s| s.f.plain())
}

fn flats<'s, 'a>(ss: &'s [Slot<'a>]) -> impl Iterator<Item = &'s Slot<'a>> {
    ss.iter().filter(|s| s.f.flatten)
}

/// `None`-or-`Some(id)` chain over flattened children for key `__other`.
fn flat_lookup(
    cx: &Cx<'_>,
    ss: &[Slot<'_>],
    found: impl Fn(TokenStream) -> TokenStream,
    tail: TokenStream,
) -> TokenStream {
    let (sup, de) = (cx.sup(), cx.de);
    let n_own = plain(ss).count();
    let mut offset = quote!(#n_own);
    let mut arms = Vec::new();
    for s in flats(ss) {
        let ty = &s.ty;
        let hit = found(quote!(#offset + __x));
        arms.push(quote!(if let #sup::Some(__x) = <#ty as #sup::FlattenDecode<#de>>::flat_field_id(__other) { #hit }));
        offset = quote!(#offset + <#ty as #sup::FlattenDecode<#de>>::ID_COUNT);
    }
    quote!(#(#arms else)* { #tail })
}

fn has_rest_expr(cx: &Cx<'_>, ss: &[Slot<'_>]) -> TokenStream {
    let (sup, de) = (cx.sup(), cx.de);
    if ss.iter().any(|s| s.f.rest) {
        return quote!(true);
    }
    let parts = flats(ss).map(|s| {
        let ty = &s.ty;
        quote!(<#ty as #sup::FlattenDecode<#de>>::HAS_REST)
    });
    quote!(false #(|| #parts)*)
}

/// The loop over a map's entries: for each, the key as a `FieldKey` in
/// `__key` and its offset in `__off`, then `body` (the value is next). Text
/// keys are matched in [`Decoder::map_next_key`]'s closure, so that a
/// format can hand them over straight from its buffer. Needs `__seq` and
/// `__unknown_err`. An unknown key is kept (`keep_unknown_text`) for
/// `body`'s `FieldKey::Skip` arm (`skip_unknown`).
///
/// With `ordered` (a statement per own field, storing its decoded value in
/// its empty slot), the loop is preceded by [`ordered_steps`].
fn entries(
    cx: &Cx<'_>,
    st: &Struct,
    ss: &[Slot<'_>],
    body: TokenStream,
    ordered: Option<Vec<TokenStream>>,
) -> TokenStream {
    let (k, sup) = (cx.k, cx.sup());
    if st.int_keys {
        let arms = plain(ss).enumerate().map(|(id, s)| {
            let n = s.f.key.unwrap_or_default();
            quote!(#sup::IntKey::Int(#n) => #sup::FieldKey::Id(#id),)
        });
        return quote! {
            while __d.map_next(&mut __seq)? {
                let __off = __d.offset();
                let __key: #sup::FieldKey = match #sup::read_int_key(__d)? {
                    #(#arms)*
                    __other => {
                        if __unknown_err {
                            return #sup::Err(#sup::unknown_field(&__other.describe(), __off));
                        }
                        #sup::keep_unknown_int(&__other);
                        #sup::FieldKey::Skip
                    }
                };
                __d.map_value(&mut __seq)?;
                #body
            }
        };
    }
    let arms = plain(ss).enumerate().map(|(id, s)| {
        let name = byte_lit(&s.f.name);
        quote!(#name => #sup::FieldKey::Id(#id),)
    });
    let has_rest = has_rest_expr(cx, ss);
    let tail = quote! {
        if #has_rest {
            #sup::FieldKey::Rest(#sup::String::from(__other))
        } else if __unknown_err {
            return #sup::Err(#sup::unknown_field(__other, __off));
        } else {
            #sup::keep_unknown_text(__other);
            #sup::FieldKey::Skip
        }
    };
    let lookup = flat_lookup(cx, ss, |id| quote!(#sup::FieldKey::Id(#id)), tail);
    let names = plain(ss).map(|s| &s.f.name);
    let n_own = plain(ss).count();
    let steps = match ordered {
        Some(stores) if !stores.is_empty() && stores.len() <= ORDERED_MAX_FIELDS => {
            ordered_steps(&stores)
        }
        _ => TokenStream::new(),
    };
    quote! {
        // The field expected next: the one after the last read.
        static __HINTS: [#k::KeyHint; #n_own] = [#(#k::KeyHint::new(#names)),*];
        let mut __next: usize = 0;
        #steps
        while let #sup::Some((__key, __off)) = __d.map_next_field(
            &mut __seq,
            __HINTS.get(__next),
            // Inlined: a call per key, returning the key through memory,
            // costs more than the whole match.
            #[inline(always)]
            |__s: &[u8], __off: u64, __hinted: bool| -> #k::Result<(#sup::FieldKey, u64)> {
                if __hinted {
                    return #sup::Ok((#sup::FieldKey::Id(__next), __off));
                }
                let __key = match __s {
                    #(#arms)*
                    __other => {
                        let __other = #sup::key_text(__other, __off)?;
                        #lookup
                    }
                };
                #sup::Ok((__key, __off))
            },
        )? {
            if let #sup::FieldKey::Id(__id) = __key {
                __next = __id + 1;
            }
            #body
        }
    }
}

/// The most own fields a struct may have for [`ordered_steps`]. The steps
/// are straight-line code, a copy of the key check and the value's decode
/// per field, where the general loop shares one key check. Measured on
/// JSON: citm_catalog (structs of 2 to 11 fields) decodes in 12 % less
/// time with them. Steps for twitter's `Status` (25 fields) and `User`
/// (40) together ran 10 % fewer instructions but took 7 % more time:
/// executed once per struct, that much code does not stay in the
/// processor's front-end caches. With a limit of 16, twitter took 2 % less
/// time than with none. Raising it to 25 (steps for `Status`, not `User`)
/// cut twitter's JSON decode by 2.8 % in instructions (callgrind) and by
/// 2.6 % (fastest) and 3.8 % (median) of eight alternated runs in time;
/// MessagePack by 1.3 % (fastest of six), CBOR by nothing measurable.
///
/// Those figures were taken on an Intel Xeon. On the AMD EPYC the bench
/// runs on now, steps for `User` too (a limit of 40) pay: twitter's
/// decode ran 4.3 % fewer instructions in JSON, 2.4 % in MessagePack and
/// 4.8 % in CBOR, and took 2 % (fastest) and 5 % (median of four
/// alternated runs) less time in JSON, 4 % and 5 % in MessagePack, 7 %
/// and 4 % in CBOR.
const ORDERED_MAX_FIELDS: usize = 40;

/// The own fields in declaration order, one step each, before the general
/// loop of [`entries`]: a document written from the same struct has its
/// keys in that order. Each step asks the format whether the next key is
/// its field's name ([`Decoder::map_next_is`]: a compare in place, nothing
/// consumed otherwise) and stores the value in its slot with no dispatch
/// and no duplicate check (no step before it stored that slot). The first
/// entry that is not the step's field (another field, an unknown key, the
/// end, a format that does not check) is left to the general loop, with
/// that field as its hint.
fn ordered_steps(stores: &[TokenStream]) -> TokenStream {
    let n_own = stores.len();
    let steps = stores.iter().enumerate().map(|(id, store)| {
        quote! {
            if !__d.map_next_is(&mut __seq, &__HINTS[#id])? {
                __next = #id;
                break '__ordered;
            }
            #store
        }
    });
    quote! {
        '__ordered: {
            #(#steps)*
            __next = #n_own;
        }
    }
}

/// A byte-string literal for `name`: keys are matched as raw bytes
/// ([`Decoder::decode_key`]), checked for UTF-8 only when no name matches.
fn byte_lit(name: &str) -> proc_macro2::Literal {
    proc_macro2::Literal::byte_string(name.as_bytes())
}

/// Match arms `ID => { decode into slot }` for own fields, then a catch-all
/// routing `__id` to flattened children. `pat` wraps the literal id.
fn id_arms(
    cx: &Cx<'_>,
    st: &Struct,
    ss: &[Slot<'_>],
    pat: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let (sup, de) = (cx.sup(), cx.de);
    let mut out = TokenStream::new();
    for (id, s) in plain(ss).enumerate() {
        let p = pat(quote!(#id));
        let slot = &s.slot;
        let name = &s.f.name;
        let val = value(cx, st, s);
        out.extend(quote! {
            #p => {
                if #slot.is_some() {
                    return #sup::Err(#sup::duplicate_field(#name, __off));
                }
                #slot = #sup::Some(#val);
            }
        });
    }
    let n_own = plain(ss).count();
    let mut route = quote!(__d.skip()?;);
    for s in flats(ss).collect::<Vec<_>>().into_iter().rev() {
        let (ty, slot) = (&s.ty, &s.slot);
        route = quote! {
            if __id < <#ty as #sup::FlattenDecode<#de>>::ID_COUNT {
                <#ty as #sup::FlattenDecode<#de>>::flat_decode_field(&mut #slot, __id, __off, __d)?;
            } else {
                let __id = __id - <#ty as #sup::FlattenDecode<#de>>::ID_COUNT;
                #route
            }
        };
    }
    let p = pat(quote!(__id));
    out.extend(quote!(#p => { let __id: usize = __id - #n_own; let _ = __id; #route }));
    out
}

fn rest_route(cx: &Cx<'_>, ss: &[Slot<'_>]) -> TokenStream {
    let (sup, de) = (cx.sup(), cx.de);
    if let Some(s) = ss.iter().find(|s| s.f.rest) {
        let (ty, slot) = (&s.ty, &s.slot);
        return quote!(<#ty as #sup::RestDecode<#de>>::rest_insert(&mut #slot, __k, __off, __d)?;);
    }
    let mut route = quote!({ #sup::skip_rest_key(__d, __k)?; });
    for s in flats(ss).collect::<Vec<_>>().into_iter().rev() {
        let (ty, slot) = (&s.ty, &s.slot);
        route = quote! {
            if <#ty as #sup::FlattenDecode<#de>>::HAS_REST {
                <#ty as #sup::FlattenDecode<#de>>::flat_decode_rest(&mut #slot, __k, __off, __d)?;
            } else #route
        };
    }
    route
}

fn map_path(cx: &Cx<'_>, st: &Struct, ss: &[Slot<'_>]) -> TokenStream {
    let sup = cx.sup();
    let arms = id_arms(cx, st, ss, |id| quote!(#sup::FieldKey::Id(#id)));
    let stores = plain(ss)
        .map(|s| {
            let (slot, val) = (&s.slot, value(cx, st, s));
            quote!(#slot = #sup::Some(#val);)
        })
        .collect();
    let rest = rest_route(cx, ss);
    let entries = entries(
        cx,
        st,
        ss,
        quote! {
            match __key {
                #arms
                #sup::FieldKey::Rest(__k) => { #rest }
                #sup::FieldKey::Skip => #sup::skip_unknown(__d)?,
            }
        },
        Some(stores),
    );
    quote! {
        let mut __seq = __d.map_begin()?;
        let __unknown_err = __d.options().error_on_unknown_field;
        #entries
        __d.map_end(__seq)?;
    }
}

/// Array items into slots; `end` is what to do when the array ends early.
fn array_items(cx: &Cx<'_>, st: &Struct, ss: &[Slot<'_>], end: &TokenStream) -> TokenStream {
    let (sup, de) = (cx.sup(), cx.de);
    let mut out = TokenStream::new();
    for s in ss {
        let slot = &s.slot;
        if s.f.flatten {
            let ty = &s.ty;
            out.extend(quote! {
                if !<#ty as #sup::FlattenDecode<#de>>::flat_decode_array(&mut #slot, __d, __seq)? { #end }
            });
        } else if s.f.plain() || (st.style != Style::Named && !s.f.skip) {
            let val = value(cx, st, s);
            out.extend(quote! {
                if !__d.array_next(__seq)? { #end }
                #slot = #sup::Some(#val);
            });
        }
    }
    out
}

fn array_len(cx: &Cx<'_>, ss: &[Slot<'_>]) -> TokenStream {
    let (sup, de) = (cx.sup(), cx.de);
    let n = ss
        .iter()
        .filter(|s| !s.f.skip && !s.f.flatten && !s.f.rest)
        .count();
    let flat = flats(ss).map(|s| {
        let ty = &s.ty;
        quote!(+ <#ty as #sup::FlattenDecode<#de>>::ID_COUNT)
    });
    quote!(#n #(#flat)*)
}

fn array_path(cx: &Cx<'_>, st: &Struct, ss: &[Slot<'_>]) -> TokenStream {
    let items = array_items(cx, st, ss, &quote!(break '__items;));
    let len = array_len(cx, ss);
    let block = if items.is_empty() {
        items
    } else {
        quote!('__items: { let __seq = &mut __seq; #items })
    };
    let end = if st.style == Style::Named {
        quote!(struct_array_end)
    } else {
        quote!(fixed_array_end)
    };
    quote! {
        let mut __seq = __d.array_begin()?;
        #block
        __d.#end(__seq, #len)?;
    }
}

/// The value of one field at the end of decoding.
fn finish_field(cx: &Cx<'_>, st: &Struct, s: &Slot<'_>) -> TokenStream {
    let (k, sup, de, ty, slot) = (cx.k, cx.sup(), cx.de, &s.ty, &s.slot);
    let default = match &s.f.default {
        Some(DefaultAttr::Trait) => Some(quote!(<#ty as #sup::Default>::default())),
        Some(DefaultAttr::Path(p)) => Some(quote!(#p())),
        None => None,
    };
    if s.f.skip {
        return default.unwrap_or_else(|| quote!(<#ty as #sup::Default>::default()));
    }
    // The `absent_as_empty` option: the decoder's, or (in a `FlattenDecode`
    // impl, which has no decoder) `flat_finish`'s argument.
    let absent = if s.in_state {
        quote!(__absent_empty)
    } else {
        quote!(__d.options().absent_as_empty)
    };
    if s.f.flatten {
        return quote!(<#ty as #sup::FlattenDecode<#de>>::flat_finish(&mut #slot, #absent)?);
    }
    // Taken out of the state, which is behind a reference; a local is moved.
    let slot = if let Some(id) = &s.local {
        quote!(#id)
    } else if s.in_state {
        let take = if s.f.rest {
            quote!(#sup::take)
        } else {
            quote!(#sup::Option::take)
        };
        quote!(#take(&mut #slot))
    } else {
        quote!(#slot)
    };
    if s.f.rest {
        return slot;
    }
    let err = if st.style == Style::Named {
        let name = &s.f.name;
        quote!(#sup::missing_field(#name))
    } else {
        let (pos, len) = (s.pos, st.fields.iter().filter(|f| !f.skip).count());
        quote!(#sup::too_short(#len, #pos, __d.offset()))
    };
    let fallback = match (default, &s.f.with) {
        (Some(d), _) => d,
        (None, Some(_)) => quote!(return #sup::Err(#err)),
        // An `omitempty` field left out as empty comes back as the empty (default) value.
        (None, None) if s.f.omitempty => quote! {
            match <#ty as #k::Decode<#de>>::missing() {
                #sup::Some(__v) => __v,
                #sup::None => <#ty as #sup::Default>::default(),
            }
        },
        // Absent from a map: empty under `absent_as_empty` (what
        // `omit_empty` leaves out), where the type has an empty value.
        (None, None) if st.style == Style::Named => {
            let name = &s.f.name;
            quote! {
                match <#ty as #k::Decode<#de>>::missing() {
                    #sup::Some(__v) => __v,
                    #sup::None => #sup::absent_field::<#ty>(#absent, #name)?,
                }
            }
        }
        (None, None) => quote! {
            match <#ty as #k::Decode<#de>>::missing() {
                #sup::Some(__v) => __v,
                #sup::None => return #sup::Err(#err),
            }
        },
    };
    quote!(match #slot { #sup::Some(__v) => __v, #sup::None => #fallback })
}

fn construct(cx: &Cx<'_>, st: &Struct, ss: &[Slot<'_>], ctor: &TokenStream) -> TokenStream {
    let vals = ss.iter().map(|s| {
        let m = &s.f.member;
        let v = finish_field(cx, st, s);
        quote!(#m: #v)
    });
    quote!(#ctor { #(#vals),* })
}

/// An expression of type `Result<Self>` decoding a struct or variant body.
fn struct_body(cx: &Cx<'_>, st: &Struct, ctor: &TokenStream) -> TokenStream {
    let (k, sup) = (cx.k, cx.sup());
    let ss = slots(cx, st, false);
    match st.style {
        Style::Unit => quote!({ __d.decode_nil()?; #sup::Ok(#ctor) }),
        Style::Newtype => {
            let s = &ss[0];
            let (de, ty) = (cx.de, &s.ty);
            let call = match &s.f.with {
                Some(m) => quote!(#m::decode(__d)?),
                None => quote!(<#ty as #k::Decode<#de>>::decode(__d)?),
            };
            quote!(#sup::Ok(#ctor(#call)))
        }
        Style::Tuple => {
            let decls = decls(cx, &ss);
            let arr = guarded(cx, &ss, array_path(cx, st, &ss));
            let build = construct(cx, st, &ss, ctor);
            quote!({ #decls #arr #sup::Ok(#build) })
        }
        Style::Named => {
            let decls = decls(cx, &ss);
            let map = map_path(cx, st, &ss);
            let arr = array_path(cx, st, &ss);
            let read = guarded(
                cx,
                &ss,
                quote! {
                    match __d.peek_head_kind()? {
                        #k::Kind::Map => { #map }
                        #k::Kind::Array => { #arr }
                        __kind => return #sup::Err(__d.mismatch(__kind, "map or array (struct)")),
                    }
                },
            );
            let build = construct(cx, st, &ss, ctor);
            quote! {{
                #decls
                #read
                #sup::Ok(#build)
            }}
        }
    }
}

/// Decodes into one existing field (`self.member`).
fn into_field(cx: &Cx<'_>, st: &Struct, s: &Slot<'_>) -> TokenStream {
    let (k, de) = (cx.k, cx.de);
    let m = &s.f.member;
    let seg = path_seg(st, s);
    match &s.f.with {
        Some(p) => quote!(self.#m = #p::decode(__d).map_err(|__err| #seg)?;),
        None => quote!(#k::Decode::<#de>::decode_into(&mut self.#m, __d).map_err(|__err| #seg)?;),
    }
}

/// The body of a derived `decode_into` (field by field, ugorji's decode into
/// a non-nil struct: fields absent from the input keep their values), or
/// `None` to keep the default (replace `*self`): enums, unit structs, and
/// structs with `flatten` / `rest` fields.
fn decode_into_body(cx: &Cx<'_>, st: &Struct) -> Option<TokenStream> {
    let (k, sup) = (cx.k, cx.sup());
    let ss = slots(cx, st, false);
    match st.style {
        Style::Unit => None,
        _ if st.dynamic() => None,
        Style::Newtype => {
            let s = &ss[0];
            if s.f.skip {
                return None;
            }
            Some(into_field(cx, st, s))
        }
        Style::Tuple | Style::Named => {
            let live: Vec<&Slot<'_>> = ss.iter().filter(|s| !s.f.skip).collect();
            let len = live.len();
            let items = live.iter().map(|s| {
                let into = into_field(cx, st, s);
                quote!(if !__d.array_next(&mut __seq)? { break '__items; } #into)
            });
            let end = if st.style == Style::Named {
                quote!(struct_array_end)
            } else {
                quote!(fixed_array_end)
            };
            let arr = quote! {
                let mut __seq = __d.array_begin()?;
                '__items: { #(#items)* }
                __d.#end(__seq, #len)?;
            };
            if st.style == Style::Tuple {
                return Some(arr);
            }
            if !st.int_keys {
                // Text keys: the struct has a `FlattenDecode` impl, whose
                // key lookup the shared loop uses.
                let (k, de) = (cx.k, cx.de);
                let names = live.iter().map(|s| &s.f.name);
                let arms = live.iter().enumerate().map(|(id, s)| {
                    let into = into_field(cx, st, s);
                    quote!(#id => { #into })
                });
                return Some(quote! {
                    static __HINTS: [#k::KeyHint; #len] = [#(#k::KeyHint::new(#names)),*];
                    #sup::decode_fields_into(
                        __d,
                        &__HINTS,
                        <Self as #sup::FlattenDecode<#de>>::flat_field_id,
                        |__id: usize, __d: &mut #k::Decoder<#de, __R, __F>| -> #k::Result<()> {
                            match __id {
                                #(#arms)*
                                _ => {}
                            }
                            #sup::Ok(())
                        },
                    )?;
                });
            }
            // A field given twice is an error, as it is to `decode`.
            let n_own = plain(&ss).count();
            let arms = plain(&ss).enumerate().map(|(id, s)| {
                let into = into_field(cx, st, s);
                let name = &s.f.name;
                quote!(#sup::FieldKey::Id(#id) => {
                    if ::core::mem::replace(&mut __seen[#id], true) {
                        return #sup::Err(#sup::duplicate_field(#name, __off));
                    }
                    #into
                })
            });
            let entries = entries(
                cx,
                st,
                &ss,
                quote! {
                    match __key {
                        #(#arms)*
                        #sup::FieldKey::Skip => #sup::skip_unknown(__d)?,
                        #sup::FieldKey::Rest(__k) => #sup::skip_rest_key(__d, __k)?,
                        #sup::FieldKey::Id(_) => __d.skip()?,
                    }
                },
                None,
            );
            Some(quote! {
                match __d.peek_head_kind()? {
                    #k::Kind::Map => {
                        let mut __seq = __d.map_begin()?;
                        let __unknown_err = __d.options().error_on_unknown_field;
                        let mut __seen = [false; #n_own];
                        #entries
                        __d.map_end(__seq)?;
                    }
                    #k::Kind::Array => { #arr }
                    __kind => return #sup::Err(__d.mismatch(__kind, "map or array (struct)")),
                }
            })
        }
    }
}

fn enum_body(cx: &Cx<'_>, ident: &syn::Ident, en: &crate::model::Enum) -> TokenStream {
    let (k, sup) = (cx.k, cx.sup());
    if en.variants.is_empty() {
        // No input is a value of an enum without variants: a type mismatch
        // naming the type, at the next item, which is left unread.
        let expected = format!(
            "a value of {} (an enum with no variants)",
            syn::ext::IdentExt::unraw(ident)
        );
        return quote! {
            let __kind = __d.peek_kind()?;
            #sup::Err(__d.mismatch(__kind, #expected))
        };
    }
    let read_tag = if en.index {
        let arms = en.variants.iter().enumerate().map(|(i, v)| {
            let n = v.index;
            quote!(#sup::IntKey::Int(#n) => #i,)
        });
        quote! {
            match #sup::read_int_key(__d)? {
                #(#arms)*
                __other => return #sup::Err(#sup::unknown_variant(&__other.describe(), __off)),
            }
        }
    } else {
        let arms = en.variants.iter().enumerate().map(|(i, v)| {
            let name = byte_lit(&v.name);
            quote!(#name => #i,)
        });
        quote! {{
            let __s = __d.decode_key()?;
            match &*__s {
                #(#arms)*
                __other => {
                    return #sup::Err(#sup::unknown_variant_name(#sup::key_text(__other, __off)?, __off))
                }
            }
        }}
    };
    let mut bare_arms = TokenStream::new();
    let mut map_arms = TokenStream::new();
    for (i, v) in en.variants.iter().enumerate() {
        let vid = &v.ident;
        let name = &v.name;
        if v.body.style == Style::Unit {
            bare_arms.extend(quote!(#i => #sup::Ok(Self::#vid),));
            map_arms
                .extend(quote!(#i => { if !__d.try_decode_nil()? { __d.skip()?; } Self::#vid }));
        } else {
            bare_arms.extend(quote!(#i => #sup::Err(#sup::variant_needs_payload(#name, __off)),));
            let body = struct_body(cx, &v.body, &quote!(Self::#vid));
            map_arms.extend(quote! {
                #i => {
                    let __r: #k::Result<Self> = (|| -> #k::Result<Self> { #body })();
                    __r.map_err(|__err| #sup::in_variant(__err, #name))?
                }
            });
        }
    }
    let tag_kinds = if en.index {
        // Nil too where nil is a zero integer: tag 0 written as nil.
        quote! {
            #k::Kind::Int | #k::Kind::Uint | #k::Kind::BigInt | #k::Kind::Str
            | #k::Kind::Nil if __kind != #k::Kind::Nil || __d.nil_is_zero()
        }
    } else {
        quote!(#k::Kind::Str | #k::Kind::Bytes)
    };
    quote! {
        // Errors point at the enum's first byte, past any whitespace.
        let __kind = __d.peek_head_kind()?;
        let __off = __d.next_item_offset();
        match __kind {
            #k::Kind::Map => {
                let mut __seq = __d.map_begin()?;
                if !__d.map_next(&mut __seq)? {
                    return #sup::Err(#sup::enum_map_len(__off));
                }
                let __id: usize = #read_tag;
                __d.map_value(&mut __seq)?;
                let __v: Self = match __id {
                    #map_arms
                    _ => return #sup::Err(#sup::unknown_variant("?", __off)),
                };
                if __d.map_next(&mut __seq)? {
                    return #sup::Err(#sup::enum_map_len(__d.offset()));
                }
                __d.map_end(__seq)?;
                #sup::Ok(__v)
            }
            #tag_kinds => {
                let __id: usize = #read_tag;
                match __id {
                    #bare_arms
                    _ => #sup::Err(#sup::unknown_variant("?", __off)),
                }
            }
            __kind => #sup::Err(__d.mismatch(__kind, "enum (tag or one-entry map)")),
        }
    }
}

/// The `Decode` impl, plus `FlattenDecode` for structs with named fields and string keys.
pub fn derive(c: &Container, g: &Gen) -> TokenStream {
    let k = &c.krate;
    let de = &g.de;
    let cx = Cx { k, de, g };
    let ident = &c.ident;
    let impl_gen = decode_impl_generics(c, g);
    let (impl_g, _, _) = impl_gen.split_for_impl();
    let (_, ty_g, _) = c.generics.split_for_impl();
    let preds = decode_bounds(c, g);
    let where_ = quote!(where #(#preds,)*);
    // Field-by-field `decode_into` needs each field's own type to be its
    // decoded type, which holds with at most one lifetime parameter.
    let into = match &c.body {
        Body::Struct(st) if c.generics.lifetimes().count() <= 1 && c.ext.is_none() => {
            decode_into_body(&cx, st).map(|b| {
                quote! {
                    fn decode_into<__R: #k::Read<#de>, __F: #k::DecodeFormat>(&mut self, __d: &mut #k::Decoder<#de, __R, __F>) -> #k::Result<()> {
                        #b
                        #k::derive_support::Ok(())
                    }
                }
            })
        }
        _ => None,
    };
    let (body, extra) = match &c.body {
        Body::Struct(st) => {
            let body = struct_body(&cx, st, &quote!(Self));
            let extra = if st.style == Style::Named && !st.int_keys {
                flatten_impl(&cx, c, st, &impl_g, &where_)
            } else {
                TokenStream::new()
            };
            (body, extra)
        }
        Body::Enum(en) => (enum_body(&cx, ident, en), TokenStream::new()),
    };
    if let Some(tag) = c.ext {
        return quote! {
            #[automatically_derived]
            impl #impl_g #k::derive_support::ExtBodyDecode<#de> for #ident #ty_g #where_ {
                fn decode_body<__R: #k::Read<#de>, __F: #k::DecodeFormat>(__d: &mut #k::Decoder<#de, __R, __F>) -> #k::Result<Self> {
                    #body
                }
            }
            #[automatically_derived]
            impl #impl_g #k::Decode<#de> for #ident #ty_g #where_ {
                fn decode<__R: #k::Read<#de>, __F: #k::DecodeFormat>(__d: &mut #k::Decoder<#de, __R, __F>) -> #k::Result<Self> {
                    let __b: #k::derive_support::ExtBodyOwned<Self> = __d.decode_ext_value(#tag)?;
                    #k::derive_support::Ok(__b.0)
                }
            }
            #extra
        };
    }
    quote! {
        #[automatically_derived]
        impl #impl_g #k::Decode<#de> for #ident #ty_g #where_ {
            fn decode<__R: #k::Read<#de>, __F: #k::DecodeFormat>(__d: &mut #k::Decoder<#de, __R, __F>) -> #k::Result<Self> {
                #body
            }
            #into
        }
        #extra
    }
}

/// The `FlattenDecode` impl, for structs flattened into another.
///
/// Unlike the encode side, `decode` does not call it, though its
/// unordered match, array items and construction are the same code:
/// built on this impl (its state tuple in place of the locals, the
/// in-order steps kept), `decode` compiled in 12.5 s instead of 15.0 s on
/// `bench/compile-time.sh 100`, with the same instruction counts, but took
/// 2 % to 6 % more time on citm_catalog, twitter and log (JSON), mesh
/// (CBOR) and color_group (MessagePack), and 5 % less on mk48; first
/// because a call left out of line kept the whole state in memory, then
/// for reasons the profiles did not show.
fn flatten_impl(
    cx: &Cx<'_>,
    c: &Container,
    st: &Struct,
    impl_g: &syn::ImplGenerics<'_>,
    where_: &TokenStream,
) -> TokenStream {
    let (k, sup, de) = (cx.k, cx.sup(), cx.de);
    let ident = &c.ident;
    let (_, ty_g, _) = c.generics.split_for_impl();
    let ss = slots(cx, st, true);
    let live: Vec<&Slot<'_>> = ss.iter().filter(|s| !s.f.skip).collect();
    let state_tys = live.iter().map(|s| slot_ty(cx, s));
    let inits = live.iter().map(|s| slot_init(cx, s));
    let has_rest = has_rest_expr(cx, &ss);
    let id_count = array_len(cx, &ss);
    let id_arms_ = plain(&ss).enumerate().map(|(id, s)| {
        let name = &s.f.name;
        quote!(#name => #sup::Some(#id),)
    });
    let lookup = flat_lookup(cx, &ss, |id| quote!(#sup::Some(#id)), quote!(#sup::None));
    let field_arms = id_arms(cx, st, &ss, |id| id);
    let rest = rest_route(cx, &ss);
    // Without a flattened field, the items are the fields by id, in
    // declaration order: the trait's default.
    let array = if flats(&ss).next().is_some() {
        let items = array_items(cx, st, &ss, &quote!(return #sup::Ok(false);));
        quote! {
            fn flat_decode_array<__R: #k::Read<#de>, __F: #k::DecodeFormat>(__st: &mut Self::State, __d: &mut #k::Decoder<#de, __R, __F>, __seq: &mut #k::Seq) -> #k::Result<bool> {
                #items
                #sup::Ok(true)
            }
        }
    } else {
        TokenStream::new()
    };
    let build = construct(cx, st, &ss, &quote!(Self));
    quote! {
        #[automatically_derived]
        impl #impl_g #sup::FlattenDecode<#de> for #ident #ty_g #where_ {
            type State = (#(#state_tys,)*);
            const HAS_REST: bool = #has_rest;
            const ID_COUNT: usize = #id_count;
            #[inline]
            fn flat_init() -> Self::State {
                (#(#inits,)*)
            }
            #[inline]
            fn flat_field_id(__other: &str) -> #sup::Option<usize> {
                match __other {
                    #(#id_arms_)*
                    _ => #lookup
                }
            }
            fn flat_decode_field<__R: #k::Read<#de>, __F: #k::DecodeFormat>(__st: &mut Self::State, __id: usize, __off: u64, __d: &mut #k::Decoder<#de, __R, __F>) -> #k::Result<()> {
                match __id {
                    #field_arms
                }
                #sup::Ok(())
            }
            fn flat_decode_rest<__R: #k::Read<#de>, __F: #k::DecodeFormat>(__st: &mut Self::State, __k: #sup::String, __off: u64, __d: &mut #k::Decoder<#de, __R, __F>) -> #k::Result<()> {
                #rest
                #sup::Ok(())
            }
            #array
            fn flat_finish(__st: &mut Self::State, __absent_empty: bool) -> #k::Result<Self> {
                #sup::Ok(#build)
            }
        }
    }
}

//! Code generation for `Encode` and the encoding half of `Flatten`.
//!
//! Generated code names the encoder `__e`; field accessors are expressions of
//! type `&FieldType` (`&self.x` for structs, bindings for enum variants).

use crate::generics::{Gen, encode_bounds};
use crate::model::{Body, Container, Field, Struct, Style};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Path;

/// One field and the expression that reaches it (a reference).
pub struct Acc<'a> {
    pub f: &'a Field,
    pub acc: TokenStream,
}

fn value(k: &Path, a: &Acc<'_>) -> TokenStream {
    let acc = &a.acc;
    let name = &a.f.name;
    let call = match &a.f.with {
        Some(m) => quote!(#m::encode(#acc, __e)),
        None => quote!(#k::Encode::encode(#acc, __e)),
    };
    quote!(#call.map_err(|__err| __err.in_field(#name))?;)
}

/// `Some(cond)`: the entry is written only when `cond` holds.
fn keep_cond(k: &Path, a: &Acc<'_>) -> Option<TokenStream> {
    if a.f.with.is_some() {
        return None;
    }
    let acc = &a.acc;
    Some(if a.f.omitempty {
        quote!(!#k::Encode::is_empty_value(#acc))
    } else {
        quote!(!(__omit && #k::Encode::is_empty_value(#acc)))
    })
}

/// Whether a `rest` map leaves out its empty values: under the struct's
/// `omitempty` always, else with the `omit_empty` option (`__omit`).
fn rest_omit(a: &Acc<'_>) -> TokenStream {
    if a.f.omitempty {
        quote!(true)
    } else {
        quote!(__omit)
    }
}

fn key(st: &Struct, f: &Field) -> TokenStream {
    match (st.int_keys, f.key) {
        (true, Some(n)) => quote!(__e.encode_i64(#n)?;),
        _ => {
            let name = &f.name;
            quote!(__e.encode_field_name(#name)?;)
        }
    }
}

fn entry(k: &Path, st: &Struct, a: &Acc<'_>) -> TokenStream {
    let val = value(k, a);
    let body = match (st.int_keys, a.f.key) {
        (true, Some(_)) => {
            let key = key(st, a.f);
            quote! { __e.map_key(__i)?; #key __e.map_value()?; #val __i += 1; }
        }
        _ => {
            let name = &a.f.name;
            quote! {
                __e.encode_field(__i, {
                    const __NAME: #k::FieldName = #k::FieldName::new(#name);
                    __NAME
                })?;
                #val
                __i += 1;
            }
        }
    };
    match keep_cond(k, a) {
        Some(c) => quote!(if #c { #body }),
        None => body,
    }
}

/// A statement binding `__n`, the number of map entries (needs `__omit`).
///
/// Counted in two branches on `__omit`: without the option (the default)
/// only fields marked `omitempty` are tested. In a single count the
/// compiler tests every field's emptiness and masks it with `__omit`
/// without a branch: for twitter's `User` (40 fields), some 200
/// instructions per struct spent finding that nothing is omitted.
fn count(k: &Path, accs: &[Acc<'_>]) -> TokenStream {
    let on = count_when(k, accs, true);
    let off = count_when(k, accs, false);
    quote!(let __n: usize = if __omit { #on } else { #off };)
}

/// The block [`count`] runs when `__omit` is `omit`.
fn count_when(k: &Path, accs: &[Acc<'_>], omit: bool) -> TokenStream {
    let mut fixed = 0usize;
    let mut out = TokenStream::new();
    for a in accs {
        let acc = &a.acc;
        if a.f.flatten {
            out.extend(quote!(__n += #k::derive_support::Flatten::flat_len(#acc, __omit);));
        } else if a.f.rest {
            let omit = rest_omit(a);
            out.extend(quote!(__n += #k::derive_support::RestEncode::rest_len(#acc, #omit);));
        } else if !a.f.skip {
            match keep_cond(k, a) {
                Some(c) if omit || a.f.omitempty => out.extend(quote!(if #c { __n += 1; })),
                _ => fixed += 1,
            }
        }
    }
    if out.is_empty() {
        return quote!(#fixed);
    }
    quote!({
        let mut __n: usize = #fixed;
        #out
        __n
    })
}

/// Map entries in declaration order (counter `__i`).
fn entries_decl(k: &Path, st: &Struct, accs: &[Acc<'_>]) -> TokenStream {
    let mut out = TokenStream::new();
    for a in accs {
        let acc = &a.acc;
        if a.f.flatten {
            out.extend(
                quote!(#k::derive_support::Flatten::flat_encode_map(#acc, __e, &mut __i, __omit, __known)?;),
            );
        } else if a.f.rest {
            out.extend(
                {
                    let omit = rest_omit(a);
                    quote!(#k::derive_support::RestEncode::rest_encode(#acc, __e, &mut __i, #omit, __known)?;)
                },
            );
        } else if !a.f.skip {
            out.extend(entry(k, st, a));
        }
    }
    out
}

/// Statements pushing the names of the written entries onto `#out`.
fn names(k: &Path, accs: &[Acc<'_>], opts: &TokenStream, out: &TokenStream) -> TokenStream {
    let mut ts = TokenStream::new();
    for a in accs {
        let acc = &a.acc;
        if a.f.flatten {
            ts.extend(
                quote!(#k::derive_support::Flatten::flat_names(#acc, #opts, #out, __known)?;),
            );
        } else if a.f.rest {
            let omit = rest_omit(a);
            ts.extend(
                quote!(#k::derive_support::RestEncode::rest_names(#acc, #out, #omit, __known)?;),
            );
        } else if !a.f.skip {
            let name = &a.f.name;
            match keep_cond(k, a) {
                Some(c) => ts.extend(quote!(if #c { #out.push(#name); })),
                None => ts.extend(quote!(#out.push(#name);)),
            }
        }
    }
    ts
}

/// A `bool` expression writing the key and value of entry `__name`.
fn by_name(k: &Path, st: &Struct, accs: &[Acc<'_>]) -> TokenStream {
    let mut arms = TokenStream::new();
    let mut fallback = quote!(false);
    for a in accs.iter().rev() {
        let acc = &a.acc;
        if a.f.flatten {
            fallback = quote! {
                if #k::derive_support::Flatten::flat_encode_entry(#acc, __name, __e)? { true } else { #fallback }
            };
        } else if a.f.rest {
            fallback = quote! {
                if #k::derive_support::RestEncode::rest_encode_entry(#acc, __name, __e)? { true } else { #fallback }
            };
        }
    }
    for a in accs.iter().filter(|a| a.f.plain()) {
        let name = &a.f.name;
        let key = key(st, a.f);
        let val = value(k, a);
        arms.extend(quote!(#name => { #key __e.map_value()?; #val true }));
    }
    quote!(match __name { #arms _ => { #fallback } })
}

/// The map form. With `flat`, the struct's own `Flatten` impl supplies the
/// entry count, the entries in declaration order and, for canonical order
/// with flattened or `rest` fields, the names and the entry by name: its
/// methods are in line, and each field's code is type-checked and borrow-
/// checked once instead of twice (compile time; see [`flatten_impl`]).
fn map_body(k: &Path, st: &Struct, accs: &[Acc<'_>], flat: bool) -> TokenStream {
    let opts = quote!(__e.options());
    let fl = quote!(#k::derive_support::Flatten);
    let (count, decl) = if flat {
        (
            quote!(let __n: usize = #fl::flat_len(self, __omit);),
            quote!(#fl::flat_encode_map(self, __e, &mut __i, __omit, &<Self as #fl>::NAMES)?;),
        )
    } else {
        (count(k, accs), entries_decl(k, st, accs))
    };
    let ordered = if st.dynamic() {
        let (names, by_name) = if flat {
            (
                quote!(#fl::flat_names(self, #opts, &mut __names, &<Self as #fl>::NAMES)?;),
                quote!(#fl::flat_encode_entry(self, __name, __e)?),
            )
        } else {
            (
                names(k, accs, &opts, &quote!((&mut __names))),
                by_name(k, st, accs),
            )
        };
        quote! {
            if __e.options().canonical {
                let mut __names: #k::derive_support::Vec<&str> = #k::derive_support::Vec::with_capacity(__n);
                #names
                #k::derive_support::sort_names(&mut __names)?;
                for __name in __names {
                    __e.map_key(__i)?;
                    let _found: bool = #by_name;
                    __i += 1;
                }
            } else {
                #decl
            }
        }
    } else {
        // Canonical order is known at compile time.
        let mut sorted: Vec<&Acc<'_>> = accs.iter().filter(|a| a.f.plain()).collect();
        if st.int_keys {
            // By the key's decimal text, as ugorji sorts `keyasint` fields
            // (by their names, which are the numbers): 1, 10, 2.
            sorted.sort_by_key(|a| a.f.key.map(|n| n.to_string()));
        } else {
            sorted.sort_by(|a, b| a.f.name.as_bytes().cmp(b.f.name.as_bytes()));
        }
        let same = sorted
            .iter()
            .zip(accs.iter().filter(|a| a.f.plain()))
            .all(|(a, b)| std::ptr::eq(a.f, b.f));
        if same {
            decl
        } else {
            let canon: TokenStream = sorted.iter().map(|a| entry(k, st, a)).collect();
            quote!(if __e.options().canonical { #canon } else { #decl })
        }
    };
    quote! {
        let __omit = __e.options().omit_empty;
        let _ = __omit;
        #count
        __e.map_start(__n)?;
        let mut __i: usize = 0;
        #ordered
        let _ = __i;
        __e.map_end(__n)
    }
}

fn array_len(k: &Path, accs: &[Acc<'_>]) -> TokenStream {
    let n = accs.iter().filter(|a| a.f.plain()).count();
    let flat = accs.iter().filter(|a| a.f.flatten).map(|a| {
        let ty = &a.f.ty;
        quote!(+ <#ty as #k::derive_support::Flatten>::ARRAY_LEN)
    });
    quote!(#n #(#flat)*)
}

/// Array items (counter `__i`).
fn items(k: &Path, accs: &[Acc<'_>]) -> TokenStream {
    let mut out = TokenStream::new();
    for a in accs {
        let acc = &a.acc;
        if a.f.flatten {
            out.extend(
                quote!(#k::derive_support::Flatten::flat_encode_array(#acc, __e, &mut __i)?;),
            );
        } else if a.f.plain() {
            let val = value(k, a);
            out.extend(quote!(__e.array_elem(__i)?; #val __i += 1;));
        }
    }
    out
}

/// The array form; with `flat`, its items are the `Flatten` impl's (see [`map_body`]).
fn array_body(k: &Path, accs: &[Acc<'_>], flat: bool) -> TokenStream {
    let len = array_len(k, accs);
    let items = if flat {
        quote!(#k::derive_support::Flatten::flat_encode_array(self, __e, &mut __i)?;)
    } else {
        items(k, accs)
    };
    quote! {
        let __len: usize = #len;
        __e.array_start(__len)?;
        let mut __i: usize = 0;
        #items
        let _ = __i;
        __e.array_end(__len)
    }
}

/// An expression of type `Result<()>` encoding a struct (or variant) body;
/// `flat` when it is a struct's own, with a `Flatten` impl to build on
/// ([`has_flatten_impl`]).
pub fn struct_body(k: &Path, st: &Struct, accs: &[Acc<'_>], flat: bool) -> TokenStream {
    match st.style {
        Style::Unit => quote!(__e.encode_nil()),
        Style::Newtype => {
            let a = &accs[0];
            let acc = &a.acc;
            match &a.f.with {
                Some(m) => quote!(#m::encode(#acc, __e)),
                None => quote!(#k::Encode::encode(#acc, __e)),
            }
        }
        Style::Tuple => {
            let len = accs.iter().filter(|a| !a.f.skip).count();
            let mut out = TokenStream::new();
            for (i, a) in accs.iter().filter(|a| !a.f.skip).enumerate() {
                let acc = &a.acc;
                let call = match &a.f.with {
                    Some(m) => quote!(#m::encode(#acc, __e)),
                    None => quote!(#k::Encode::encode(#acc, __e)),
                };
                out.extend(
                    quote!(__e.array_elem(#i)?; #call.map_err(|__err| __err.in_index(#i))?;),
                );
            }
            quote!({ __e.array_start(#len)?; #out __e.array_end(#len) })
        }
        Style::Named => {
            let arr = array_body(k, accs, flat);
            if st.toarray {
                quote!({ #arr })
            } else {
                let map = map_body(k, st, accs, flat);
                quote!(if __e.options().struct_to_array { #arr } else { #map })
            }
        }
    }
}

fn self_accs(st: &Struct) -> Vec<Acc<'_>> {
    st.fields
        .iter()
        .map(|f| {
            let m = &f.member;
            Acc {
                f,
                acc: quote!(&self.#m),
            }
        })
        .collect()
}

fn variant_accs(st: &Struct) -> (Vec<Acc<'_>>, TokenStream) {
    let mut accs = Vec::new();
    let mut pats = Vec::new();
    for (i, f) in st.fields.iter().enumerate() {
        let b = format_ident!("__v{}", i);
        let m = &f.member;
        pats.push(quote!(#m: #b));
        accs.push(Acc { f, acc: quote!(#b) });
    }
    (accs, quote!({ #(#pats),* }))
}

/// Structs of up to this many fields have their `encode` always inlined
/// (others get `#[inline]`, a hint the compiler mostly declines for a
/// struct nested in another). A point or a small record inside a larger
/// struct is then written in its caller's body, with no call, no saved
/// registers and the writer's length kept in a register across it:
/// encoding mk48 (a `Vector2f` in a `Transform` in each `Contact`, and a
/// `Guidance`) ran 8.76M -> 8.19M instructions in MessagePack and
/// 9.04M -> 8.06M in CBOR, mesh in CBOR 33.5M -> 32.0M; twitter, citm_catalog
/// and canada within 1 %.
const SMALL_STRUCT: usize = 4;

/// The `Encode` impl, plus `Flatten` for structs with named fields and string keys.
pub fn derive(c: &Container, g: &Gen) -> TokenStream {
    let k = &c.krate;
    let ident = &c.ident;
    let (impl_g, ty_g, _) = c.generics.split_for_impl();
    let preds = encode_bounds(c, g);
    let where_ = quote!(where #(#preds,)*);
    let (body, extra) = match &c.body {
        Body::Struct(st) => {
            let accs = self_accs(st);
            let flat = has_flatten_impl(st);
            let mut body = struct_body(k, st, &accs, flat);
            let mut extra = if flat {
                flatten_impl(c, st, &accs, &where_)
            } else {
                TokenStream::new()
            };
            if flat && !st.toarray && st.fields.iter().any(|f| f.flatten) {
                // No key written twice and at most one `rest` map: checked
                // when the crate compiles, or for a generic struct when its
                // `encode` is instantiated.
                let name = ident.to_string();
                let names = quote!(<#ident #ty_g as #k::derive_support::Flatten>::NAMES);
                let check = quote!(#k::derive_support::check_field_names(#name, &#names));
                if c.generics.params.is_empty() {
                    extra.extend(quote!(const _: () = #check;));
                } else {
                    body = quote!({ const { #check }; #body });
                }
            }
            (body, extra)
        }
        Body::Enum(en) => {
            let arms = en.variants.iter().map(|v| {
                let vid = &v.ident;
                let (accs, pat) = variant_accs(&v.body);
                let tag = if en.index {
                    let n = v.index;
                    quote!(__e.encode_variant_index(#n)?;)
                } else {
                    let name = &v.name;
                    quote!(__e.encode_field_name(#name)?;)
                };
                if v.body.style == Style::Unit {
                    let tag = if en.index {
                        let n = v.index;
                        quote!(__e.encode_variant_index(#n))
                    } else {
                        let name = &v.name;
                        quote!(__e.encode_field_name(#name))
                    };
                    return quote!(Self::#vid { .. } => #tag,);
                }
                let inner = struct_body(k, &v.body, &accs, false);
                quote! {
                    Self::#vid #pat => {
                        __e.map_start(1)?;
                        __e.map_key(0)?;
                        #tag
                        __e.map_value()?;
                        let __r: #k::Result<()> = #inner;
                        __r?;
                        __e.map_end(1)
                    }
                }
            });
            // An enum without variants has no value to encode: `match *self {}`
            // (the place, not the reference, is what the compiler knows empty).
            let body = if en.variants.is_empty() {
                quote!(match *self {})
            } else {
                quote!(match self { #(#arms)* })
            };
            (body, TokenStream::new())
        }
    };
    if let Some(tag) = c.ext {
        return quote! {
            #[automatically_derived]
            impl #impl_g #k::derive_support::ExtBody for #ident #ty_g #where_ {
                fn encode_body<__W: #k::Write, __F: #k::EncodeFormat>(&self, __e: &mut #k::Encoder<__W, __F>) -> #k::Result<()> {
                    #body
                }
            }
            #[automatically_derived]
            impl #impl_g #k::Encode for #ident #ty_g #where_ {
                #[inline]
                fn encode<__W: #k::Write, __F: #k::EncodeFormat>(&self, __e: &mut #k::Encoder<__W, __F>) -> #k::Result<()> {
                    __e.encode_ext_value(#tag, &#k::derive_support::ExtBodyRef(self))
                }
            }
            #extra
        };
    }
    let inline = match &c.body {
        Body::Struct(st) => inline_attr(st),
        Body::Enum(_) => quote!(#[inline]),
    };
    quote! {
        #[automatically_derived]
        impl #impl_g #k::Encode for #ident #ty_g #where_ {
            #inline
            fn encode<__W: #k::Write, __F: #k::EncodeFormat>(&self, __e: &mut #k::Encoder<__W, __F>) -> #k::Result<()> {
                #body
            }
        }
        #extra
    }
}

/// Whether a struct gets a `Flatten` impl (named fields, string keys), so
/// that another struct can `flatten` it.
fn has_flatten_impl(st: &Struct) -> bool {
    st.style == Style::Named && !st.int_keys
}

/// The inlining of a struct's `encode`: always for a small struct
/// ([`SMALL_STRUCT`]), a hint otherwise.
fn inline_attr(st: &Struct) -> TokenStream {
    if st.fields.len() <= SMALL_STRUCT && !st.dynamic() {
        quote!(#[inline(always)])
    } else {
        quote!(#[inline])
    }
}

/// The `Flatten` impl. Its entry count, map entries and array items are
/// also the struct's own `encode` ([`map_body`], [`array_body`]): each
/// field's code was generated twice before, and on 100 structs of ten
/// fields (`bench/compile-time.sh`) sharing it took the release build from
/// 21.0 to 17.1 s and `cargo check` from 15.3 to 11.8 s. `encode` calls
/// them with the counter at 0 and the `omit_empty` option it read before
/// writing anything; they are always inlined, so that both are constants
/// there again (JSON writes the first key without a comma and every other
/// with one, without testing the counter: left to the compiler's choice,
/// twitter's 40-field `User` took 30 % more instructions in JSON; and a
/// re-read of the option after the map header, which the compiler cannot
/// assume unchanged by the write, cost mk48 2.4 % in CBOR).
fn flatten_impl(c: &Container, st: &Struct, accs: &[Acc<'_>], where_: &TokenStream) -> TokenStream {
    let k = &c.krate;
    let ident = &c.ident;
    let (impl_g, ty_g, _) = c.generics.split_for_impl();
    let len = array_len(k, accs);
    let opts = quote!(__opts);
    let count = count(k, accs);
    let decl = entries_decl(k, st, accs);
    let items = items(k, accs);
    let names = names(k, accs, &opts, &quote!(__out));
    let by_name = by_name(k, st, accs);
    let own = accs.iter().filter(|a| a.f.plain()).map(|a| &a.f.name);
    let flattened = accs.iter().filter(|a| a.f.flatten).map(|a| &a.f.ty);
    let rest = accs.iter().any(|a| a.f.rest);
    quote! {
        #[automatically_derived]
        impl #impl_g #k::derive_support::Flatten for #ident #ty_g #where_ {
            const ARRAY_LEN: usize = #len;
            const NAMES: #k::derive_support::FieldNames = #k::derive_support::FieldNames {
                own: &[#(#own),*],
                flattened: &[#(&<#flattened as #k::derive_support::Flatten>::NAMES),*],
                rest: #rest,
            };
            #[inline(always)]
            fn flat_len(&self, __omit: bool) -> usize {
                #count
                __n
            }
            #[inline(always)]
            fn flat_encode_map<__W: #k::Write, __F: #k::EncodeFormat>(&self, __e: &mut #k::Encoder<__W, __F>, __index: &mut usize, __omit: bool, __known: &#k::derive_support::FieldNames) -> #k::Result<()> {
                let _ = __known;
                let _ = __omit;
                let mut __i: usize = *__index;
                #decl
                *__index = __i;
                #k::derive_support::Ok(())
            }
            #[inline(always)]
            fn flat_encode_array<__W: #k::Write, __F: #k::EncodeFormat>(&self, __e: &mut #k::Encoder<__W, __F>, __index: &mut usize) -> #k::Result<()> {
                let mut __i: usize = *__index;
                #items
                *__index = __i;
                #k::derive_support::Ok(())
            }
            fn flat_names<'__a>(&'__a self, __opts: &#k::EncodeOptions, __out: &mut #k::derive_support::Vec<&'__a str>, __known: &#k::derive_support::FieldNames) -> #k::Result<()> {
                let __omit = __opts.omit_empty;
                let _ = (__omit, __known);
                #names
                #k::derive_support::Ok(())
            }
            fn flat_encode_entry<__W: #k::Write, __F: #k::EncodeFormat>(&self, __name: &str, __e: &mut #k::Encoder<__W, __F>) -> #k::Result<bool> {
                #k::derive_support::Ok(#by_name)
            }
        }
    }
}

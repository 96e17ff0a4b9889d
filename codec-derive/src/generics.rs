//! Impl generics, inferred bounds and the decode lifetime.

use crate::model::{Body, Container, Field};
use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use std::collections::HashSet;
use syn::visit_mut::VisitMut;
use syn::{GenericParam, Generics, Ident, Lifetime, LifetimeParam, Type, WherePredicate};

/// Generic facts the code generators need.
pub struct Gen {
    /// The input lifetime of the decode impl: the type's own lifetime when it
    /// has exactly one, else a fresh `'de` that outlives all of them.
    pub de: Lifetime,
    /// Whether `de` is a fresh lifetime (field types then get their lifetimes
    /// replaced by it, and covariance turns the result back).
    pub fresh: bool,
    type_params: Vec<Ident>,
    lifetimes: Vec<Lifetime>,
}

impl Gen {
    pub fn new(g: &Generics) -> Self {
        let lifetimes: Vec<Lifetime> = g.lifetimes().map(|l| l.lifetime.clone()).collect();
        let type_params = g.type_params().map(|t| t.ident.clone()).collect();
        if lifetimes.len() == 1 {
            Gen {
                de: lifetimes[0].clone(),
                fresh: false,
                type_params,
                lifetimes,
            }
        } else {
            let name = if lifetimes.iter().any(|l| l.ident == "de") {
                "'__de"
            } else {
                "'de"
            };
            Gen {
                de: Lifetime::new(name, proc_macro2::Span::call_site()),
                fresh: true,
                type_params,
                lifetimes,
            }
        }
    }

    /// `ty` with the type's lifetimes replaced by the decode lifetime.
    pub fn de_ty(&self, ty: &Type) -> Type {
        let mut t = ty.clone();
        if self.fresh && !self.lifetimes.is_empty() {
            Subst(self).visit_type_mut(&mut t);
        }
        t
    }

    fn params_in(&self, ty: &Type, out: &mut Vec<Ident>) {
        fn walk(ts: TokenStream, params: &[Ident], out: &mut Vec<Ident>) {
            for tt in ts {
                match tt {
                    TokenTree::Ident(i) if params.contains(&i) && !out.contains(&i) => out.push(i),
                    TokenTree::Group(g) => walk(g.stream(), params, out),
                    _ => {}
                }
            }
        }
        walk(quote!(#ty), &self.type_params, out);
    }

    fn mentions_params(&self, ty: &Type) -> bool {
        let mut v = Vec::new();
        self.params_in(ty, &mut v);
        !v.is_empty()
    }
}

struct Subst<'a>(&'a Gen);

impl VisitMut for Subst<'_> {
    fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
        if self.0.lifetimes.contains(l) {
            *l = self.0.de.clone();
        }
    }
}

struct RenameDe<'a>(&'a Lifetime);

impl VisitMut for RenameDe<'_> {
    fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
        if l.ident == "de" {
            *l = self.0.clone();
        }
    }
}

fn all_fields(c: &Container) -> Vec<&Field> {
    match &c.body {
        Body::Struct(s) => s.fields.iter().collect(),
        Body::Enum(e) => e
            .variants
            .iter()
            .flat_map(|v| v.body.fields.iter())
            .collect(),
    }
}

fn dedup(preds: Vec<WherePredicate>) -> Vec<WherePredicate> {
    let mut seen = HashSet::new();
    preds
        .into_iter()
        .filter(|p| seen.insert(quote!(#p).to_string()))
        .collect()
}

/// Where-clause predicates of the `Encode` (and `Flatten`) impl.
pub fn encode_bounds(c: &Container, g: &Gen) -> Vec<WherePredicate> {
    let k = &c.krate;
    let mut preds: Vec<WherePredicate> = c
        .generics
        .where_clause
        .as_ref()
        .map(|w| w.predicates.iter().cloned().collect())
        .unwrap_or_default();
    if let Some(user) = &c.encode_bound {
        preds.extend(user.iter().cloned());
        return preds;
    }
    for f in all_fields(c) {
        if f.skip || f.with.is_some() {
            continue;
        }
        let ty = &f.ty;
        if f.flatten {
            if g.mentions_params(ty) {
                preds.push(syn::parse_quote!(#ty: #k::derive_support::Flatten));
            }
        } else if f.rest {
            if g.mentions_params(ty) {
                preds.push(syn::parse_quote!(#ty: #k::derive_support::RestEncode));
            }
        } else {
            let mut ps = Vec::new();
            g.params_in(ty, &mut ps);
            for p in ps {
                preds.push(syn::parse_quote!(#p: #k::Encode));
            }
        }
    }
    dedup(preds)
}

/// Where-clause predicates of the `Decode` (and `FlattenDecode`) impl.
pub fn decode_bounds(c: &Container, g: &Gen) -> Vec<WherePredicate> {
    let k = &c.krate;
    let de = &g.de;
    let mut preds: Vec<WherePredicate> = c
        .generics
        .where_clause
        .as_ref()
        .map(|w| w.predicates.iter().cloned().collect())
        .unwrap_or_default();
    if g.fresh && !g.lifetimes.is_empty() {
        let ls = &g.lifetimes;
        preds.push(syn::parse_quote!(#de: #(#ls)+*));
    }
    if let Some(user) = &c.decode_bound {
        for p in user {
            let mut p = p.clone();
            RenameDe(de).visit_where_predicate_mut(&mut p);
            preds.push(p);
        }
        return preds;
    }
    for f in all_fields(c) {
        let ty = g.de_ty(&f.ty);
        let needs_default = f.skip && !matches!(f.default, Some(crate::attr::DefaultAttr::Path(_)))
            || matches!(f.default, Some(crate::attr::DefaultAttr::Trait))
            || (f.omitempty && f.default.is_none() && f.with.is_none());
        if needs_default {
            let mut ps = Vec::new();
            g.params_in(&ty, &mut ps);
            for p in ps {
                preds.push(syn::parse_quote!(#p: ::core::default::Default));
            }
        }
        if f.skip || f.with.is_some() {
            continue;
        }
        if f.flatten {
            if g.mentions_params(&ty) {
                preds.push(syn::parse_quote!(#ty: #k::derive_support::FlattenDecode<#de>));
            }
        } else if f.rest {
            if g.mentions_params(&ty) {
                preds.push(syn::parse_quote!(#ty: #k::derive_support::RestDecode<#de>));
            }
        } else {
            let mut ps = Vec::new();
            g.params_in(&ty, &mut ps);
            for p in ps {
                preds.push(syn::parse_quote!(#p: #k::Decode<#de>));
            }
        }
    }
    dedup(preds)
}

/// `impl<...>` generics of the decode impl (with a fresh `'de` when needed).
pub fn decode_impl_generics(c: &Container, g: &Gen) -> Generics {
    let mut out = c.generics.clone();
    out.where_clause = None;
    if g.fresh {
        out.params
            .insert(0, GenericParam::Lifetime(LifetimeParam::new(g.de.clone())));
    }
    out
}

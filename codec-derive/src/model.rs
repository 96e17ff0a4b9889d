//! A small model of the type being derived, built from syn's AST and the
//! parsed attributes, with every misuse reported at the attribute's span.

use crate::attr::{self, DefaultAttr, Errors, RenameRule, Spanned_};
use proc_macro2::Span;
use std::collections::HashMap;
use syn::spanned::Spanned;
use syn::{
    Data, DeriveInput, Expr, ExprLit, ExprUnary, Fields, Generics, Ident, Lit, Member, Path, Type,
    UnOp, WherePredicate,
};

/// The derived type.
pub struct Container {
    pub ident: Ident,
    pub generics: Generics,
    /// Path of the library (`::codec` unless `#[codec(crate = "...")]`).
    pub krate: Path,
    pub encode_bound: Option<Vec<WherePredicate>>,
    pub decode_bound: Option<Vec<WherePredicate>>,
    pub body: Body,
    /// `#[codec(ext = N)]`: the derived encoding is the content of an extension with tag `N`.
    pub ext: Option<u64>,
}

pub enum Body {
    Struct(Struct),
    Enum(Enum),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Named,
    Tuple,
    Newtype,
    Unit,
}

/// The fields of a struct or of one enum variant.
pub struct Struct {
    pub style: Style,
    pub fields: Vec<Field>,
    /// Array form always (`#[codec(toarray)]`).
    pub toarray: bool,
    /// Map keys are integers (`key = N` on every field).
    pub int_keys: bool,
}

impl Struct {
    /// Whether the map form needs run-time merging (flatten or rest).
    pub fn dynamic(&self) -> bool {
        self.fields.iter().any(|f| f.flatten || f.rest)
    }
}

pub struct Field {
    pub member: Member,
    pub ty: Type,
    /// Name on the wire (after rename / rename_all); for tuple fields, the index.
    pub name: String,
    pub key: Option<i64>,
    pub skip: bool,
    pub omitempty: bool,
    pub default: Option<DefaultAttr>,
    pub flatten: bool,
    pub rest: bool,
    pub with: Option<Path>,
    /// Span of the `flatten` or `rest` attribute.
    pub special_span: Option<Span>,
}

impl Field {
    /// Written as a plain map entry / array item (not skipped, flattened or rest).
    pub fn plain(&self) -> bool {
        !self.skip && !self.flatten && !self.rest
    }
}

pub struct Enum {
    /// Integer tags (`#[codec(index)]`).
    pub index: bool,
    pub variants: Vec<Variant>,
}

pub struct Variant {
    pub ident: Ident,
    pub name: String,
    pub index: i64,
    pub body: Struct,
}

/// Builds the model, or every error found.
pub fn build(input: &DeriveInput) -> syn::Result<Container> {
    let mut errors = Errors::default();
    let ca = attr::container(&input.attrs, &mut errors);
    let krate = match &ca.krate {
        Some(p) => p.value.clone(),
        None => syn::parse_quote!(::codec),
    };
    let (mut eb, mut db) = (None, None);
    if let Some(b) = &ca.bound {
        eb = Some(b.value.clone());
        db = Some(b.value.clone());
    }
    if let Some(b) = &ca.encode_bound {
        if ca.bound.is_some() {
            errors.at(b.span, "`encode_bound` conflicts with `bound`");
        }
        eb = Some(b.value.clone());
    }
    if let Some(b) = &ca.decode_bound {
        if ca.bound.is_some() {
            errors.at(b.span, "`decode_bound` conflicts with `bound`");
        }
        db = Some(b.value.clone());
    }

    let body = match &input.data {
        Data::Union(u) => {
            errors.at(
                u.union_token.span,
                "#[derive(Codec)] does not support unions: use a struct or an enum",
            );
            None
        }
        Data::Struct(s) => {
            if let Some(sp) = ca.index {
                errors.at(sp, "`index` applies to enums only (integer variant tags)");
            }
            let st = fields(
                &s.fields,
                ca.rename_all.as_ref(),
                ca.omitempty,
                ca.toarray,
                false,
                &mut errors,
            );
            Some(Body::Struct(st))
        }
        Data::Enum(e) => {
            if let Some(sp) = ca.toarray {
                errors.at(
                    sp,
                    "`toarray` on an enum is not supported: put it on each struct variant",
                );
            }
            if let Some(sp) = ca.omitempty {
                errors.at(
                    sp,
                    "`omitempty` on an enum is not supported: put it on struct variants or fields",
                );
            }
            let mut variants = Vec::new();
            let mut next_index: i64 = 0;
            let mut names: HashMap<String, Span> = HashMap::new();
            let mut indices: HashMap<i64, Span> = HashMap::new();
            for v in &e.variants {
                let va = attr::variant(&v.attrs, &mut errors);
                let ident_s = v.ident.to_string();
                let name = match (&va.rename, &ca.rename_all) {
                    (Some(r), _) => r.value.clone(),
                    (None, Some(rule)) => rule.value.apply_to_variant(&ident_s),
                    (None, None) => ident_s,
                };
                let name_span = va.rename.as_ref().map_or(v.ident.span(), |r| r.span);
                if names.insert(name.clone(), name_span).is_some() {
                    errors.at(name_span, format!("duplicate variant name {name:?}"));
                }
                // Rust's rule for discriminants: explicit value, else previous + 1.
                let mut index = next_index;
                if let Some((_, expr)) = &v.discriminant {
                    match discriminant(expr) {
                        Some(n) => index = n,
                        None if ca.index.is_some() && va.index.is_none() => errors.at(
                            expr.span(),
                            "this discriminant is not an integer literal: give the variant \
                             `#[codec(index = N)]`",
                        ),
                        None => {}
                    }
                }
                next_index = index.wrapping_add(1);
                let mut index_span = v.ident.span();
                if let Some(i) = &va.index {
                    if ca.index.is_none() {
                        errors.at(
                            i.span,
                            "`index = N` on a variant needs `#[codec(index)]` on the enum",
                        );
                    }
                    index = i.value;
                    index_span = i.span;
                }
                if ca.index.is_some() && indices.insert(index, index_span).is_some() {
                    errors.at(index_span, format!("duplicate variant index {index}"));
                }
                let toarray = va.toarray;
                let mut body = fields(
                    &v.fields,
                    va.rename_all.as_ref(),
                    va.omitempty,
                    toarray,
                    true,
                    &mut errors,
                );
                if toarray.is_some() {
                    body.toarray = true;
                }
                variants.push(Variant {
                    ident: v.ident.clone(),
                    name,
                    index,
                    body,
                });
            }
            Some(Body::Enum(Enum {
                index: ca.index.is_some(),
                variants,
            }))
        }
    };
    errors.finish()?;
    match body {
        Some(body) => Ok(Container {
            ident: input.ident.clone(),
            generics: input.generics.clone(),
            krate,
            encode_bound: eb,
            decode_bound: db,
            body,
            ext: ca.ext.as_ref().map(|e| e.value),
        }),
        None => Err(syn::Error::new(Span::call_site(), "unreachable: no body")),
    }
}

fn discriminant(expr: &Expr) -> Option<i64> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse().ok(),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => discriminant(expr).map(|n| -n),
        Expr::Group(g) => discriminant(&g.expr),
        Expr::Paren(p) => discriminant(&p.expr),
        _ => None,
    }
}

/// The fields of a struct or variant; `rename_all`, `omit_all` and
/// `toarray` are the struct's or variant's own attributes, which only
/// fields with names can follow.
fn fields(
    fs: &Fields,
    rename_all: Option<&Spanned_<RenameRule>>,
    omit_all: Option<Span>,
    toarray: Option<Span>,
    in_variant: bool,
    errors: &mut Errors,
) -> Struct {
    let style = match fs {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    if style != Style::Named {
        // Without field names there is nothing for these to act on: an
        // array (or the single value, or nil) is written whole, unnamed.
        let what = if in_variant { "variants" } else { "structs" };
        if let Some(sp) = toarray {
            errors.at(
                sp,
                format!("`toarray` applies to {what} with named fields (this one has no field names to drop)"),
            );
        }
        if let Some(r) = rename_all {
            errors.at(
                r.span,
                format!("`rename_all` applies to {what} with named fields (this one has no field names to rename)"),
            );
        }
        if let Some(sp) = omit_all {
            errors.at(
                sp,
                format!("`omitempty` applies to {what} with named fields (only map entries can be left out)"),
            );
        }
    }
    let rename_all = rename_all.map(|r| r.value);
    let omit_all = omit_all.is_some();
    let mut out = Vec::new();
    let mut names: HashMap<String, ()> = HashMap::new();
    let mut keys: HashMap<i64, ()> = HashMap::new();
    let mut rest_seen = false;
    for (i, f) in fs.iter().enumerate() {
        let fa = attr::field(&f.attrs, errors);
        let member = match &f.ident {
            Some(id) => Member::Named(id.clone()),
            None => Member::Unnamed(i.into()),
        };
        let raw = match &f.ident {
            Some(id) => {
                let s = id.to_string();
                s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
            }
            None => i.to_string(),
        };
        let named = style == Style::Named;
        // Attributes that only make sense on named fields.
        let named_only = [
            ("rename", fa.rename.as_ref().map(|r| r.span)),
            ("key", fa.key.as_ref().map(|k| k.span)),
            ("flatten", fa.flatten),
            ("rest", fa.rest),
            ("omitempty", fa.omitempty),
        ];
        if !named {
            for (n, sp) in named_only {
                if let Some(sp) = sp {
                    errors.at(sp, format!("`{n}` applies to named fields only"));
                }
            }
        }
        if style == Style::Newtype
            && let Some(sp) = fa.skip
        {
            errors.at(sp, "cannot `skip` the only field of a newtype");
        }
        if in_variant {
            for (n, sp) in [("flatten", fa.flatten), ("rest", fa.rest)] {
                if let Some(sp) = sp {
                    errors.at(sp, format!("`{n}` is not supported in enum variants"));
                }
            }
        }
        if let Some(sp) = fa.flatten {
            let conflicts = [
                ("rename", fa.rename.as_ref().map(|r| r.span)),
                ("key", fa.key.as_ref().map(|k| k.span)),
                ("skip", fa.skip),
                ("omitempty", fa.omitempty),
                ("default", fa.default.as_ref().map(|d| d.span)),
                ("rest", fa.rest),
                ("with", fa.with.as_ref().map(|w| w.span)),
            ];
            for (n, csp) in conflicts {
                if let Some(csp) = csp {
                    errors.at(csp, format!("`{n}` cannot be combined with `flatten`: the inner struct's fields are inlined"));
                }
            }
            let _ = sp;
        }
        if let Some(sp) = fa.rest {
            if rest_seen {
                errors.at(sp, "only one field can be `rest`");
            }
            rest_seen = true;
            let conflicts = [
                ("rename", fa.rename.as_ref().map(|r| r.span)),
                ("key", fa.key.as_ref().map(|k| k.span)),
                ("skip", fa.skip),
                ("omitempty", fa.omitempty),
                ("default", fa.default.as_ref().map(|d| d.span)),
                ("with", fa.with.as_ref().map(|w| w.span)),
            ];
            for (n, csp) in conflicts {
                if let Some(csp) = csp {
                    errors.at(csp, format!("`{n}` cannot be combined with `rest`"));
                }
            }
        }
        if let (Some(sp), Some(k)) = (fa.rename.as_ref().map(|r| r.span), &fa.key) {
            let _ = sp;
            errors.at(
                k.span,
                "`key` and `rename` conflict: a field has an integer key or a name, not both",
            );
        }
        if let (Some(w), Some(o)) = (&fa.with, fa.omitempty) {
            let _ = w;
            errors.at(
                o,
                "`omitempty` cannot be combined with `with` (the field's emptiness is unknown)",
            );
        }
        if let Some(sp) = fa.skip {
            for (n, csp) in [
                ("rename", fa.rename.as_ref().map(|r| r.span)),
                ("key", fa.key.as_ref().map(|k| k.span)),
                ("omitempty", fa.omitempty),
                ("with", fa.with.as_ref().map(|w| w.span)),
            ] {
                if let Some(csp) = csp {
                    errors.at(csp, format!("`{n}` has no effect on a `skip` field"));
                }
            }
            let _ = sp;
        }
        let name = match (&fa.rename, rename_all) {
            (Some(r), _) => r.value.clone(),
            (None, Some(rule)) if named => rule.apply_to_field(&raw),
            _ => raw,
        };
        let plain = fa.skip.is_none() && fa.flatten.is_none() && fa.rest.is_none();
        if named && plain {
            if let Some(k) = &fa.key {
                if keys.insert(k.value, ()).is_some() {
                    errors.at(k.span, format!("duplicate key {}", k.value));
                }
            } else if names.insert(name.clone(), ()).is_some() {
                let sp = fa.rename.as_ref().map_or(f.span(), |r| r.span);
                errors.at(sp, format!("duplicate field name {name:?}"));
            }
        }
        out.push(Field {
            member,
            ty: f.ty.clone(),
            name,
            key: fa.key.as_ref().map(|k| k.value),
            skip: fa.skip.is_some(),
            omitempty: fa.omitempty.is_some() || (omit_all && fa.with.is_none()),
            default: fa.default.map(|d| d.value),
            flatten: fa.flatten.is_some(),
            rest: fa.rest.is_some(),
            with: fa.with.map(|w| w.value),
            special_span: fa.flatten.or(fa.rest),
        });
    }
    // Integer keys: all plain fields or none.
    let with_key = out.iter().filter(|f| f.plain() && f.key.is_some()).count();
    let plain = out.iter().filter(|f| f.plain()).count();
    let int_keys = with_key > 0 && style == Style::Named;
    if int_keys && with_key != plain {
        for (f, src) in out.iter().zip(fs.iter()) {
            if f.plain() && f.key.is_none() {
                errors.at(
                    src.span(),
                    "this field has no `key = N` but others do: give every field an integer key, or none",
                );
            }
        }
    }
    if int_keys {
        for (f, src) in out.iter().zip(fs.iter()) {
            if f.flatten || f.rest {
                errors.at(
                    f.special_span.unwrap_or_else(|| src.span()),
                    "`flatten` and `rest` need string keys: they cannot be used with `key = N`",
                );
            }
        }
    }
    Struct {
        style,
        fields: out,
        toarray: toarray.is_some(),
        int_keys,
    }
}

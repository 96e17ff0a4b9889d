//! Parsing of `#[codec(...)]` attributes on the container, variants and fields.
//!
//! Each parser records what it saw together with the span of the attribute, so
//! the model can point a misuse at the attribute that caused it.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitInt, LitStr, Path, Token, WherePredicate, punctuated::Punctuated};

/// Collects errors so that one expansion reports every misuse at once.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Records an error at `span`.
    pub fn at(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.push(syn::Error::new(span, msg));
    }
    /// Records an error.
    pub fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }
    /// The combined error, if any was recorded.
    pub fn finish(self) -> Result<(), syn::Error> {
        self.0.map_or(Ok(()), Err)
    }
}

/// A value with the span of the attribute that set it.
#[derive(Clone)]
pub struct Spanned_<T> {
    pub value: T,
    pub span: Span,
}

/// One `rename_all` rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
}

impl RenameRule {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            _ => return None,
        })
    }

    /// Applies the rule to a field name (written in snake_case in Rust).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal | RenameRule::Camel => {
                let mut out = String::new();
                let mut upper = self == RenameRule::Pascal;
                for c in field.chars() {
                    if c == '_' && !out.is_empty() {
                        upper = true;
                    } else if upper {
                        out.extend(c.to_uppercase());
                        upper = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            RenameRule::Kebab => field.replace('_', "-"),
        }
    }

    /// Applies the rule to a variant name (written in PascalCase in Rust).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut cs = variant.chars();
                match cs.next() {
                    Some(f) => f.to_lowercase().chain(cs).collect(),
                    None => String::new(),
                }
            }
            RenameRule::Snake | RenameRule::ScreamingSnake | RenameRule::Kebab => {
                let sep = if self == RenameRule::Kebab { '-' } else { '_' };
                let mut out = String::new();
                for (i, c) in variant.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        out.push(sep);
                    }
                    out.push(c);
                }
                if self == RenameRule::ScreamingSnake {
                    out.to_ascii_uppercase()
                } else {
                    out.to_ascii_lowercase()
                }
            }
        }
    }
}

/// `default` or `default = "path"`.
#[derive(Clone)]
pub enum DefaultAttr {
    Trait,
    Path(Path),
}

/// Attributes on the struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    pub krate: Option<Spanned_<Path>>,
    pub rename_all: Option<Spanned_<RenameRule>>,
    pub omitempty: Option<Span>,
    pub toarray: Option<Span>,
    pub index: Option<Span>,
    pub bound: Option<Spanned_<Vec<WherePredicate>>>,
    pub encode_bound: Option<Spanned_<Vec<WherePredicate>>>,
    pub decode_bound: Option<Spanned_<Vec<WherePredicate>>>,
    pub ext: Option<Spanned_<u64>>,
}

/// Attributes on an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Option<Spanned_<String>>,
    pub rename_all: Option<Spanned_<RenameRule>>,
    pub index: Option<Spanned_<i64>>,
    pub toarray: Option<Span>,
    pub omitempty: Option<Span>,
}

/// Attributes on a field.
#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Option<Spanned_<String>>,
    pub skip: Option<Span>,
    pub omitempty: Option<Span>,
    pub key: Option<Spanned_<i64>>,
    pub default: Option<Spanned_<DefaultAttr>>,
    pub flatten: Option<Span>,
    pub rest: Option<Span>,
    pub with: Option<Spanned_<Path>>,
}

fn set<T>(slot: &mut Option<T>, v: T, meta: &ParseNestedMeta<'_>, name: &str) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!("duplicate `{name}` attribute")));
    }
    *slot = Some(v);
    Ok(())
}

fn lit_str(meta: &ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    let v = meta.value()?;
    v.parse::<LitStr>()
}

fn lit_i64(meta: &ParseNestedMeta<'_>) -> syn::Result<(i64, Span)> {
    let v = meta.value()?;
    let neg: Option<Token![-]> = v.parse()?;
    let lit: LitInt = v.parse()?;
    let n: i64 = if neg.is_some() {
        format!("-{}", lit.base10_digits())
            .parse()
            .map_err(|_| syn::Error::new(lit.span(), "integer out of range for i64"))?
    } else {
        lit.base10_parse()?
    };
    Ok((n, lit.span()))
}

fn rename_rule(meta: &ParseNestedMeta<'_>) -> syn::Result<Spanned_<RenameRule>> {
    let s = lit_str(meta)?;
    match RenameRule::parse(&s.value()) {
        Some(r) => Ok(Spanned_ {
            value: r,
            span: s.span(),
        }),
        None => Err(syn::Error::new(
            s.span(),
            "unknown rename_all rule: expected one of \"lowercase\", \"UPPERCASE\", \"PascalCase\", \
             \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\"",
        )),
    }
}

fn path_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Spanned_<Path>> {
    let s = lit_str(meta)?;
    let p: Path = s.parse()?;
    Ok(Spanned_ {
        value: p,
        span: s.span(),
    })
}

fn bounds(meta: &ParseNestedMeta<'_>) -> syn::Result<Spanned_<Vec<WherePredicate>>> {
    let s = lit_str(meta)?;
    let preds = s.parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated)?;
    Ok(Spanned_ {
        value: preds.into_iter().collect(),
        span: s.span(),
    })
}

fn each_codec_attr(
    attrs: &[Attribute],
    errors: &mut Errors,
    mut f: impl FnMut(&ParseNestedMeta<'_>, &str) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("codec")) {
        let r = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            f(&meta, &name)
        });
        if let Err(e) = r {
            errors.push(e);
        }
    }
}

/// Parses the container's attributes.
pub fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut a = ContainerAttrs::default();
    each_codec_attr(attrs, errors, |meta, name| {
        let span = meta.path.span();
        match name {
            "crate" => set(&mut a.krate, path_value(meta)?, meta, name),
            "rename_all" => set(&mut a.rename_all, rename_rule(meta)?, meta, name),
            "omitempty" => set(&mut a.omitempty, span, meta, name),
            "toarray" => set(&mut a.toarray, span, meta, name),
            "index" => set(&mut a.index, span, meta, name),
            "bound" => set(&mut a.bound, bounds(meta)?, meta, name),
            "encode_bound" => set(&mut a.encode_bound, bounds(meta)?, meta, name),
            "decode_bound" => set(&mut a.decode_bound, bounds(meta)?, meta, name),
            "ext" => {
                let (n, span) = lit_i64(meta)?;
                let n = u64::try_from(n)
                    .map_err(|_| syn::Error::new(span, "an extension tag cannot be negative"))?;
                set(&mut a.ext, Spanned_ { value: n, span }, meta, name)
            }
            _ => Err(meta.error(
                "unknown codec container attribute: expected one of `crate`, `rename_all`, \
                 `omitempty`, `toarray`, `index`, `bound`, `encode_bound`, `decode_bound`, `ext`",
            )),
        }
    });
    a
}

/// Parses a variant's attributes.
pub fn variant(attrs: &[Attribute], errors: &mut Errors) -> VariantAttrs {
    let mut a = VariantAttrs::default();
    each_codec_attr(attrs, errors, |meta, name| {
        let span = meta.path.span();
        match name {
            "rename" => {
                let s = lit_str(meta)?;
                let v = Spanned_ {
                    value: s.value(),
                    span: s.span(),
                };
                set(&mut a.rename, v, meta, name)
            }
            "rename_all" => set(&mut a.rename_all, rename_rule(meta)?, meta, name),
            "index" => {
                let (n, span) = lit_i64(meta)?;
                set(&mut a.index, Spanned_ { value: n, span }, meta, name)
            }
            "toarray" => set(&mut a.toarray, span, meta, name),
            "omitempty" => set(&mut a.omitempty, span, meta, name),
            _ => Err(meta.error(
                "unknown codec variant attribute: expected one of `rename`, `rename_all`, \
                 `index`, `toarray`, `omitempty`",
            )),
        }
    });
    a
}

/// Parses a field's attributes.
pub fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut a = FieldAttrs::default();
    each_codec_attr(attrs, errors, |meta, name| {
        let span = meta.path.span();
        match name {
            "rename" => {
                let s = lit_str(meta)?;
                let v = Spanned_ {
                    value: s.value(),
                    span: s.span(),
                };
                set(&mut a.rename, v, meta, name)
            }
            "skip" => set(&mut a.skip, span, meta, name),
            "omitempty" => set(&mut a.omitempty, span, meta, name),
            "key" => {
                let (n, _) = lit_i64(meta)?;
                set(&mut a.key, Spanned_ { value: n, span }, meta, name)
            }
            "default" => {
                let v = if meta.input.peek(Token![=]) {
                    let p = path_value(meta)?;
                    Spanned_ {
                        value: DefaultAttr::Path(p.value),
                        span: p.span,
                    }
                } else {
                    Spanned_ {
                        value: DefaultAttr::Trait,
                        span,
                    }
                };
                set(&mut a.default, v, meta, name)
            }
            "flatten" => set(&mut a.flatten, span, meta, name),
            "rest" => set(&mut a.rest, span, meta, name),
            "with" => set(&mut a.with, path_value(meta)?, meta, name),
            _ => Err(meta.error(
                "unknown codec field attribute: expected one of `rename`, `skip`, `omitempty`, \
                 `key`, `default`, `flatten`, `rest`, `with`",
            )),
        }
    });
    a
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn field_rules() {
        assert_eq!(Camel.apply_to_field("user_id_2"), "userId2");
        assert_eq!(Pascal.apply_to_field("user_id"), "UserId");
        assert_eq!(Kebab.apply_to_field("user_id"), "user-id");
        assert_eq!(ScreamingSnake.apply_to_field("user_id"), "USER_ID");
        assert_eq!(Upper.apply_to_field("user_id"), "USER_ID");
        assert_eq!(Lower.apply_to_field("user_id"), "user_id");
        assert_eq!(Snake.apply_to_field("user_id"), "user_id");
    }

    #[test]
    fn variant_rules() {
        assert_eq!(Snake.apply_to_variant("VeryTasty"), "very_tasty");
        assert_eq!(Kebab.apply_to_variant("VeryTasty"), "very-tasty");
        assert_eq!(ScreamingSnake.apply_to_variant("VeryTasty"), "VERY_TASTY");
        assert_eq!(Camel.apply_to_variant("VeryTasty"), "veryTasty");
        assert_eq!(Lower.apply_to_variant("VeryTasty"), "verytasty");
        assert_eq!(Upper.apply_to_variant("VeryTasty"), "VERYTASTY");
        assert_eq!(Pascal.apply_to_variant("VeryTasty"), "VeryTasty");
    }
}

//! [`Encode`](crate::Encode) and [`Decode`](crate::Decode) for the standard library's types.

mod collections;
mod datetime;
mod primitives;
mod strings;
mod wrappers;

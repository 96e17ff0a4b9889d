//! [`JsonStream`]: several JSON texts from one input (JSON Lines, concatenated JSON).

use crate::JsonDecoder;
use codec_core::{Decode, Decoder, Read, Result};
use std::marker::PhantomData;

/// An iterator over the JSON texts of one input, each decoded into a `T`.
///
/// Texts are separated by optional whitespace (a newline for JSON Lines).
/// Iteration ends at the end of input; after the first error it yields that
/// error and then ends (the position inside a broken text is unknown).
/// Made by [`JsonHandle::stream_slice`](crate::JsonHandle::stream_slice) and
/// [`JsonHandle::stream_reader`](crate::JsonHandle::stream_reader).
pub struct JsonStream<'de, R: Read<'de>, T> {
    dec: Decoder<'de, R, JsonDecoder>,
    done: bool,
    _t: PhantomData<fn() -> T>,
}

impl<'de, R: Read<'de>, T: Decode<'de>> JsonStream<'de, R, T> {
    /// Streams the texts read by `dec`.
    pub fn new(dec: Decoder<'de, R, JsonDecoder>) -> Self {
        JsonStream {
            dec,
            done: false,
            _t: PhantomData,
        }
    }

    /// Offset of the next unread byte (after the last text decoded).
    pub fn offset(&self) -> u64 {
        self.dec.offset()
    }

    /// Returns the decoder (and through it the reader).
    pub fn into_decoder(self) -> Decoder<'de, R, JsonDecoder> {
        self.dec
    }
}

impl<'de, R: Read<'de>, T: Decode<'de>> Iterator for JsonStream<'de, R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.done {
            return None;
        }
        match self.dec.at_end() {
            Ok(true) => {
                self.done = true;
                return None;
            }
            Ok(false) => {}
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        }
        self.dec.reset_for_next();
        let v = self.dec.decode::<T>();
        if v.is_err() {
            self.done = true;
        }
        Some(v)
    }
}

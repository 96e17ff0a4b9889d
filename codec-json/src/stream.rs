//! [`JsonStream`]: several JSON texts from one input (JSON Lines, concatenated JSON).

use crate::JsonDecoder;
use codec_core::{Decode, Decoder, Read, Result};
use std::marker::PhantomData;

/// An iterator over the JSON texts of one input, each decoded into a `T`.
///
/// Texts are separated by optional whitespace (a newline for JSON Lines).
/// A text that does not end itself (a number, `true`, `false`, `null`)
/// must be followed by whitespace, the end of the input, or a byte that
/// starts or ends a self-delimiting token (`[`, `]`, `{`, `}`, `"`, `,`,
/// `:`), as serde_json's `StreamDeserializer` requires: `01` is an error,
/// not `0` then `1`, and so are `1-2` and `truefalse`.
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

impl<'de, R: Read<'de>, T: Decode<'de>> JsonStream<'de, R, T> {
    /// Decodes the next text (whitespace before it already skipped) and
    /// checks what follows it: a number or a literal must be followed by
    /// whitespace, a delimiter or the end (the decoder's `at_end`).
    fn decode_delimited(&mut self) -> Result<T> {
        let v = self.dec.decode::<T>()?;
        self.dec.at_end()?;
        Ok(v)
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
                return Some(Err(self.dec.locate(e)));
            }
        }
        self.dec.reset_for_next();
        let v = self.decode_delimited();
        if v.is_err() {
            self.done = true;
        }
        Some(v.map_err(|e| self.dec.locate(e)))
    }
}

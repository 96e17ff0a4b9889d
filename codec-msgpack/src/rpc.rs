//! MessagePack-RPC: request, response and notification frames over any
//! [`std::io::Read`] / [`std::io::Write`], like ugorji's `MsgpackSpecRpc`.
//!
//! The [MessagePack-RPC spec] sends each message as one msgpack array, back
//! to back, with no length prefix:
//!
//! | message | frame |
//! |---|---|
//! | request | `[0, msgid, method, [params...]]` |
//! | response | `[1, msgid, error, result]` (`error` is nil on success) |
//! | notification | `[2, method, [params...]]` |
//!
//! `msgid` is an unsigned 32-bit integer chosen by the caller and echoed in
//! the response. The layers, from the bytes up:
//!
//! - [`Message`]: one frame, with hand-written [`Encode`] / [`Decode`] impls
//!   that validate strictly (array length, type code, msgid range, method
//!   type, params type): a bad frame is an ordinary [`codec_core::Error`]
//!   naming the part (`.type`, `.msgid`, `.method`, `.params`) and its byte
//!   offset in the stream, never a panic.
//! - [`RpcReader`] / [`RpcWriter`]: read one frame at a time from a stream
//!   (through an `IoReader`-backed [`codec_core::Decoder`]), and write frames
//!   with typed parameters and results, one `write_all` and one flush per
//!   message. [`Connection`] pairs them.
//! - [`Client`]: `call` (typed parameters in, typed result out, matching
//!   msgids) and `notify`. [`Server`]: a dispatch loop over a closure
//!   `FnMut(&str, Vec<Value>) -> Result<Value, Value>`. A handler reads a
//!   typed parameter with [`codec_core::from_value_in`] and the
//!   connection's handle ([`RpcReader::handle`]), as `call` reads its
//!   result, so that an extension in it reads as it would from the frame.
//!
//! ```
//! use codec_core::Value;
//! use codec_msgpack::rpc::{Client, Connection, Message, Server};
//!
//! // A request as bytes: [0, 1, "add", [2, 3]].
//! let bytes = codec_core::to_vec(
//!     &Message::request(1, "add", vec![Value::Int(2), Value::Int(3)]),
//!     &codec_msgpack::MsgpackHandle::default(),
//! )?;
//! assert_eq!(bytes, [0x94, 0x00, 0x01, 0xa3, b'a', b'd', b'd', 0x92, 0x02, 0x03]);
//!
//! // A server answering from that stream into a buffer...
//! let mut server = Server::new(Connection::new(&bytes[..], Vec::new()));
//! let served = server.serve(|method, params| match (method, params.as_slice()) {
//!     ("add", [a, b]) => Ok(Value::Int(a.as_i64().unwrap_or(0) + b.as_i64().unwrap_or(0))),
//!     _ => Err(Value::from("no such method")),
//! })?;
//! assert_eq!(served, 1);
//! let reply = server.into_connection().into_parts().1.into_inner();
//! assert_eq!(reply, [0x94, 0x01, 0x01, 0xc0, 0x05]); // [1, 1, nil, 5]
//!
//! // ...and a client reading that reply.
//! let mut client = Client::new(Connection::new(&reply[..], Vec::new()));
//! let sum: i64 = client.call("add", &(2, 3))?;
//! assert_eq!(sum, 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## How it compares with ugorji's `MsgpackSpecRpc`
//!
//! - The same frames and bytes for requests and responses: `94 00 <msgid>
//!   <method> <params>` and `94 01 <msgid> <error> <result>`, with msgid
//!   written in the smallest unsigned form.
//! - **Notifications are supported** here (ugorji refuses type 2).
//! - Parameters: a value that encodes as a msgpack array (a tuple, `Vec`,
//!   slice, fixed array) *is* the parameter list, as ugorji's
//!   `MsgpackSpecRpcMultiArgs`; any other value (a struct, a string, a
//!   number) is sent as the single parameter `[value]`, as ugorji's default
//!   `MsgpackSpecRpc` wraps its one argument. Send [`NO_PARAMS`] for none.
//! - ugorji's header reader insists on a fixarray-4 first byte (`94`); here
//!   any msgpack array header with the right count is accepted (`dc 00 04`
//!   is the same array), and a notification is a fixarray-3.
//! - The error slot is any value here; ugorji writes a Go error as its
//!   message string. A handler returning `Err(Value::Nil)` produces a frame
//!   that reads as success with a nil result; return a non-nil error value.
//!
//! [MessagePack-RPC spec]: https://github.com/msgpack-rpc/msgpack-rpc/blob/master/spec.md

use crate::{MsgpackDecoder, MsgpackHandle};
use codec_core::{
    Decode, DecodeFormat, DecodeOwned, Decoder, Encode, EncodeFormat, Encoder, Error, ErrorKind,
    Handle, IoReader, Kind, Read, Result, Value, Write,
};
use std::collections::VecDeque;
use std::fmt;
use std::net::TcpStream;

/// Type code of a request frame: `[0, msgid, method, params]`.
pub const REQUEST: u8 = 0;
/// Type code of a response frame: `[1, msgid, error, result]`.
pub const RESPONSE: u8 = 1;
/// Type code of a notification frame: `[2, method, params]`.
pub const NOTIFICATION: u8 = 2;

/// An empty parameter list (`[]` on the wire), for calls without parameters.
pub const NO_PARAMS: &[Value] = &[];

/// One MessagePack-RPC message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// A call that expects a [`Message::Response`] with the same `msgid`.
    Request {
        /// Chosen by the caller, echoed by the response.
        msgid: u32,
        /// The method name.
        method: String,
        /// The parameters.
        params: Vec<Value>,
    },
    /// The answer to the request with the same `msgid`.
    Response {
        /// The msgid of the request answered.
        msgid: u32,
        /// Nil on success, otherwise the error (then `result` is usually nil).
        error: Value,
        /// The result (nil when `error` is set).
        result: Value,
    },
    /// A call that expects no answer.
    Notification {
        /// The method name.
        method: String,
        /// The parameters.
        params: Vec<Value>,
    },
}

impl Message {
    /// A request.
    pub fn request(msgid: u32, method: impl Into<String>, params: Vec<Value>) -> Self {
        Message::Request {
            msgid,
            method: method.into(),
            params,
        }
    }

    /// A successful response: error nil.
    pub fn response_ok(msgid: u32, result: Value) -> Self {
        Message::Response {
            msgid,
            error: Value::Nil,
            result,
        }
    }

    /// A failed response: result nil.
    pub fn response_err(msgid: u32, error: Value) -> Self {
        Message::Response {
            msgid,
            error,
            result: Value::Nil,
        }
    }

    /// A notification.
    pub fn notification(method: impl Into<String>, params: Vec<Value>) -> Self {
        Message::Notification {
            method: method.into(),
            params,
        }
    }

    /// The type code on the wire: [`REQUEST`], [`RESPONSE`] or [`NOTIFICATION`].
    pub fn type_code(&self) -> u8 {
        match self {
            Message::Request { .. } => REQUEST,
            Message::Response { .. } => RESPONSE,
            Message::Notification { .. } => NOTIFICATION,
        }
    }

    /// The msgid of a request or response.
    pub fn msgid(&self) -> Option<u32> {
        match self {
            Message::Request { msgid, .. } | Message::Response { msgid, .. } => Some(*msgid),
            Message::Notification { .. } => None,
        }
    }

    /// The method of a request or notification.
    pub fn method(&self) -> Option<&str> {
        match self {
            Message::Request { method, .. } | Message::Notification { method, .. } => Some(method),
            Message::Response { .. } => None,
        }
    }

    /// A response's outcome: `Ok(result)` when `error` is nil, else `Err(error)`.
    pub fn into_result(self) -> Option<std::result::Result<Value, Value>> {
        match self {
            Message::Response { error, result, .. } => Some(if error.is_nil() {
                Ok(result)
            } else {
                Err(error)
            }),
            _ => None,
        }
    }
}

/// Writes the items of a request before its params: `[0, msgid, method, `.
fn request_head<W: Write, F: EncodeFormat>(
    e: &mut Encoder<W, F>,
    msgid: u32,
    method: &str,
) -> Result<()> {
    e.array_start(4)?;
    e.array_elem(0)?;
    e.encode_u64(u64::from(REQUEST))?;
    e.array_elem(1)?;
    e.encode_u64(u64::from(msgid))?;
    e.array_elem(2)?;
    e.encode_str(method)?;
    e.array_elem(3)
}

/// Writes the items of a notification before its params: `[2, method, `.
fn notification_head<W: Write, F: EncodeFormat>(e: &mut Encoder<W, F>, method: &str) -> Result<()> {
    e.array_start(3)?;
    e.array_elem(0)?;
    e.encode_u64(u64::from(NOTIFICATION))?;
    e.array_elem(1)?;
    e.encode_str(method)?;
    e.array_elem(2)
}

/// Writes a whole response frame.
fn response<W: Write, F: EncodeFormat, E: Encode + ?Sized, T: Encode + ?Sized>(
    e: &mut Encoder<W, F>,
    msgid: u32,
    error: &E,
    result: &T,
) -> Result<()> {
    e.array_start(4)?;
    e.array_elem(0)?;
    e.encode_u64(u64::from(RESPONSE))?;
    e.array_elem(1)?;
    e.encode_u64(u64::from(msgid))?;
    e.array_elem(2)?;
    error.encode(e)?;
    e.array_elem(3)?;
    result.encode(e)?;
    e.array_end(4)
}

impl Encode for Message {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        match self {
            Message::Request {
                msgid,
                method,
                params,
            } => {
                request_head(e, *msgid, method)?;
                params.encode(e)?;
                e.array_end(4)
            }
            Message::Response {
                msgid,
                error,
                result,
            } => response(e, *msgid, error, result),
            Message::Notification { method, params } => {
                notification_head(e, method)?;
                params.encode(e)?;
                e.array_end(3)
            }
        }
    }
}

/// Moves to the next item of a frame that must have `len` items.
fn next_item<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    seq: &mut codec_core::Seq,
    len: usize,
) -> Result<()> {
    let found = seq.index;
    if d.array_next(seq)? {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::InvalidLength {
            expected: len,
            found,
        })
        .at(d.offset()))
    }
}

/// Reads the type code: an integer 0, 1 or 2.
fn read_type<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<u8> {
    let off = d.offset();
    let kind = d.peek_kind()?;
    if !matches!(kind, Kind::Int | Kind::Uint) {
        return Err(Error::type_mismatch("msgpack-rpc type code (0, 1 or 2)", kind).at(off));
    }
    let code = d.decode_i128()?;
    match u8::try_from(code) {
        Ok(c @ (REQUEST | RESPONSE | NOTIFICATION)) => Ok(c),
        _ => Err(Error::syntax(format!(
            "unknown msgpack-rpc message type {code} (expected 0 = request, 1 = response, 2 = notification)"
        ))
        .at(off)),
    }
}

/// Reads a msgid: an integer in `0..=u32::MAX`.
fn read_msgid<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<u32> {
    let off = d.offset();
    let kind = d.peek_kind()?;
    if !matches!(kind, Kind::Int | Kind::Uint) {
        return Err(Error::type_mismatch("msgpack-rpc msgid (u32)", kind).at(off));
    }
    let id = d.decode_i128()?;
    u32::try_from(id).map_err(|_| Error::out_of_range("msgpack-rpc msgid (u32)", id).at(off))
}

/// Reads a method name: a text string (a UTF-8 byte string is accepted, as
/// the msgpack handle accepts one wherever text is expected).
fn read_method<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<String> {
    d.decode_string()
}

/// Reads a parameter list: an array (nil is refused: the spec says array).
fn read_params<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
) -> Result<Vec<Value>> {
    let off = d.offset();
    let kind = d.peek_kind()?;
    if kind != Kind::Array {
        return Err(Error::type_mismatch("msgpack-rpc params (an array)", kind).at(off));
    }
    d.decode()
}

impl<'de> Decode<'de> for Message {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let off = d.offset();
        let kind = d.peek_kind()?;
        if kind != Kind::Array {
            return Err(Error::type_mismatch("msgpack-rpc message (an array)", kind).at(off));
        }
        let mut seq = d.array_begin()?;
        if let Some(n) = seq.len
            && n != 3
            && n != 4
        {
            return Err(Error::syntax(format!(
                "a msgpack-rpc message is an array of 3 or 4 items, found {n}"
            ))
            .at(off));
        }
        next_item(d, &mut seq, 3)?;
        let code = read_type(d).map_err(|e| e.in_field("type"))?;
        let len = if code == NOTIFICATION { 3 } else { 4 };
        if let Some(n) = seq.len
            && n != len
        {
            return Err(Error::new(ErrorKind::InvalidLength {
                expected: len,
                found: n,
            })
            .at(off));
        }
        let msg = match code {
            REQUEST => {
                next_item(d, &mut seq, len)?;
                let msgid = read_msgid(d).map_err(|e| e.in_field("msgid"))?;
                next_item(d, &mut seq, len)?;
                let method = read_method(d).map_err(|e| e.in_field("method"))?;
                next_item(d, &mut seq, len)?;
                let params = read_params(d).map_err(|e| e.in_field("params"))?;
                Message::Request {
                    msgid,
                    method,
                    params,
                }
            }
            RESPONSE => {
                next_item(d, &mut seq, len)?;
                let msgid = read_msgid(d).map_err(|e| e.in_field("msgid"))?;
                next_item(d, &mut seq, len)?;
                let error = Value::decode(d).map_err(|e| e.in_field("error"))?;
                next_item(d, &mut seq, len)?;
                let result = Value::decode(d).map_err(|e| e.in_field("result"))?;
                Message::Response {
                    msgid,
                    error,
                    result,
                }
            }
            _ => {
                next_item(d, &mut seq, len)?;
                let method = read_method(d).map_err(|e| e.in_field("method"))?;
                next_item(d, &mut seq, len)?;
                let params = read_params(d).map_err(|e| e.in_field("params"))?;
                Message::Notification { method, params }
            }
        };
        // A delimited array (another format) must end here too.
        if d.array_next(&mut seq)? {
            return Err(Error::new(ErrorKind::InvalidLength {
                expected: len,
                found: seq.len.unwrap_or(seq.index),
            })
            .at(d.offset()));
        }
        d.array_end(seq)?;
        Ok(msg)
    }
}

/// Whether `b` begins a msgpack array header (fixarray, array16, array32).
#[inline]
fn is_array_header(b: Option<&u8>) -> bool {
    matches!(b, Some(0x90..=0x9f | 0xdc | 0xdd))
}

/// Reads MessagePack-RPC messages from a byte stream, one frame at a time.
///
/// After an error the stream position is inside the bad frame: there is no
/// length prefix to resynchronise on, so drop the connection.
pub struct RpcReader<R: std::io::Read> {
    dec: Decoder<'static, IoReader<R>, MsgpackDecoder>,
    /// The handle the frames are read with, to read a `Value` of one (an
    /// extension's content) as the frame would be read.
    h: MsgpackHandle,
}

impl<R: std::io::Read> RpcReader<R> {
    /// Reads from `r` with the default [`MsgpackHandle`].
    pub fn new(r: R) -> Self {
        Self::with_handle(r, &MsgpackHandle::default())
    }

    /// Reads from `r` with `h`'s options (for example tighter decode limits).
    pub fn with_handle(r: R, h: &MsgpackHandle) -> Self {
        RpcReader {
            dec: h.io_decoder(r),
            h: h.clone(),
        }
    }

    /// Reads the next message: `Ok(None)` when the stream ends cleanly
    /// between messages, an error when it ends inside one or the frame is
    /// not a valid MessagePack-RPC message. Blocks until a message (or the
    /// end) arrives.
    pub fn read_message(&mut self) -> Result<Option<Message>> {
        self.dec.reset_for_next();
        if self.dec.at_end()? {
            return Ok(None);
        }
        Message::decode(&mut self.dec).map(Some)
    }

    /// Bytes consumed from the stream so far.
    pub fn offset(&self) -> u64 {
        self.dec.offset()
    }

    /// The handle the frames are read with: pass it to
    /// [`codec_core::from_value_in`] to read a typed value from a
    /// message's [`Value`] as it would read from the frame.
    pub fn handle(&self) -> &MsgpackHandle {
        &self.h
    }

    /// Returns the inner reader; bytes read ahead into the buffer are lost.
    pub fn into_inner(self) -> R {
        self.dec.into_reader().into_inner()
    }
}

impl<R: std::io::Read> fmt::Debug for RpcReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RpcReader")
            .field("offset", &self.offset())
            .finish_non_exhaustive()
    }
}

/// Writes MessagePack-RPC messages to a byte stream.
///
/// Each message is encoded into a reused buffer, then written with one
/// `write_all` and flushed, so a frame never sits half-sent in a buffer.
pub struct RpcWriter<W: std::io::Write> {
    w: W,
    h: MsgpackHandle,
    buf: Vec<u8>,
    params: Vec<u8>,
}

impl<W: std::io::Write> RpcWriter<W> {
    /// Writes to `w` with the default [`MsgpackHandle`] (current spec: str8, bin).
    pub fn new(w: W) -> Self {
        Self::with_handle(w, &MsgpackHandle::default())
    }

    /// Writes to `w` with `h`'s options (`write_ext(false)` for peers that
    /// only know the old "raw" spec).
    pub fn with_handle(w: W, h: &MsgpackHandle) -> Self {
        RpcWriter {
            w,
            h: h.clone(),
            buf: Vec::with_capacity(256),
            params: Vec::new(),
        }
    }

    /// Writes the encoded buffer and flushes.
    fn flush_frame(&mut self) -> Result<()> {
        self.w.write_all(&self.buf)?;
        self.w.flush()?;
        Ok(())
    }

    /// Sends a whole [`Message`].
    pub fn send(&mut self, msg: &Message) -> Result<()> {
        self.buf.clear();
        msg.encode(&mut self.h.encoder(&mut self.buf))?;
        self.flush_frame()
    }

    /// Encodes `params` as a parameter list into `self.params`: an array as
    /// it is, anything else as a one-item array (see the module docs).
    fn encode_params<P: Encode + ?Sized>(&mut self, params: &P) -> Result<()> {
        self.params.clear();
        params.encode(&mut self.h.encoder(&mut self.params))?;
        if !is_array_header(self.params.first()) {
            self.params.insert(0, 0x91);
        }
        Ok(())
    }

    /// Sends a request `[0, msgid, method, params]`. `params` is any
    /// [`Encode`] value: a tuple or other array is the parameter list, any
    /// other value is sent as the single parameter.
    pub fn send_request<P: Encode + ?Sized>(
        &mut self,
        msgid: u32,
        method: &str,
        params: &P,
    ) -> Result<()> {
        self.encode_params(params)?;
        self.buf.clear();
        let mut e = self.h.encoder(&mut self.buf);
        request_head(&mut e, msgid, method)?;
        e.encode_raw(&self.params)?;
        e.array_end(4)?;
        self.flush_frame()
    }

    /// Sends a notification `[2, method, params]` (`params` as in
    /// [`RpcWriter::send_request`]).
    pub fn send_notification<P: Encode + ?Sized>(
        &mut self,
        method: &str,
        params: &P,
    ) -> Result<()> {
        self.encode_params(params)?;
        self.buf.clear();
        let mut e = self.h.encoder(&mut self.buf);
        notification_head(&mut e, method)?;
        e.encode_raw(&self.params)?;
        e.array_end(3)?;
        self.flush_frame()
    }

    /// Sends a response `[1, msgid, error, result]`.
    pub fn send_response<E: Encode + ?Sized, T: Encode + ?Sized>(
        &mut self,
        msgid: u32,
        error: &E,
        result: &T,
    ) -> Result<()> {
        self.buf.clear();
        response(&mut self.h.encoder(&mut self.buf), msgid, error, result)?;
        self.flush_frame()
    }

    /// Sends a successful response `[1, msgid, nil, result]`.
    pub fn send_result<T: Encode + ?Sized>(&mut self, msgid: u32, result: &T) -> Result<()> {
        self.send_response(msgid, &(), result)
    }

    /// Sends a failed response `[1, msgid, error, nil]`.
    pub fn send_error<E: Encode + ?Sized>(&mut self, msgid: u32, error: &E) -> Result<()> {
        self.send_response(msgid, error, &())
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.w
    }

    /// The inner writer, mutably.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.w
    }

    /// Returns the inner writer (every message is already flushed).
    pub fn into_inner(self) -> W {
        self.w
    }
}

impl<W: std::io::Write> fmt::Debug for RpcWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RpcWriter").finish_non_exhaustive()
    }
}

/// Both directions of one MessagePack-RPC connection.
#[derive(Debug)]
pub struct Connection<R: std::io::Read, W: std::io::Write> {
    reader: RpcReader<R>,
    writer: RpcWriter<W>,
}

impl Connection<TcpStream, TcpStream> {
    /// A connection over a TCP stream (its two halves share the socket).
    pub fn tcp(stream: TcpStream) -> std::io::Result<Self> {
        // Frames are flushed whole; do not let Nagle hold back small ones.
        stream.set_nodelay(true)?;
        Ok(Connection::new(stream.try_clone()?, stream))
    }
}

impl<R: std::io::Read, W: std::io::Write> Connection<R, W> {
    /// A connection reading from `r` and writing to `w`, default handle.
    pub fn new(r: R, w: W) -> Self {
        Self::with_handle(r, w, &MsgpackHandle::default())
    }

    /// A connection with `h`'s options in both directions.
    pub fn with_handle(r: R, w: W, h: &MsgpackHandle) -> Self {
        Connection {
            reader: RpcReader::with_handle(r, h),
            writer: RpcWriter::with_handle(w, h),
        }
    }

    /// A connection from its two halves.
    pub fn from_parts(reader: RpcReader<R>, writer: RpcWriter<W>) -> Self {
        Connection { reader, writer }
    }

    /// Splits into the reading and writing halves (to use from two threads).
    pub fn into_parts(self) -> (RpcReader<R>, RpcWriter<W>) {
        (self.reader, self.writer)
    }

    /// The reading half.
    pub fn reader(&mut self) -> &mut RpcReader<R> {
        &mut self.reader
    }

    /// The writing half.
    pub fn writer(&mut self) -> &mut RpcWriter<W> {
        &mut self.writer
    }

    /// See [`RpcReader::read_message`].
    pub fn read_message(&mut self) -> Result<Option<Message>> {
        self.reader.read_message()
    }

    /// See [`RpcWriter::send`].
    pub fn send(&mut self, msg: &Message) -> Result<()> {
        self.writer.send(msg)
    }

    /// See [`RpcWriter::send_request`].
    pub fn send_request<P: Encode + ?Sized>(
        &mut self,
        msgid: u32,
        method: &str,
        params: &P,
    ) -> Result<()> {
        self.writer.send_request(msgid, method, params)
    }

    /// See [`RpcWriter::send_response`].
    pub fn send_response<E: Encode + ?Sized, T: Encode + ?Sized>(
        &mut self,
        msgid: u32,
        error: &E,
        result: &T,
    ) -> Result<()> {
        self.writer.send_response(msgid, error, result)
    }

    /// See [`RpcWriter::send_notification`].
    pub fn send_notification<P: Encode + ?Sized>(
        &mut self,
        method: &str,
        params: &P,
    ) -> Result<()> {
        self.writer.send_notification(method, params)
    }
}

/// Why a [`Client::call`] failed.
#[derive(Debug)]
pub enum RpcError {
    /// The server answered with this (non-nil) error value.
    Remote(Value),
    /// Encoding, decoding or I/O failed, the stream ended, or the answer
    /// broke the protocol.
    Codec(Error),
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RpcError::Remote(v) => write!(f, "the server returned an error: {v}"),
            RpcError::Codec(e) => write!(f, "msgpack-rpc: {e}"),
        }
    }
}

impl std::error::Error for RpcError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RpcError::Remote(_) => None,
            RpcError::Codec(e) => Some(e),
        }
    }
}

impl From<Error> for RpcError {
    fn from(e: Error) -> Self {
        RpcError::Codec(e)
    }
}

/// A minimal synchronous MessagePack-RPC client: one call at a time.
///
/// Requests and notifications that the peer sends while a call waits for
/// its response are kept, in order, for [`Client::take_incoming`].
#[derive(Debug)]
pub struct Client<R: std::io::Read, W: std::io::Write> {
    conn: Connection<R, W>,
    next_msgid: u32,
    incoming: VecDeque<Message>,
}

impl Client<TcpStream, TcpStream> {
    /// A client over a TCP stream.
    pub fn tcp(stream: TcpStream) -> std::io::Result<Self> {
        Ok(Client::new(Connection::tcp(stream)?))
    }
}

impl<R: std::io::Read, W: std::io::Write> Client<R, W> {
    /// A client on `conn`; the first call uses msgid 1.
    pub fn new(conn: Connection<R, W>) -> Self {
        Client {
            conn,
            next_msgid: 1,
            incoming: VecDeque::new(),
        }
    }

    /// Calls `method` and decodes its result into `T`.
    ///
    /// `params` as in [`RpcWriter::send_request`]: `&(2, 3)` sends `[2, 3]`.
    /// A response with another msgid is a protocol error (this client has
    /// only one call outstanding); the end of the stream before the
    /// response is an `UnexpectedEof` error.
    pub fn call<P: Encode + ?Sized, T: DecodeOwned>(
        &mut self,
        method: &str,
        params: &P,
    ) -> std::result::Result<T, RpcError> {
        let msgid = self.next_msgid;
        self.next_msgid = self.next_msgid.wrapping_add(1);
        self.conn.send_request(msgid, method, params)?;
        loop {
            let Some(msg) = self.conn.read_message()? else {
                return Err(RpcError::Codec(Error::new(ErrorKind::Io(
                    std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        format!("connection closed before the response to msgid {msgid}"),
                    ),
                ))));
            };
            match msg {
                Message::Response {
                    msgid: id,
                    error,
                    result,
                } if id == msgid => {
                    if !error.is_nil() {
                        return Err(RpcError::Remote(error));
                    }
                    // As the result would decode from the frame: the
                    // content of an extension in it is msgpack.
                    return codec_core::from_value_in(&result, self.conn.reader.handle())
                        .map_err(|e| RpcError::Codec(e.in_field("result")));
                }
                Message::Response { msgid: id, .. } => {
                    return Err(RpcError::Codec(Error::syntax(format!(
                        "response to msgid {id} while waiting for msgid {msgid}"
                    ))));
                }
                other => self.incoming.push_back(other),
            }
        }
    }

    /// Calls `method` and returns its result as a dynamic [`Value`].
    pub fn call_value<P: Encode + ?Sized>(
        &mut self,
        method: &str,
        params: &P,
    ) -> std::result::Result<Value, RpcError> {
        self.call(method, params)
    }

    /// Sends a notification (no answer is expected).
    pub fn notify<P: Encode + ?Sized>(&mut self, method: &str, params: &P) -> Result<()> {
        self.conn.send_notification(method, params)
    }

    /// Requests and notifications received from the peer while calls waited.
    pub fn take_incoming(&mut self) -> impl Iterator<Item = Message> + '_ {
        self.incoming.drain(..)
    }

    /// The connection.
    pub fn connection(&mut self) -> &mut Connection<R, W> {
        &mut self.conn
    }

    /// Returns the connection.
    pub fn into_connection(self) -> Connection<R, W> {
        self.conn
    }
}

/// A minimal synchronous MessagePack-RPC server for one connection.
///
/// The handler `FnMut(&str, Vec<Value>) -> Result<Value, Value>` gets the
/// method and parameters of each request and notification. For a request,
/// `Ok(v)` is answered `[1, msgid, nil, v]` and `Err(e)` `[1, msgid, e, nil]`;
/// for a notification the outcome is dropped. Responses arriving at the
/// server (it never sends requests) are ignored.
#[derive(Debug)]
pub struct Server<R: std::io::Read, W: std::io::Write> {
    conn: Connection<R, W>,
}

impl Server<TcpStream, TcpStream> {
    /// A server on an accepted TCP stream.
    pub fn tcp(stream: TcpStream) -> std::io::Result<Self> {
        Ok(Server::new(Connection::tcp(stream)?))
    }
}

impl<R: std::io::Read, W: std::io::Write> Server<R, W> {
    /// A server on `conn`.
    pub fn new(conn: Connection<R, W>) -> Self {
        Server { conn }
    }

    /// Reads one message and dispatches it. Returns the message's type code
    /// ([`REQUEST`], [`RESPONSE`], [`NOTIFICATION`]) and method name (empty
    /// for a response), or `None` when the stream ended cleanly.
    pub fn serve_next<F>(&mut self, handler: &mut F) -> Result<Option<(u8, String)>>
    where
        F: FnMut(&str, Vec<Value>) -> std::result::Result<Value, Value>,
    {
        let Some(msg) = self.conn.read_message()? else {
            return Ok(None);
        };
        Ok(Some(match msg {
            Message::Request {
                msgid,
                method,
                params,
            } => {
                match handler(&method, params) {
                    Ok(result) => self.conn.send_response(msgid, &Value::Nil, &result)?,
                    Err(error) => self.conn.send_response(msgid, &error, &Value::Nil)?,
                }
                (REQUEST, method)
            }
            Message::Notification { method, params } => {
                let _ = handler(&method, params);
                (NOTIFICATION, method)
            }
            Message::Response { .. } => (RESPONSE, String::new()),
        }))
    }

    /// Serves until the stream ends cleanly; returns the number of messages
    /// handled. Stops at the first error (I/O, or a malformed frame).
    pub fn serve<F>(&mut self, mut handler: F) -> Result<u64>
    where
        F: FnMut(&str, Vec<Value>) -> std::result::Result<Value, Value>,
    {
        let mut n = 0;
        while self.serve_next(&mut handler)?.is_some() {
            n += 1;
        }
        Ok(n)
    }

    /// The connection.
    pub fn connection(&mut self) -> &mut Connection<R, W> {
        &mut self.conn
    }

    /// Returns the connection.
    pub fn into_connection(self) -> Connection<R, W> {
        self.conn
    }
}

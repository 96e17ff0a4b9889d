//! MessagePack-RPC: golden frames, strict validation of bad frames, and a
//! client and server talking over TCP on loopback and over OS pipes.

mod common;

use codec_core::{ErrorKind, Value, from_slice, to_vec};
use codec_msgpack::MsgpackHandle;
use codec_msgpack::rpc::{
    Client, Connection, Message, NO_PARAMS, NOTIFICATION, REQUEST, RESPONSE, RpcError, RpcReader,
    RpcWriter, Server,
};
use common::{OneByte, SplitMix};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::time::Duration;

fn h() -> MsgpackHandle {
    MsgpackHandle::default()
}

/// Reads every message of `bytes` with an [`RpcReader`] until the clean end.
fn read_all(bytes: &[u8]) -> codec_core::Result<Vec<Message>> {
    let mut r = RpcReader::new(bytes);
    let mut out = Vec::new();
    while let Some(m) = r.read_message()? {
        out.push(m);
    }
    Ok(out)
}

/// The golden frames: each message and its exact bytes.
fn golden() -> Vec<(Message, Vec<u8>)> {
    let mut v = vec![
        (
            Message::request(1, "add", vec![Value::Int(2), Value::Int(3)]),
            vec![0x94, 0x00, 0x01, 0xa3, b'a', b'd', b'd', 0x92, 0x02, 0x03],
        ),
        (
            Message::request(0, "", vec![]),
            vec![0x94, 0x00, 0x00, 0xa0, 0x90],
        ),
        (
            Message::request(70_000, "f", vec![Value::Nil]),
            vec![
                0x94, 0x00, 0xce, 0x00, 0x01, 0x11, 0x70, 0xa1, b'f', 0x91, 0xc0,
            ],
        ),
        (
            Message::request(u32::MAX, "f", vec![]),
            vec![0x94, 0x00, 0xce, 0xff, 0xff, 0xff, 0xff, 0xa1, b'f', 0x90],
        ),
        (
            Message::request(200, "g", vec![Value::from("x")]),
            vec![0x94, 0x00, 0xcc, 0xc8, 0xa1, b'g', 0x91, 0xa1, b'x'],
        ),
        (
            Message::response_ok(1, Value::Int(5)),
            vec![0x94, 0x01, 0x01, 0xc0, 0x05],
        ),
        (
            Message::response_err(2, Value::from("oops")),
            vec![0x94, 0x01, 0x02, 0xa4, b'o', b'o', b'p', b's', 0xc0],
        ),
        (
            Message::Response {
                msgid: 300,
                error: Value::Nil,
                result: Value::Array(vec![Value::Bool(true), Value::Bytes(vec![1])]),
            },
            vec![
                0x94, 0x01, 0xcd, 0x01, 0x2c, 0xc0, 0x92, 0xc3, 0xc4, 0x01, 0x01,
            ],
        ),
        (
            Message::notification("log", vec![Value::from("hi")]),
            vec![0x93, 0x02, 0xa3, b'l', b'o', b'g', 0x91, 0xa2, b'h', b'i'],
        ),
        (
            Message::notification("shutdown", vec![]),
            vec![
                0x93, 0x02, 0xa8, b's', b'h', b'u', b't', b'd', b'o', b'w', b'n', 0x90,
            ],
        ),
    ];
    // A method name past fixstr: str8 under the default (current-spec) handle.
    let long = "m".repeat(40);
    let mut bytes = vec![0x94, 0x00, 0x07, 0xd9, 40];
    bytes.extend_from_slice(long.as_bytes());
    bytes.push(0x90);
    v.push((Message::request(7, long, vec![]), bytes));
    v
}

#[test]
fn golden_frames_encode_and_decode() {
    for (msg, bytes) in golden() {
        assert_eq!(to_vec(&msg, &h()).unwrap(), bytes, "{msg:?}");
        let back: Message = from_slice(&bytes, &h()).unwrap();
        assert_eq!(back, msg);

        // The same bytes through the stream writer and reader.
        let mut w = RpcWriter::new(Vec::new());
        w.send(&msg).unwrap();
        assert_eq!(w.into_inner(), bytes);
        assert_eq!(read_all(&bytes).unwrap(), vec![msg.clone()]);
        // One byte per read call: the frame boundary does not depend on buffering.
        let mut r = RpcReader::new(OneByte(&bytes));
        assert_eq!(r.read_message().unwrap(), Some(msg.clone()));
        assert_eq!(r.read_message().unwrap(), None);
        assert_eq!(r.offset(), bytes.len() as u64);
    }
}

#[test]
fn message_accessors() {
    let req = Message::request(9, "add", vec![]);
    assert_eq!(
        (req.type_code(), req.msgid(), req.method()),
        (REQUEST, Some(9), Some("add"))
    );
    let ok = Message::response_ok(9, Value::Int(1));
    assert_eq!(
        (ok.type_code(), ok.msgid(), ok.method()),
        (RESPONSE, Some(9), None)
    );
    assert_eq!(ok.into_result(), Some(Ok(Value::Int(1))));
    let err = Message::response_err(9, Value::from("e"));
    assert_eq!(err.into_result(), Some(Err(Value::from("e"))));
    let note = Message::notification("log", vec![]);
    assert_eq!(
        (note.type_code(), note.msgid(), note.method()),
        (NOTIFICATION, None, Some("log"))
    );
    assert_eq!(note.into_result(), None);
}

#[test]
fn typed_sends_match_the_golden_bytes() {
    let mut w = RpcWriter::new(Vec::new());
    w.send_request(1, "add", &(2, 3)).unwrap();
    assert_eq!(
        w.get_ref().as_slice(),
        [0x94, 0x00, 0x01, 0xa3, b'a', b'd', b'd', 0x92, 0x02, 0x03]
    );
    w.get_mut().clear();

    // Vec, slice and fixed array are parameter lists as they are.
    w.send_request(1, "add", &vec![2i32, 3]).unwrap();
    w.send_request(1, "add", &[2i64, 3][..]).unwrap();
    w.send_request(1, "add", &[2u16, 3]).unwrap();
    let one = [0x94, 0x00, 0x01, 0xa3, b'a', b'd', b'd', 0x92, 0x02, 0x03];
    assert_eq!(w.get_ref().as_slice(), [one, one, one].concat());
    w.get_mut().clear();

    // Anything that is not an array is the single parameter.
    w.send_request(4, "g", "x").unwrap();
    assert_eq!(
        w.get_ref().as_slice(),
        [0x94, 0x00, 0x04, 0xa1, b'g', 0x91, 0xa1, b'x']
    );
    w.get_mut().clear();
    // A Vec<u8> is a byte string, so it is one parameter.
    w.send_request(4, "g", &vec![1u8, 2]).unwrap();
    assert_eq!(
        w.get_ref().as_slice(),
        [0x94, 0x00, 0x04, 0xa1, b'g', 0x91, 0xc4, 0x02, 0x01, 0x02]
    );
    w.get_mut().clear();
    w.send_request(4, "g", &()).unwrap();
    assert_eq!(
        w.get_ref().as_slice(),
        [0x94, 0x00, 0x04, 0xa1, b'g', 0x91, 0xc0]
    );
    w.get_mut().clear();
    let mut map = std::collections::BTreeMap::new();
    map.insert("k", 1u8);
    w.send_request(4, "g", &map).unwrap();
    assert_eq!(
        w.get_ref().as_slice(),
        [0x94, 0x00, 0x04, 0xa1, b'g', 0x91, 0x81, 0xa1, b'k', 0x01]
    );
    w.get_mut().clear();
    // A tuple of one array sends that array as one parameter.
    w.send_request(4, "g", &(vec![1u32],)).unwrap();
    assert_eq!(
        w.get_ref().as_slice(),
        [0x94, 0x00, 0x04, 0xa1, b'g', 0x91, 0x91, 0x01]
    );
    w.get_mut().clear();

    w.send_request(5, "none", NO_PARAMS).unwrap();
    w.send_notification("log", &("hi",)).unwrap();
    w.send_notification("log", "hi").unwrap();
    w.send_notification("shutdown", NO_PARAMS).unwrap();
    w.send_result(1, &5u8).unwrap();
    w.send_error(2, "oops").unwrap();
    w.send_response(3, &(), &vec!["a"]).unwrap();
    let msgs = read_all(w.get_ref()).unwrap();
    assert_eq!(
        msgs,
        vec![
            Message::request(5, "none", vec![]),
            Message::notification("log", vec![Value::from("hi")]),
            Message::notification("log", vec![Value::from("hi")]),
            Message::notification("shutdown", vec![]),
            Message::response_ok(1, Value::Int(5)), // a positive fixint reads as Int
            Message::response_err(2, Value::from("oops")),
            Message::response_ok(3, Value::Array(vec![Value::from("a")])),
        ]
    );
}

#[test]
fn old_spec_handle_writes_raw_strings() {
    let old = MsgpackHandle::ugorji_default();
    let mut w = RpcWriter::with_handle(Vec::new(), &old);
    w.send_request(1, "echo", &(vec![1u8, 2],)).unwrap();
    // No bin family in the old spec: the bytes go out as a raw string.
    assert_eq!(
        w.get_ref().as_slice(),
        [
            0x94, 0x00, 0x01, 0xa4, b'e', b'c', b'h', b'o', 0x91, 0xa2, 1, 2
        ]
    );
    let mut r = RpcReader::with_handle(&w.get_ref()[..], &old);
    assert_eq!(
        r.read_message().unwrap(),
        Some(Message::request(1, "echo", vec![Value::Bytes(vec![1, 2])]))
    );
}

#[test]
fn accepts_any_array_header_and_bin_method_names() {
    // array16 with 4 items, method as bin8, params as array16: still a request.
    let bytes = [
        0xdc, 0x00, 0x04, 0x00, 0x01, 0xc4, 0x01, b'f', 0xdc, 0x00, 0x01, 0x07,
    ];
    let m: Message = from_slice(&bytes, &h()).unwrap();
    assert_eq!(m, Message::request(1, "f", vec![Value::Int(7)]));
    // array32 notification.
    let bytes = [0xdd, 0, 0, 0, 3, 0x02, 0xa1, b'f', 0x90];
    let m: Message = from_slice(&bytes, &h()).unwrap();
    assert_eq!(m, Message::notification("f", vec![]));
    // The type code and msgid in wider integer forms.
    let bytes = [0x94, 0xcc, 0x01, 0xd2, 0, 0, 0, 9, 0xc0, 0xc0];
    let m: Message = from_slice(&bytes, &h()).unwrap();
    assert_eq!(m, Message::response_ok(9, Value::Nil));
}

/// Decodes `bytes` as one message through a slice and through a stream;
/// both must fail. Returns the stream error's text.
fn bad(bytes: &[u8]) -> codec_core::Error {
    let slice = from_slice::<Message, _>(bytes, &h());
    assert!(slice.is_err(), "{bytes:02x?} decoded: {slice:?}");
    let stream = RpcReader::new(bytes).read_message();
    match stream {
        Err(e) => e,
        Ok(m) => panic!("{bytes:02x?} read as {m:?}"),
    }
}

#[test]
fn malformed_frames_are_clear_errors() {
    // (bytes, a phrase the error must contain)
    let cases: &[(&[u8], &str)] = &[
        (
            &[0x05],
            "expected msgpack-rpc message (an array), found integer",
        ),
        (&[0x80], "found map"),
        (&[0xa1, b'x'], "found text string"),
        (&[0x92, 0x00, 0x01], "array of 3 or 4 items, found 2"),
        (&[0x90], "array of 3 or 4 items, found 0"),
        (
            &[0x95, 0x00, 0x01, 0xa1, b'f', 0x90, 0xc0],
            "array of 3 or 4 items, found 5",
        ),
        (
            &[0x94, 0x03, 0x01, 0xc0, 0xc0],
            "unknown msgpack-rpc message type 3",
        ),
        (
            &[0x94, 0xff, 0x01, 0xc0, 0xc0],
            "unknown msgpack-rpc message type -1",
        ),
        (
            &[0x94, 0xcd, 0x01, 0x00, 0x01, 0xc0, 0xc0],
            "unknown msgpack-rpc message type 256",
        ),
        (
            &[0x94, 0xa1, b'0', 0x01, 0xa1, b'f', 0x90],
            "expected msgpack-rpc type code (0, 1 or 2), found text string at .type",
        ),
        (&[0x94, 0xc3, 0x01, 0xa1, b'f', 0x90], "found bool at .type"),
        // A request needs 4 items, a notification 3.
        (
            &[0x93, 0x00, 0x01, 0xa1, b'f'],
            "expected 4 elements, found 3",
        ),
        (&[0x93, 0x01, 0x01, 0xc0], "expected 4 elements, found 3"),
        (
            &[0x94, 0x02, 0xa1, b'f', 0x90, 0xc0],
            "expected 3 elements, found 4",
        ),
        // msgid out of the u32 range, negative, or not an integer.
        (
            &[0x94, 0x00, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0, 0xa1, b'f', 0x90],
            "number 4294967296 does not fit in msgpack-rpc msgid (u32) at .msgid",
        ),
        (
            &[
                0x94, 0x01, 0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc0, 0xc0,
            ],
            "number -1 does not fit in msgpack-rpc msgid (u32) at .msgid",
        ),
        (
            &[0x94, 0x00, 0xe0, 0xa1, b'f', 0x90],
            "number -32 does not fit",
        ),
        (
            &[
                0x94, 0x00, 0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xa1, b'f', 0x90,
            ],
            "expected msgpack-rpc msgid (u32), found float64 at .msgid",
        ),
        (&[0x94, 0x01, 0xc0, 0xc0, 0xc0], "found nil at .msgid"),
        // method and params of the wrong type.
        (&[0x94, 0x00, 0x01, 0x05, 0x90], "at .method"),
        (&[0x93, 0x02, 0xc0, 0x90], "at .method"),
        (
            &[0x94, 0x00, 0x01, 0xa1, b'f', 0xc0],
            "expected msgpack-rpc params (an array), found nil at .params",
        ),
        (
            &[0x93, 0x02, 0xa1, b'f', 0x80],
            "expected msgpack-rpc params (an array), found map at .params",
        ),
        (
            &[0x93, 0x02, 0xa1, b'f', 0xa1, b'x'],
            "found text string at .params",
        ),
        // Method name that is not UTF-8 (as a bin item).
        (&[0x93, 0x02, 0xc4, 0x01, 0xff, 0x90], "UTF-8"),
        // A reserved byte inside the result.
        (&[0x94, 0x01, 0x01, 0xc0, 0xc1], "at .result"),
    ];
    for (bytes, phrase) in cases {
        let e = bad(bytes);
        let text = e.to_string();
        assert!(
            text.contains(phrase),
            "{bytes:02x?}: {text:?} lacks {phrase:?}"
        );
        assert!(e.offset().is_some(), "{bytes:02x?}: {text:?} has no offset");
    }
    // Kinds, not only texts.
    assert!(matches!(
        bad(&[0x93, 0x00, 0x01, 0xa1, b'f']).kind(),
        ErrorKind::InvalidLength {
            expected: 4,
            found: 3
        }
    ));
    assert!(matches!(
        bad(&[0x94, 0x00, 0xce, 0xff, 0xff, 0xff, 0xff, 0xa1, b'f', 0x91]).kind(),
        ErrorKind::UnexpectedEof
    ));
    assert!(matches!(
        bad(&[0x94, 0x00, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0, 0xa1, b'f', 0x90]).kind(),
        ErrorKind::OutOfRange { .. }
    ));
    assert!(matches!(
        bad(&[0x94, 0x07, 0x01, 0xc0, 0xc0]).kind(),
        ErrorKind::Syntax(_)
    ));
    // The offset of a bad frame counts from the start of the stream.
    let mut stream = vec![0x93, 0x02, 0xa1, b'f', 0x90];
    stream.extend_from_slice(&[0x94, 0x00, 0x01, 0x05, 0x90]);
    let mut r = RpcReader::new(&stream[..]);
    assert!(r.read_message().unwrap().is_some());
    let e = r.read_message().unwrap_err();
    assert_eq!(e.offset(), Some(8), "{e}");
    assert_eq!(e.path_string(), ".method");
}

#[test]
fn clean_end_is_none_and_a_cut_frame_is_an_error() {
    assert_eq!(RpcReader::new(&[][..]).read_message().unwrap(), None);
    let mut all = Vec::new();
    let frames = golden();
    for (_, bytes) in &frames {
        all.extend_from_slice(bytes);
        // Every strict prefix of a frame: nothing for the empty one, an
        // end-of-input error for the others (slice and stream alike).
        for cut in 1..bytes.len() {
            let prefix = &bytes[..cut];
            let e = bad(prefix);
            assert!(e.is_eof(), "{prefix:02x?}: {e}");
        }
    }
    // Back-to-back frames read one by one, then the clean end.
    let msgs = read_all(&all).unwrap();
    assert_eq!(
        msgs,
        frames.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>()
    );
    // The stream ends inside the last frame: the earlier ones arrive, then an error.
    let cut = &all[..all.len() - 1];
    let mut r = RpcReader::new(OneByte(cut));
    for _ in 0..frames.len() - 1 {
        assert!(r.read_message().unwrap().is_some());
    }
    assert!(r.read_message().unwrap_err().is_eof());
}

#[test]
fn hostile_frames_stay_small_and_bounded() {
    // A request declaring 2^32-1 params with none present.
    let e = bad(&[0x94, 0x00, 0x01, 0xa1, b'f', 0xdd, 0xff, 0xff, 0xff, 0xff]);
    assert!(e.is_eof(), "{e}");
    // A method declaring a 4 GiB name.
    let e = bad(&[0x93, 0x02, 0xdb, 0xff, 0xff, 0xff, 0xff, b'f']);
    assert!(e.is_eof(), "{e}");
    // Params nested past max_depth.
    let mut deep = vec![0x93, 0x02, 0xa1, b'f'];
    deep.extend(std::iter::repeat_n(0x91, 1000));
    deep.push(0xc0);
    let e = bad(&deep);
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. }),
        "{e}"
    );
}

#[test]
fn random_and_mutated_frames_never_panic() {
    let frames: Vec<Vec<u8>> = golden().into_iter().map(|(_, b)| b).collect();
    let mut rng = SplitMix(0x5eed_4b1d);
    let mut ok = 0u32;
    for i in 0..100_000u32 {
        let input: Vec<u8> = if i % 4 == 0 {
            let n = rng.below(24);
            (0..n).map(|_| rng.byte()).collect()
        } else {
            let mut b = frames[rng.below(frames.len())].clone();
            for _ in 0..1 + rng.below(3) {
                match rng.below(4) {
                    0 => {
                        let at = rng.below(b.len());
                        b[at] = rng.byte();
                    }
                    1 => {
                        let at = rng.below(b.len() + 1);
                        b.insert(at, rng.byte());
                    }
                    2 if b.len() > 1 => {
                        let at = rng.below(b.len());
                        b.remove(at);
                    }
                    _ => {
                        let at = rng.below(b.len());
                        b[at] ^= 1 << rng.below(8);
                    }
                }
            }
            b
        };
        let slice = from_slice::<Message, _>(&input, &h());
        let mut r = RpcReader::new(&input[..]);
        let mut stream = Vec::new();
        let end = loop {
            match r.read_message() {
                Ok(Some(m)) => stream.push(m),
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        // A frame that decodes alone reads the same from the stream, and
        // re-encodes to bytes that are a fixed point of decode + encode
        // (`Value::Uint(1)` is written as fixint 1, which reads as `Int`).
        if let Ok(m) = slice {
            ok += 1;
            assert!(end.is_ok(), "{input:02x?}");
            assert_eq!(stream, vec![m.clone()]);
            let bytes = to_vec(&m, &h()).unwrap();
            let again: Message = from_slice(&bytes, &h()).unwrap();
            assert_eq!(to_vec(&again, &h()).unwrap(), bytes);
            assert_eq!(again.type_code(), m.type_code());
            assert_eq!(again.msgid(), m.msgid());
        }
    }
    // The mutations keep some frames valid: the check above did run.
    assert!(ok > 1_000, "only {ok} valid frames");
}

/// The methods the test servers offer.
fn handler(method: &str, params: Vec<Value>) -> Result<Value, Value> {
    match (method, params.as_slice()) {
        ("add", [a, b]) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => Ok(Value::Int(a + b)),
            _ => Err(Value::from("add: expected integers")),
        },
        ("echo", [x]) => Ok(x.clone()),
        ("log", _) | ("shutdown", _) => Ok(Value::Nil),
        _ => Err(Value::from(format!("no such method: {method}"))),
    }
}

/// Serves until a `shutdown` notification or the end of the stream;
/// returns the notifications seen.
fn run_server<R: std::io::Read, W: std::io::Write>(
    conn: Connection<R, W>,
) -> codec_core::Result<Vec<String>> {
    let mut server = Server::new(conn);
    let mut seen = Vec::new();
    let mut logged = Vec::new();
    loop {
        let mut h = |m: &str, p: Vec<Value>| {
            if m == "log" {
                logged.push(p.clone());
            }
            handler(m, p)
        };
        match server.serve_next(&mut h)? {
            None => break,
            Some((NOTIFICATION, m)) => {
                let stop = m == "shutdown";
                seen.push(m);
                if stop {
                    break;
                }
            }
            Some(_) => {}
        }
    }
    assert_eq!(logged, vec![vec![Value::from("hello"), Value::Int(1)]]);
    Ok(seen)
}

/// The client side of the conversation, the same over every transport.
fn run_client<R: std::io::Read, W: std::io::Write>(conn: Connection<R, W>) {
    let mut c = Client::new(conn);
    let sum: i64 = c.call("add", &(2, 3)).unwrap();
    assert_eq!(sum, 5);
    let sum: u8 = c.call("add", &[40, 2]).unwrap();
    assert_eq!(sum, 42);
    let s: String = c.call("echo", "hi").unwrap();
    assert_eq!(s, "hi");
    let v = c.call_value("echo", &(vec![1u8, 2],)).unwrap();
    assert_eq!(v, Value::Bytes(vec![1, 2]));
    let pair: (String, bool) = c.call("echo", &(("x", true),)).unwrap();
    assert_eq!(pair, ("x".to_string(), true));
    match c.call::<_, Value>("nope", NO_PARAMS) {
        Err(RpcError::Remote(e)) => assert_eq!(e, Value::from("no such method: nope")),
        other => panic!("{other:?}"),
    }
    match c.call::<_, Value>("add", &("a", 1)) {
        Err(RpcError::Remote(e)) => assert_eq!(e, Value::from("add: expected integers")),
        other => panic!("{other:?}"),
    }
    // A result that does not fit the requested type is a local decode error.
    match c.call::<_, i64>("echo", "not a number") {
        Err(RpcError::Codec(e)) => assert!(e.to_string().contains("at .result"), "{e}"),
        other => panic!("{other:?}"),
    }
    // The connection is still in step after errors.
    let sum: i64 = c.call("add", &(-7, 7)).unwrap();
    assert_eq!(sum, 0);
    c.notify("log", &("hello", 1)).unwrap();
    c.notify("shutdown", NO_PARAMS).unwrap();
    assert_eq!(c.take_incoming().count(), 0);
}

#[test]
fn client_and_server_over_tcp_loopback() {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let addr = listener.local_addr().unwrap();
    let limit = Some(Duration::from_secs(20));
    let server = std::thread::spawn(move || {
        let (stream, peer) = listener.accept().unwrap();
        assert!(peer.ip().is_loopback());
        stream.set_read_timeout(limit).unwrap();
        run_server(Connection::tcp(stream).unwrap())
    });
    let client = std::thread::spawn(move || {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(limit).unwrap();
        run_client(Connection::tcp(stream).unwrap());
    });
    client.join().unwrap();
    let seen = server.join().unwrap().unwrap();
    assert_eq!(seen, ["log", "shutdown"]);
}

#[test]
fn client_and_server_over_tcp_with_typed_helpers() {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut s = Server::tcp(stream).unwrap();
        // Serves until the client hangs up.
        s.serve(handler)
    });
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut c = Client::tcp(stream).unwrap();
    for i in 0..200i64 {
        let sum: i64 = c.call("add", &(i, i)).unwrap();
        assert_eq!(sum, 2 * i);
    }
    c.notify("log", "done").unwrap();
    drop(c);
    assert_eq!(server.join().unwrap().unwrap(), 201);
}

#[test]
fn client_and_server_over_os_pipes() {
    let (to_server_r, to_server_w) = std::io::pipe().unwrap();
    let (to_client_r, to_client_w) = std::io::pipe().unwrap();
    let server = std::thread::spawn(move || run_server(Connection::new(to_server_r, to_client_w)));
    run_client(Connection::new(to_client_r, to_server_w));
    let seen = server.join().unwrap().unwrap();
    assert_eq!(seen, ["log", "shutdown"]);
}

#[test]
fn client_and_server_over_in_memory_buffers() {
    // The client's requests, recorded into a buffer (the answers are canned).
    let answers = [
        Message::response_ok(1, Value::Int(5)),
        Message::response_ok(2, Value::from("hi")),
    ];
    let mut canned = Vec::new();
    for a in &answers {
        canned.extend(to_vec(a, &h()).unwrap());
    }
    let mut c = Client::new(Connection::new(&canned[..], Vec::new()));
    assert_eq!(c.call::<_, i64>("add", &(2, 3)).unwrap(), 5);
    assert_eq!(c.call::<_, String>("echo", "hi").unwrap(), "hi");
    c.notify("log", &("hello", 1)).unwrap();
    let requests = c.into_connection().into_parts().1.into_inner();

    // The server answers those requests from memory: the same answers.
    let mut s = Server::new(Connection::new(&requests[..], Vec::new()));
    assert_eq!(s.serve(handler).unwrap(), 3);
    let replies = s.into_connection().into_parts().1.into_inner();
    assert_eq!(replies, canned);
}

#[test]
fn client_keeps_messages_that_arrive_while_it_waits() {
    let mut w = RpcWriter::new(Vec::new());
    w.send_notification("progress", &(50,)).unwrap();
    w.send_request(77, "ping", NO_PARAMS).unwrap();
    w.send_result(1, "pong").unwrap();
    let incoming = w.into_inner();
    let mut c = Client::new(Connection::new(&incoming[..], Vec::new()));
    let r: String = c.call("ping", NO_PARAMS).unwrap();
    assert_eq!(r, "pong");
    let kept: Vec<Message> = c.take_incoming().collect();
    assert_eq!(
        kept,
        vec![
            Message::notification("progress", vec![Value::Int(50)]),
            Message::request(77, "ping", vec![]),
        ]
    );
}

#[test]
fn client_protocol_errors() {
    // A response to another msgid.
    let wrong = to_vec(&Message::response_ok(9, Value::Nil), &h()).unwrap();
    let mut c = Client::new(Connection::new(&wrong[..], Vec::new()));
    match c.call::<_, Value>("f", NO_PARAMS) {
        Err(RpcError::Codec(e)) => assert!(
            e.to_string()
                .contains("response to msgid 9 while waiting for msgid 1"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    // The stream ends before any response.
    let mut c = Client::new(Connection::new(&[][..], Vec::new()));
    match c.call::<_, Value>("f", NO_PARAMS) {
        Err(e @ RpcError::Codec(_)) => {
            assert!(
                e.to_string()
                    .contains("closed before the response to msgid 1"),
                "{e}"
            )
        }
        other => panic!("{other:?}"),
    }
    // The stream ends inside the response.
    let cut = [0x94, 0x01, 0x01];
    let mut c = Client::new(Connection::new(&cut[..], Vec::new()));
    match c.call::<_, Value>("f", NO_PARAMS) {
        Err(RpcError::Codec(e)) => assert!(e.is_eof(), "{e}"),
        other => panic!("{other:?}"),
    }
    // A garbage answer.
    let junk = [0x94, 0x09, 0x01, 0xc0, 0xc0];
    let mut c = Client::new(Connection::new(&junk[..], Vec::new()));
    assert!(matches!(
        c.call::<_, Value>("f", NO_PARAMS),
        Err(RpcError::Codec(_))
    ));
}

/// A point that msgpack writes as the extension 9 holding `[x, y]`.
#[derive(Debug, PartialEq)]
struct Point(i32, i32);

impl codec_core::InterfaceExt for Point {
    const TAG: u64 = 9;
    type Repr = (i32, i32);
    fn to_repr(&self) -> (i32, i32) {
        (self.0, self.1)
    }
    fn from_repr((x, y): (i32, i32)) -> codec_core::Result<Self> {
        Ok(Point(x, y))
    }
}
codec_core::impl_interface_ext!(Point);

#[test]
fn client_reads_a_result_holding_an_interface_extension() {
    // The result is kept as a Value (ext 9 with msgpack bytes 92 03 fc) until
    // the call decodes it as the frame would have been decoded.
    let mut w = RpcWriter::new(Vec::new());
    w.send_result(1, &vec![Point(3, -4)]).unwrap();
    let answer = w.into_inner();
    let mut c = Client::new(Connection::new(&answer[..], Vec::new()));
    let r: Vec<Point> = c.call("points", NO_PARAMS).unwrap();
    assert_eq!(r, [Point(3, -4)]);
}

#[test]
fn server_handler_reads_an_interface_extension_parameter() {
    let mut w = RpcWriter::new(Vec::new());
    w.send_request(4, "norm", &(Point(3, -4),)).unwrap();
    let requests = w.into_inner();
    let mut s = Server::new(Connection::new(&requests[..], Vec::new()));
    let h = s.connection().reader().handle().clone();
    let served = s
        .serve(|_, params| {
            // The parameter is ext 9 with msgpack data: from_value cannot read it.
            assert!(codec_core::from_value::<Point>(&params[0]).is_err());
            let p: Point = codec_core::from_value_in(&params[0], &h)
                .map_err(|e| Value::from(e.to_string()))?;
            Ok(Value::Int(i64::from(p.0 * p.0 + p.1 * p.1)))
        })
        .unwrap();
    assert_eq!(served, 1);
    let replies = read_all(s.into_connection().into_parts().1.get_ref()).unwrap();
    assert_eq!(replies, [Message::response_ok(4, Value::Int(25))]);
}

#[test]
fn client_msgids_count_up_and_wrap() {
    let mut answers = Vec::new();
    for id in 1..=3u32 {
        answers.extend(to_vec(&Message::response_ok(id, Value::Int(0)), &h()).unwrap());
    }
    let mut c = Client::new(Connection::new(&answers[..], Vec::new()));
    for _ in 0..3 {
        let _: i64 = c.call("f", NO_PARAMS).unwrap();
    }
    let sent = read_all(c.connection().writer().get_ref()).unwrap();
    let ids: Vec<Option<u32>> = sent.iter().map(Message::msgid).collect();
    assert_eq!(ids, [Some(1), Some(2), Some(3)]);
}

#[test]
fn server_answers_errors_and_ignores_responses() {
    let mut w = RpcWriter::new(Vec::new());
    w.send_result(5, &1).unwrap(); // ignored: the server sent no request
    w.send_request(6, "nope", NO_PARAMS).unwrap();
    w.send_notification("nope", NO_PARAMS).unwrap(); // errors of notifications are dropped
    w.send_request(7, "echo", &(Value::Nil,)).unwrap();
    let input = w.into_inner();
    let mut s = Server::new(Connection::new(&input[..], Vec::new()));
    let mut h = handler;
    assert_eq!(
        s.serve_next(&mut h).unwrap(),
        Some((RESPONSE, String::new()))
    );
    assert_eq!(
        s.serve_next(&mut h).unwrap(),
        Some((REQUEST, "nope".to_string()))
    );
    assert_eq!(
        s.serve_next(&mut h).unwrap(),
        Some((NOTIFICATION, "nope".to_string()))
    );
    assert_eq!(
        s.serve_next(&mut h).unwrap(),
        Some((REQUEST, "echo".to_string()))
    );
    assert_eq!(s.serve_next(&mut h).unwrap(), None);
    let out = s.into_connection().into_parts().1.into_inner();
    assert_eq!(
        read_all(&out).unwrap(),
        vec![
            Message::response_err(6, Value::from("no such method: nope")),
            Message::response_ok(7, Value::Nil),
        ]
    );
    // A malformed frame stops the server with an error.
    let mut s = Server::new(Connection::new(&[0x94, 0x05, 0, 0, 0][..], Vec::new()));
    assert!(s.serve(handler).is_err());
}

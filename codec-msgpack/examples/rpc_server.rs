//! A MessagePack-RPC server on loopback, for `rpc_client` to talk to.
//!
//! ```text
//! cargo run -p codec-msgpack --example rpc_server [port] [seconds]
//! ```
//!
//! Listens on 127.0.0.1 (port 18800 by default), serves `add(a, b)` and
//! `echo(x)`, prints `log` notifications, and exits after a `shutdown`
//! notification or after `seconds` (30 by default), so it never hangs.

use codec_core::Value;
use codec_msgpack::rpc::{NOTIFICATION, Server};
use std::error::Error;
use std::io::ErrorKind;
use std::net::{Ipv4Addr, TcpListener};
use std::time::{Duration, Instant};

/// Default port, shared with `rpc_client`.
const DEFAULT_PORT: u16 = 18800;
/// Default lifetime of the server.
const DEFAULT_SECONDS: u64 = 30;

/// The methods: requests get the returned value (or error) as their answer.
fn handle(method: &str, params: Vec<Value>) -> Result<Value, Value> {
    match (method, params.as_slice()) {
        ("add", [a, b]) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a
                .checked_add(b)
                .map(Value::Int)
                .ok_or_else(|| Value::from("add: overflow")),
            _ => Err(Value::from("add: expected two integers")),
        },
        ("add", _) => Err(Value::from("add: expected two parameters")),
        ("echo", [x]) => Ok(x.clone()),
        ("echo", _) => Err(Value::from("echo: expected one parameter")),
        ("log", _) => {
            let line: Vec<String> = params.iter().map(|p| p.to_string()).collect();
            println!("notification log: {}", line.join(" "));
            Ok(Value::Nil)
        }
        ("shutdown", _) => {
            println!("notification shutdown: exiting");
            Ok(Value::Nil)
        }
        _ => Err(Value::from(format!("no such method: {method}"))),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args
        .next()
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(DEFAULT_PORT);
    let seconds: u64 = args
        .next()
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(DEFAULT_SECONDS);

    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
    println!("rpc_server listening on {}", listener.local_addr()?);
    // Poll for connections so that the deadline holds even when none comes.
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + Duration::from_secs(seconds);

    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            println!("no shutdown within {seconds} s: exiting");
            return Ok(());
        }
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        println!("connection from {peer}");
        stream.set_nonblocking(false)?;
        // A silent client cannot keep the server past its deadline.
        stream.set_read_timeout(Some(left))?;
        let mut server = Server::tcp(stream)?;
        loop {
            match server.serve_next(&mut handle) {
                Ok(Some((NOTIFICATION, method))) if method == "shutdown" => return Ok(()),
                Ok(Some(_)) => {}
                Ok(None) => {
                    println!("connection from {peer} closed");
                    break;
                }
                Err(e) => {
                    println!("connection from {peer} failed: {e}");
                    break;
                }
            }
        }
    }
}

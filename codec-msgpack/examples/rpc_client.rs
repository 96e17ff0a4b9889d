//! A MessagePack-RPC client on loopback, talking to `rpc_server`.
//!
//! ```text
//! cargo run -p codec-msgpack --example rpc_server &
//! cargo run -p codec-msgpack --example rpc_client [port]
//! ```
//!
//! Connects to 127.0.0.1 (port 18800 by default, retrying for a few
//! seconds while the server starts), calls `add(2, 3)` and `echo`, sends a
//! `log` notification, then `shutdown`.

use codec_core::Value;
use codec_msgpack::rpc::{Client, NO_PARAMS, RpcError};
use std::error::Error;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Default port, shared with `rpc_server`.
const DEFAULT_PORT: u16 = 18800;

/// Connects, retrying for up to 10 s while the server starts.
fn connect(addr: SocketAddr) -> std::io::Result<TcpStream> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() < deadline => {
                println!("connect to {addr}: {e}; retrying");
                std::thread::sleep(Duration::from_millis(200));
            }
            Err(e) => return Err(e),
        }
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let port: u16 = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(DEFAULT_PORT);
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let stream = connect(addr)?;
    // Never wait forever for an answer.
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    println!("connected to {addr}");
    let mut client = Client::tcp(stream)?;

    let sum: i64 = client.call("add", &(2, 3))?;
    println!("add(2, 3) = {sum}");

    let echoed: String = client.call("echo", "hello, msgpack-rpc")?;
    println!("echo(\"hello, msgpack-rpc\") = {echoed:?}");

    let nested: Value = client.call_value("echo", &(vec![1u8, 2, 3],))?;
    println!("echo(h'010203') = {nested}");

    match client.call::<_, Value>("divide", &(1, 0)) {
        Err(RpcError::Remote(e)) => println!("divide(1, 0) failed remotely: {e}"),
        other => println!("divide(1, 0): unexpected {other:?}"),
    }

    client.notify("log", &("client", "says", "hi"))?;
    println!("sent notification log");
    client.notify("shutdown", NO_PARAMS)?;
    println!("sent notification shutdown");
    Ok(())
}

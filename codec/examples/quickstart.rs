//! Quickstart: derive once, encode and decode in all five formats.
//!
//! Run with `cargo run -p codec --example quickstart`.

use codec::{AnyHandle, Codec, Value};
use std::collections::BTreeMap;

/// A type with the common attributes: rename, omitempty, nested types, bytes.
#[derive(Codec, Debug, Clone, PartialEq)]
struct Order {
    id: u64,
    #[codec(rename = "sku")]
    item: String,
    #[codec(omitempty)]
    note: Option<String>,
    quantities: Vec<u32>,
    prices: BTreeMap<String, f64>,
    /// `Vec<u8>` is a byte string in every binary format (base64 in JSON).
    signature: Vec<u8>,
    status: Status,
}

/// Enums are externally tagged; unit variants are written as their name.
#[derive(Codec, Debug, Clone, PartialEq)]
enum Status {
    Open,
    Shipped { carrier: String },
}

fn main() -> Result<(), codec::Error> {
    let order = Order {
        id: 42,
        item: "A-17".into(),
        note: None,
        quantities: vec![1, 2, 3],
        prices: BTreeMap::from([("net".to_string(), 9.5), ("tax".to_string(), 1.9)]),
        signature: vec![0xde, 0xad, 0xbe, 0xef],
        status: Status::Shipped {
            carrier: "ACME".into(),
        },
    };

    for name in AnyHandle::NAMES {
        // The format is chosen at run time, by name.
        let handle: AnyHandle = name.parse()?;
        let bytes = handle.to_vec(&order)?;
        let back: Order = handle.from_slice(&bytes)?;
        assert_eq!(back, order);

        // Any document can also be read without a Rust type.
        let dynamic: Value = handle.from_slice(&bytes)?;
        let shown = if name == "json" {
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            hex(&bytes)
        };
        println!("{name:>7}: {:>3} bytes  {shown}", bytes.len());
        println!("         as Value: {dynamic}");
    }

    // Errors say what, where (byte offset) and at which path.
    let handle: AnyHandle = "json".parse()?;
    let err = handle
        .from_slice::<Order>(br#"{"id":42,"sku":"A-17","quantities":[1,"two"]}"#)
        .unwrap_err();
    println!("\nerror: {err}");
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

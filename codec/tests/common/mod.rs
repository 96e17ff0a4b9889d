//! Helpers shared by the cross-format tests.

/// Runs `$body` with `$h` bound to each of the five handles (default options).
#[macro_export]
macro_rules! each_handle {
    ($h:ident => $body:block) => {{
        {
            let $h = codec::MsgpackHandle::default();
            $body
        }
        {
            let $h = codec::CborHandle::default();
            $body
        }
        {
            let $h = codec::BincHandle::default();
            $body
        }
        {
            let $h = codec::SimpleHandle::default();
            $body
        }
        {
            let $h = codec::JsonHandle::default();
            $body
        }
    }};
}

/// Runs `$body` with `$h` bound to each handle built with shared options `$o`.
#[macro_export]
macro_rules! each_handle_with {
    ($o:expr, $h:ident => $body:block) => {{
        {
            let mut $h = codec::MsgpackHandle::default();
            $h.options = $o;
            $body
        }
        {
            let mut $h = codec::CborHandle::default();
            $h.options = $o;
            $body
        }
        {
            let mut $h = codec::BincHandle::default();
            $h.options = $o;
            $body
        }
        {
            let mut $h = codec::SimpleHandle::default();
            $h.options = $o;
            $body
        }
        {
            let mut $h = codec::JsonHandle::default();
            $h.options = $o;
            $body
        }
    }};
}

#[allow(unused_imports)] // not every test that includes this module uses it
pub use codec_test_support::OneByte as ByteByByte;

/// A xorshift64 generator from `seed` (not zero): reproducible test input.
#[allow(dead_code)]
pub fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// Damages `input` in one to three places, each a byte replaced, a bit
/// flipped, a byte dropped or a byte doubled, drawn from `next`.
#[allow(dead_code)]
pub fn damage(input: &mut Vec<u8>, next: &mut impl FnMut() -> u64) {
    for _ in 0..1 + next() % 3 {
        let at = next() as usize % input.len().max(1);
        match next() % 4 {
            0 if !input.is_empty() => input[at] = next() as u8,
            1 if !input.is_empty() => input[at] ^= 1 << (next() % 8),
            2 if !input.is_empty() => {
                input.remove(at);
            }
            _ => {
                let b = input.get(at).copied().unwrap_or(b' ');
                input.insert(at, b);
            }
        }
    }
}

/// One to three pieces of text drawn from `next`: empty, ASCII, two- to
/// four-byte characters, and a piece just past 30 bytes (`Text`'s inline size).
#[allow(dead_code)]
pub fn random_text(next: &mut impl FnMut() -> u64) -> String {
    let pool = [
        "",
        "a",
        "id",
        "é",
        "日本語",
        "thirty-one bytes, just too long",
        "x\u{1F600}",
    ];
    (0..1 + next() % 3)
        .map(|_| pool[next() as usize % pool.len()])
        .collect()
}

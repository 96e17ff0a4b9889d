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

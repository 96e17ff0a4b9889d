//! Compile-fail tests: every misuse of `#[codec(...)]` is an error pointing at it.
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

//! A counting global allocator, linked into every binary, test and bench of
//! this crate, so that the report can print allocations and allocated bytes
//! per operation.
//!
//! Counting is off except while a [`count_allocations`] guard lives: the two
//! atomic read-modify-writes per allocation would otherwise be timed with
//! every case (about 10 % of our `Value` decode of citm_catalog), weighing on
//! each implementation in proportion to how often it allocates. Timed loops
//! run with counting off; the report counts in separate runs. The counters
//! are process-wide relaxed atomics: read them before and after the runs
//! with [`snapshot`] and subtract with [`AllocStats::since`].
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
/// Number of live [`Counting`] guards; counting is on while it is not zero.
static COUNTING: AtomicUsize = AtomicUsize::new(0);

/// Counts one allocation of `bytes` when counting is on.
#[inline(always)]
fn count(bytes: usize) {
    if COUNTING.load(Ordering::Relaxed) != 0 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
    }
}

/// Allocations are counted while this guard (or another) lives.
#[must_use = "counting stops when the guard is dropped"]
pub struct Counting(());

/// Turns counting on (process-wide) until the returned guard is dropped.
/// Guards nest, so concurrent users (tests) do not turn each other off.
pub fn count_allocations() -> Counting {
    COUNTING.fetch_add(1, Ordering::Relaxed);
    Counting(())
}

impl Drop for Counting {
    fn drop(&mut self) {
        COUNTING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Wraps [`System`] and counts every allocation and reallocation.
pub struct CountingAlloc;

// SAFETY: every method forwards to `System`, which upholds the `GlobalAlloc`
// contract; the only additions are relaxed atomic counter updates, which
// neither allocate nor touch the memory handed out.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was returned by `System` through this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation is counted as one allocation of the growth (if any).
        count(new_size.saturating_sub(layout.size()));
        // SAFETY: `ptr` came from `System` with `layout`; the caller upholds
        // `realloc`'s contract for `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Allocation counters at one instant (or a difference of two instants).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Number of `alloc`, `alloc_zeroed` and `realloc` calls.
    pub allocations: u64,
    /// Bytes requested (for `realloc`, only the growth).
    pub bytes: u64,
}

impl AllocStats {
    /// The counts between `earlier` and `self`.
    #[must_use]
    pub fn since(self, earlier: AllocStats) -> AllocStats {
        AllocStats {
            allocations: self.allocations.wrapping_sub(earlier.allocations),
            bytes: self.bytes.wrapping_sub(earlier.bytes),
        }
    }
}

/// Reads the process-wide counters.
#[must_use]
pub fn snapshot() -> AllocStats {
    AllocStats {
        allocations: ALLOCATIONS.load(Ordering::Relaxed),
        bytes: BYTES.load(Ordering::Relaxed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_a_vec_allocation_only_while_counting() {
        let before = snapshot();
        let on = count_allocations();
        let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(1000));
        drop(on);
        let after = snapshot().since(before);
        drop(v);
        // With no guard alive (no other test here takes one), nothing counts.
        let quiet = snapshot();
        let w: Vec<u64> = std::hint::black_box(Vec::with_capacity(1000));
        assert_eq!(snapshot().since(quiet), AllocStats::default());
        drop(w);
        // Other test threads may allocate concurrently, so only lower bounds hold.
        assert!(after.allocations >= 1);
        assert!(after.bytes >= 8000);
    }
}

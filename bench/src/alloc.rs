//! A counting global allocator: every binary, test and bench that links this
//! crate counts its heap allocations, so the report can print allocations and
//! allocated bytes per operation.
//!
//! The counters are process-wide relaxed atomics. Read them before and after a
//! measured loop with [`snapshot`] and subtract with [`AllocStats::since`].
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

/// Wraps [`System`] and counts every allocation and reallocation.
pub struct CountingAlloc;

// SAFETY: every method forwards to `System`, which upholds the `GlobalAlloc`
// contract; the only additions are relaxed atomic counter updates, which
// neither allocate nor touch the memory handed out.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was returned by `System` through this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation is counted as one allocation of the growth (if any).
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(
            new_size.saturating_sub(layout.size()) as u64,
            Ordering::Relaxed,
        );
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
    fn counts_a_vec_allocation() {
        let before = snapshot();
        let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(1000));
        let after = snapshot().since(before);
        drop(v);
        // Other test threads may allocate concurrently, so only lower bounds hold.
        assert!(after.allocations >= 1);
        assert!(after.bytes >= 8000);
    }
}

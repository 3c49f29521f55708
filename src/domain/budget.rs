//! The one memory budget of a run: the bytes of answers it holds at once, results
//! waiting behind the oldest unprinted lookup (the engine's) and large answers being
//! read and parsed (the client's). Else, with `-j 32` and 4 MiB answers, 32 bodies,
//! their parsed copies and the results held behind a slow lookup could all be in memory.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use crate::domain::lock;

/// What a run holds at once, whatever `--jobs`. More lets more workers take large
/// answers, and freed megabytes stay in the malloc arena of each thread that used
/// them: at 64 MiB, -j 128 with 2 MiB answers peaked past 200 MiB.
pub const MEMORY_BUDGET: usize = 32 * 1024 * 1024;

/// Answers up to this size are read without counting: nearly all of them, and
/// without a lock.
const SMALL: u64 = 64 * 1024;

#[derive(Debug)]
pub struct Budget {
    pub limit: usize,
    /// Results held behind the oldest unprinted lookup: the engine bounds them by
    /// beginning no lookup past the limit.
    held: AtomicUsize,
    /// Bytes of large answers being read and parsed, and by how many readers.
    reading: Mutex<(usize, usize)>,
    freed: Condvar,
}

/// Bytes taken by a reader, given back when dropped.
pub struct Permit<'a>(pub(crate) Option<(&'a Budget, usize)>);

impl Budget {
    pub fn new(limit: usize) -> Budget {
        Budget {
            limit,
            held: AtomicUsize::new(0),
            reading: Mutex::new((0, 0)),
            freed: Condvar::new(),
        }
    }

    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    pub fn hold(&self, bytes: usize) {
        self.held.fetch_add(bytes, Ordering::Relaxed);
    }

    pub fn release(&self, bytes: usize) {
        self.held.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Waits until an answer of `size` bytes may be read: while other answers are
    /// being read and the budget is full. Never for held results alone: they are
    /// printed only once the oldest lookup is, which may be this one. So no reader
    /// waits for ever: every permit is given back when its answer is parsed.
    pub fn take(&self, size: u64) -> Permit<'_> {
        if size <= SMALL {
            return Permit(None);
        }
        // What an answer costs while it is read and parsed: the body and its parsed copy.
        let bytes = usize::try_from(size.saturating_mul(2)).unwrap_or(usize::MAX);
        let mut reading = lock(&self.reading);
        while self.must_wait(*reading, bytes) {
            reading = self.freed.wait(reading).unwrap_or_else(|e| e.into_inner());
        }
        reading.0 += bytes;
        reading.1 += 1;
        Permit(Some((self, bytes)))
    }

    /// With `(used, readers)` being read, whether a reader of `bytes` waits.
    fn must_wait(&self, (used, readers): (usize, usize), bytes: usize) -> bool {
        readers > 0 && self.held().saturating_add(used).saturating_add(bytes) > self.limit
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        if let Some((budget, bytes)) = self.0 {
            let mut reading = lock(&budget.reading);
            reading.0 -= bytes;
            reading.1 -= 1;
            budget.freed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_answers_are_free_and_large_ones_are_counted() {
        let budget = Budget::new(MEMORY_BUDGET);
        let small = budget.take(1000);
        let large = budget.take(1024 * 1024);
        assert_eq!(*budget.reading.lock().unwrap(), (2 * 1024 * 1024, 1));
        drop((small, large));
        assert_eq!(*budget.reading.lock().unwrap(), (0, 0));
    }

    #[test]
    fn one_answer_larger_than_the_budget_still_passes() {
        let budget = Budget::new(1024 * 1024);
        budget.hold(1024 * 1024);
        let permit = budget.take(4 * 1024 * 1024);
        assert_eq!(permit.0.unwrap().1, 8 * 1024 * 1024);
    }

    #[test]
    fn a_reader_waits_only_while_another_reads_and_the_budget_is_full() {
        let mib = 1024 * 1024;
        let budget = Budget::new(4 * mib);
        budget.hold(3 * mib);
        // Held results alone never hold a reader back.
        assert!(!budget.must_wait((0, 0), 2 * mib));
        assert!(budget.must_wait((2 * mib, 1), 2 * mib));
        budget.release(3 * mib);
        assert!(!budget.must_wait((2 * mib, 1), 2 * mib));
        assert!(budget.must_wait((3 * mib, 1), 2 * mib));
    }
}

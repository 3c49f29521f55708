//! A bound on the bytes of answers being read and parsed at once, across workers:
//! with `-j 32` and 4 MiB answers, 32 bodies and their parsed copies would be in
//! memory together. Small answers (nearly all of them) pass without a lock.

use std::sync::{Condvar, Mutex};

/// Answers up to this size are not counted: they cannot add up to much.
const SMALL: u64 = 64 * 1024;

#[derive(Debug)]
pub struct BodyBudget {
    limit: u64,
    used: Mutex<u64>,
    freed: Condvar,
}

/// Bytes taken from the budget, given back when dropped.
#[derive(Debug)]
pub struct Permit<'a>(pub(super) Option<(&'a BodyBudget, u64)>);

impl BodyBudget {
    pub fn new(limit: u64) -> BodyBudget {
        BodyBudget {
            limit,
            used: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// Waits until an answer of `size` bytes fits. One answer alone always fits, so
    /// no reader waits for ever: every permit is given back when its answer is read.
    pub fn take(&self, size: u64) -> Permit<'_> {
        if size <= SMALL {
            return Permit(None);
        }
        // What an answer costs while it is read and parsed: the body and its parsed copy.
        let bytes = size.saturating_mul(2);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > 0 && used.saturating_add(bytes) > self.limit {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += bytes;
        Permit(Some((self, bytes)))
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        if let Some((budget, bytes)) = self.0 {
            *budget.used.lock().unwrap_or_else(|e| e.into_inner()) -= bytes;
            budget.freed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_answers_are_free_and_large_ones_are_counted() {
        let budget = BodyBudget::new(10 * 1024 * 1024);
        let small = budget.take(1000);
        let large = budget.take(1024 * 1024);
        assert_eq!(*budget.used.lock().unwrap(), 2 * 1024 * 1024);
        drop((small, large));
        assert_eq!(*budget.used.lock().unwrap(), 0);
    }

    #[test]
    fn one_answer_larger_than_the_budget_still_passes() {
        let budget = BodyBudget::new(1024);
        let permit = budget.take(1024 * 1024);
        assert_eq!(permit.0.unwrap().1, 2 * 1024 * 1024);
    }
}

//! What smsstat knows about the service, without any I/O: records, statuses, fields,
//! lookups and their paths, task counter rules, typed errors and exit codes.

pub(crate) mod budget;
pub(crate) mod duration;
pub(crate) mod error;
pub(crate) mod exit_codes;
pub(crate) mod fields;
pub(crate) mod format;
pub(crate) mod lookup;
pub(crate) mod msisdn;
pub(crate) mod networks;
pub(crate) mod outcome;
pub(crate) mod record;
pub(crate) mod sanitize;
pub(crate) mod status;
pub(crate) mod step;
pub(crate) mod task;
pub(crate) mod timestamp;
pub(crate) mod verdict;

/// A mutex's value, even after a panic elsewhere (the hook told it): a worker or the
/// drawing thread that panicked must not take the run down with it.
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

//! What smsstat knows about the service, without any I/O: records, statuses, fields,
//! lookups and their paths, task counter rules, typed errors and exit codes.

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

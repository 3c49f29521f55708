//! What the integration tests and the fuzz target need from the library, in one
//! place: everything else is private to the crate.

pub use crate::cli::args::Cli;
pub use crate::domain::error::LookupError;
pub use crate::domain::format::OutputFormat;
pub use crate::domain::format::PrintStyle;
pub use crate::domain::lookup::{LookupKind, PathStyle};
pub use crate::domain::msisdn::mask_result;
pub use crate::domain::outcome::Outcome;
pub use crate::domain::record::RecordKind as Kind;
pub use crate::domain::sanitize::is_unsafe;
pub use crate::domain::status::{documented, Phase};
pub use crate::http::answer::read_answer;
pub use crate::http::redact::Scrubber;
pub use crate::output::json_lines::json_line;
pub use crate::output::printer::Printer;
pub use crate::settings::secret::ApiKey;
pub use crate::sim::data::{settle_fraction, MAX_ID, TASK_ONLY_IDS};
pub use crate::sim::record as sim_record;
pub use crate::sim::start as start_sim;
pub use crate::sim::{Codes, Oddity, Variant};
pub use crate::sim::{SimOptions, API_KEY_HEADER, LISTENING_PREFIX};

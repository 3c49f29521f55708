//! The settings as given, before resolution: what flags and the environment said
//! (clap has parsed and merged them), typed, with nothing filled in. `cli/` builds
//! it from its flags; `settings/` resolves it with the config file and the defaults
//! into the `Config` every other layer reads.

use std::path::PathBuf;
use std::time::Duration;

use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::PathStyle;

#[derive(Debug, Clone, Default)]
pub struct Given {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub api_key_file: Option<PathBuf>,
    pub api_key_header: Option<String>,
    /// Timeout and retries stay text until resolution checks them, where it knows
    /// whether the flag or the variable gave them and names that one.
    pub timeout: Option<String>,
    pub retries: Option<String>,
    pub paths: PathStyle,
    pub json: bool,
    pub output: Option<OutputFormat>,
    pub fields: Vec<String>,
    pub field: Option<String>,
    pub normalize: bool,
    pub jobs: Option<usize>,
    pub max_body: Option<u64>,
    pub ca_cert: Option<PathBuf>,
    pub verbose: u8,
    pub color: ColorChoice,
    pub demo: bool,
    pub mask_msisdn: bool,
    pub config: Option<PathBuf>,
    pub profile: Option<String>,
    pub wait: bool,
    pub wait_timeout: Option<Duration>,
    pub interval: Option<Duration>,
    pub until: Vec<String>,
    pub expect: Vec<String>,
    pub expect_delivered: Option<f64>,
    pub follow: bool,
    /// `--rate` as the least spacing between request starts.
    pub rate_interval: Option<Duration>,
    pub keep_going: bool,
    pub raw_cells: bool,
    pub no_headers: bool,
    pub quiet: bool,
    pub junit: Option<PathBuf>,
}

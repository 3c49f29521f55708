//! The settings as given, before resolution: what flags and the environment said
//! (clap has parsed and merged them), typed, with nothing filled in. `cli/` builds
//! it from its flags; `settings/` resolves it with the config file and the defaults
//! into the `Config` every other layer reads.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::PathStyle;
use crate::settings::table::Id;

#[derive(Debug, Clone, Default)]
pub struct Given {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub api_key_file: Option<PathBuf>,
    /// The table's layered settings as typed (flag or variable), still text: the
    /// layers check each where they know which of the two gave it, and name that one.
    pub layered: Texts,
    pub paths: PathStyle,
    pub json: bool,
    pub output: Option<OutputFormat>,
    pub fields: Vec<String>,
    pub field: Option<String>,
    pub normalize: bool,
    pub jobs: Option<usize>,
    pub max_body: Option<u64>,
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

/// The text of each layered setting that a flag or a variable gave.
#[derive(Debug, Clone, Default)]
pub struct Texts(BTreeMap<Id, String>);

impl Texts {
    pub fn get(&self, id: Id) -> Option<&str> {
        self.0.get(&id).map(String::as_str)
    }
}

impl FromIterator<(Id, String)> for Texts {
    fn from_iter<T: IntoIterator<Item = (Id, String)>>(iter: T) -> Self {
        Texts(iter.into_iter().collect())
    }
}

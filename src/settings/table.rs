//! The one table of the settings that can come from a flag, the environment or the
//! config file. The clap definitions take their environment names from it, and the
//! config file's keys, the origins, `config show` and the man page are derived from
//! it: a new setting starts here.

/// One setting: its name in the config file and `config show` (also clap's argument
/// id), its flag and environment variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Which setting: what code that handles each one matches on, so that the
    /// compiler finds a setting left out.
    pub id: Id,
    pub key: &'static str,
    pub flag: &'static str,
    pub env: &'static str,
    /// Whether the config file can set it (`config` and `profile` choose the file).
    pub in_file: bool,
    /// What it does, for the man page's ENVIRONMENT section.
    pub about: &'static str,
}

macro_rules! settings {
    ($($name:ident($id:ident): $key:literal, $flag:literal, $env:literal, $in_file:literal, $about:literal;)+) => {
        /// Every setting of the table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Id {
            $($id),+
        }

        $(pub const $name: Setting = Setting {
            id: Id::$id,
            key: $key,
            flag: $flag,
            env: $env,
            in_file: $in_file,
            about: $about,
        };)+
        /// In the order `config show` lists them.
        pub const SETTINGS: &[Setting] = &[$($name),+];
    };
}

settings! {
    CONFIG(Config): "config", "--config", "SMSSTAT_CONFIG", false,
        "Config file to read (as --config).";
    PROFILE(Profile): "profile", "--profile", "SMSSTAT_PROFILE", false,
        "Profile of the config file (as --profile).";
    BASE_URL(BaseUrl): "base_url", "--base-url", "SMSSTAT_BASE_URL", true,
        "Base URL of the service (as --base-url).";
    API_KEY(ApiKey): "api_key", "--api-key", "SMSSTAT_API_KEY", true,
        "API key sent with every request (as --api-key, but not visible in the process list).";
    API_KEY_FILE(ApiKeyFile): "api_key_file", "--api-key-file", "SMSSTAT_API_KEY_FILE", true,
        "File holding the API key (as --api-key-file).";
    API_KEY_HEADER(ApiKeyHeader): "api_key_header", "--api-key-header", "SMSSTAT_API_KEY_HEADER", true,
        "Header that carries the key (as --api-key-header).";
    TIMEOUT(Timeout): "timeout", "--timeout", "SMSSTAT_TIMEOUT", true,
        "Bound on each request (as --timeout).";
    RETRIES(Retries): "retries", "--retries", "SMSSTAT_RETRIES", true,
        "Retries of transient failures (as --retries).";
    OUTPUT(Output): "output", "--output", "SMSSTAT_OUTPUT", true,
        "Output format (as -o); --json and -o win over it.";
    CA_CERT(CaCert): "ca_cert", "--ca-cert", "SMSSTAT_CA_CERT", true,
        "PEM file of the CA certificates to trust for https (as --ca-cert).";
}

/// Every key a config file may set, in the order of the table.
pub fn file_keys() -> impl Iterator<Item = &'static str> {
    SETTINGS.iter().filter(|s| s.in_file).map(|s| s.key)
}

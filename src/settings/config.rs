//! The parsed command line resolved once into a `Config`: defaults, environment,
//! terminal and colour decisions all happen here, and nowhere else.

use std::env;
use std::io::IsTerminal;
use std::time::Duration;

use ureq::http::{HeaderName, HeaderValue, Uri};

use crate::domain::error::{ConfigError, SettingsError};
use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::LookupKind;
use crate::domain::lookup::PathStyle;
use crate::domain::verdict::{Expectation, WaitSettings};
use crate::settings::ca::CaCerts;
#[cfg(test)]
use crate::settings::checks::mask_credentials;
use crate::settings::checks::validate_base_url;
use crate::settings::given::Given;
use crate::settings::layers::Layered;
use crate::settings::proxy::ProxyChoice;
use crate::settings::secret::ApiKey;
use crate::settings::usage;

pub const DEFAULT_JOBS: usize = 8;
pub const DEFAULT_MAX_BODY: u64 = 4 * 1024 * 1024;
pub const DEFAULT_WAIT_TIMEOUT: Duration = Duration::from_secs(600);
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(2);

/// What the HTTP client needs, and nothing else: the service, the key, the bounds on
/// every request, trust, the route and the pace.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// Validated http(s) URL without a trailing slash.
    pub base_url: String,
    pub api_key: Option<ApiKey>,
    pub api_key_header: HeaderName,
    pub timeout: Duration,
    pub retries: u32,
    pub paths: PathStyle,
    pub max_body: u64,
    /// `--ca-cert`: the only roots trusted for https; None means the built-in ones.
    pub ca_certs: Option<CaCerts>,
    /// The proxy from the environment for this base URL; None: direct.
    pub proxy: Option<ProxyChoice>,
    /// `--rate`: the least spacing between request starts; None: no limit.
    pub rate_interval: Option<Duration>,
    /// `-v`: each request traced on stderr (`-vv`: its headers too).
    pub verbose: u8,
    /// `--mask-msisdn`: phone numbers masked in every answer shown.
    pub mask_msisdn: bool,
}

/// What the output reads: stdout's format and shape, how tables look, what goes to
/// stderr (warnings, progress, the summary) and the `--junit` file. Read by
/// `run/lookups.rs` (the printer's `PrintStyle`, the progress bar and live view, the
/// summary), `run/problems.rs` (warnings) and `run/worker.rs` (what an outcome keeps
/// for the format that prints it).
#[derive(Debug, Clone)]
pub struct OutputSettings {
    /// `-o`/`--json`, `SMSSTAT_OUTPUT` or the config file's `output`; else the table.
    pub format: OutputFormat,
    /// `--fields`: the columns or JSON keys shown, as the records of the kind name them.
    pub fields: Vec<String>,
    /// `--field`: only this field's bare value, one line per lookup.
    pub field: Option<String>,
    /// `--normalize`: typed, uniform JSON records.
    pub normalize: bool,
    /// Colour on stdout: `--color`, `NO_COLOR` and friends, and whether it is a
    /// terminal (`use_color`).
    pub color: bool,
    /// Box-drawing characters in tables (ASCII when the locale is not UTF-8).
    pub utf8: bool,
    /// The terminal's width for tables: `COLUMNS`, else stdout's terminal size;
    /// None when stdout is not a terminal and `COLUMNS` is unset.
    pub width: Option<usize>,
    /// Whether stderr is a terminal: the progress bar, live view and summary go there.
    pub stderr_is_terminal: bool,
    /// `--raw-cells`: CSV/TSV cells without formula neutralisation.
    pub raw_cells: bool,
    /// `--no-headers`: table, CSV and TSV without their header line.
    pub no_headers: bool,
    /// `-q`: no warnings, per-lookup lines or summary on stderr.
    pub quiet: bool,
    /// `--junit PATH`: a JUnit XML file with one test case per lookup.
    pub junit: Option<std::path::PathBuf>,
    /// `--metrics PATH`: the batch as Prometheus metrics.
    pub metrics: Option<std::path::PathBuf>,
}

/// Waiting and expectations: how each lookup is watched until its record is final,
/// and what the final record must be. Read by `run/worker.rs` (polls, `--follow`
/// lines, verdicts), `run/lookups.rs` (the live view, the engine's bound on lookups
/// under way) and `run/problems.rs` (statuses it does not know).
#[derive(Debug, Clone)]
pub struct WatchSettings {
    /// `--wait` settings; None without `--wait`.
    pub wait: Option<WaitSettings>,
    /// `--follow`: a JSON line per observed change, printed by the workers.
    pub follow: bool,
    /// `--until`: statuses that count as final (with or without `--wait`).
    pub until: Vec<String>,
    /// `--expect` and `--expect-delivered`: what decides the verdict.
    pub expect: Expectation,
}

/// How the batch runs. Read by `run/lookups.rs` (the workers, within the open-file
/// limit), `run/worker.rs` (the early stop) and `http/` through `Client::new` (one
/// agent per worker).
#[derive(Debug, Clone)]
pub struct BatchSettings {
    /// `-j`: how many requests run at once (before the open-file limit lowers it).
    pub jobs: usize,
    /// `--keep-going`: no early stop after a refused account or connection.
    pub keep_going: bool,
}

/// The resolved settings, grouped by who reads them.
#[derive(Debug, Clone)]
pub struct Config {
    pub http: HttpSettings,
    pub output: OutputSettings,
    pub watch: WatchSettings,
    pub batch: BatchSettings,
}

impl HttpSettings {
    /// The host a configured key goes to in clear: plain http beyond loopback,
    /// where anyone on the path can read it.
    pub fn key_in_clear_to(&self) -> Option<String> {
        self.api_key.as_ref()?;
        let uri = self.base_url.parse::<Uri>().ok()?;
        let host = uri.host().unwrap_or("");
        let clear = uri.scheme_str() == Some("http") && !super::proxy::is_loopback_host(host);
        clear.then(|| host.to_string())
    }
}

/// Resolves the command line. `base_url_override` is the `--demo` simulator's address.
///
/// For a lookup of `kind`, the settings are checked for it too (exit 64): field
/// names are resolved to the keys of its records, and options that would do nothing
/// together are refused. The `Config` returned is final: nothing changes it after.
pub fn construct_config(
    args: &Given,
    values: &Layered,
    base_url_override: Option<String>,
    kind: Option<LookupKind>,
) -> Result<Config, SettingsError> {
    let demo = base_url_override.is_some();
    let base_url = resolve_base_url(base_url_override.or_else(|| values.base_url.clone()))?;
    let proxy = crate::settings::proxy::resolve(&base_url, demo, |name| env::var(name).ok())?;
    let (api_key, api_key_header) = resolve_key(values)?;
    let Limits {
        jobs,
        max_body,
        retries,
        timeout,
    } = resolve_limits(args, values);
    let output = values.output;
    // Field names as the records of the kind looked up name them (`status`, `Status`
    // and `Delivery report` alike).
    let (fields, field) = match kind {
        Some(kind) => {
            let record = kind.record_kind();
            let field = args
                .field
                .as_ref()
                .map(|f| usage::resolve_names(record, std::slice::from_ref(f)));
            (
                usage::resolve_names(record, &args.fields).map_err(SettingsError::Usage)?,
                field
                    .transpose()
                    .map_err(SettingsError::Usage)?
                    .and_then(|mut one| one.pop()),
            )
        }
        None => (args.fields.clone(), args.field.clone()),
    };
    let config = Config {
        http: HttpSettings {
            base_url,
            api_key: api_key.map(ApiKey::new),
            api_key_header,
            timeout,
            retries,
            paths: args.paths,
            max_body,
            ca_certs: values.ca_cert.as_deref().map(CaCerts::load).transpose()?,
            proxy,
            rate_interval: args.rate_interval(),
            verbose: args.verbose,
            mask_msisdn: args.mask_msisdn,
        },
        output: OutputSettings {
            format: output,
            fields,
            field,
            normalize: args.normalize,
            color: use_color(args.color, std::io::stdout().is_terminal()),
            utf8: locale_is_utf8(),
            width: terminal_width(),
            stderr_is_terminal: std::io::stderr().is_terminal(),
            raw_cells: args.raw_cells,
            no_headers: args.no_headers,
            quiet: args.quiet,
            junit: args.junit.clone(),
            metrics: args.metrics.clone(),
        },
        watch: WatchSettings {
            wait: args.wait.then(|| WaitSettings {
                timeout: args.wait_timeout.unwrap_or(DEFAULT_WAIT_TIMEOUT),
                interval: args.interval.unwrap_or(DEFAULT_INTERVAL),
                until: lowercase(&args.until),
            }),
            follow: args.follow,
            until: lowercase(&args.until),
            expect: Expectation {
                statuses: lowercase(&args.expect),
                delivered_ratio: args.expect_delivered,
            },
        },
        batch: BatchSettings {
            jobs,
            keep_going: args.keep_going,
        },
    };
    if let Some(kind) = kind {
        check_for_lookups(&config, kind).map_err(SettingsError::Usage)?;
    }
    Ok(config)
}

/// The usage checks of a lookup's settings: what the output format allows (it may
/// come from the config file), and options that make no sense together.
fn check_for_lookups(config: &Config, kind: LookupKind) -> Result<(), String> {
    let output = &config.output;
    usage::check_normalize(output.normalize, output.format, config.watch.follow)?;
    let field = output.field.is_some();
    usage::check_no_headers(output.no_headers, output.format, field)?;
    usage::check_raw_cells(output.raw_cells, output.format, field)?;
    check_combinations(config, kind)
}

/// Options that make no sense together are usage errors, not silently ignored.
fn check_combinations(config: &Config, kind: LookupKind) -> Result<(), String> {
    let (output, watch) = (&config.output, &config.watch);
    let delimited = matches!(output.format, OutputFormat::Csv | OutputFormat::Tsv);
    if watch.follow && (output.field.is_some() || delimited) {
        return Err(
            "--follow prints JSON lines; it does not combine with -o csv/tsv or --field".into(),
        );
    }
    if output.format.is_report() {
        let shaping = [
            (watch.follow, "--follow"),
            (!output.fields.is_empty(), "--fields"),
            (output.no_headers, "--no-headers"),
            (output.raw_cells, "--raw-cells"),
        ];
        if let Some((_, flag)) = shaping.iter().find(|(given, _)| *given) {
            return Err(format!(
                "{flag} shapes the records printed; -o report, report-json, report-md and \
                 prometheus print one report over the batch instead"
            ));
        }
    }
    let (expect, until) = (&watch.expect, &watch.until);
    let task = kind == LookupKind::Task;
    if task && !expect.statuses.is_empty() {
        return Err(
            "--expect applies to sms and hlr lookups; for tasks use --expect-delivered RATIO"
                .into(),
        );
    }
    if task && !until.is_empty() {
        return Err(
            "--until applies to sms and hlr lookups; a task is final when nothing is pending"
                .into(),
        );
    }
    if !task && expect.delivered_ratio.is_some() {
        return Err(
            "--expect-delivered applies to task lookups; for sms and hlr use --expect STATUS"
                .into(),
        );
    }
    Ok(())
}

fn resolve_base_url(url: Option<String>) -> Result<String, ConfigError> {
    match url {
        Some(url) => validate_base_url(&url),
        None => Err(ConfigError(
            "no service address: set SMSSTAT_BASE_URL or pass --base-url \
             (e.g. https://gateway.example/rest), or try --demo"
                .into(),
        )),
    }
}

/// The key (empty means none) and the header that carries it, both checked to be
/// sendable, so no request fails on them later.
fn resolve_key(values: &Layered) -> Result<(Option<String>, HeaderName), ConfigError> {
    let api_key = values.api_key.clone().filter(|k| !k.is_empty());
    if let Some(key) = &api_key {
        HeaderValue::from_str(key).map_err(|_| {
            ConfigError("the API key contains characters a header cannot carry".into())
        })?;
    }
    let header_name = values.api_key_header.as_str();
    let api_key_header = HeaderName::from_bytes(header_name.as_bytes()).map_err(|_| {
        ConfigError(format!(
            "`{}` is not a valid header name for the API key (set by --api-key-header, \
             SMSSTAT_API_KEY_HEADER or api_key_header in the config file)",
            crate::domain::sanitize::escape_control(header_name)
        ))
    })?;
    Ok((api_key, api_key_header))
}

struct Limits {
    jobs: usize,
    max_body: u64,
    retries: u32,
    timeout: Duration,
}

/// The limits, checked already: `--jobs` and `--max-body` by clap, timeout and
/// retries where the layers know their source (`settings::checks`).
fn resolve_limits(args: &Given, values: &Layered) -> Limits {
    Limits {
        jobs: args.jobs.unwrap_or(DEFAULT_JOBS),
        max_body: args.max_body.unwrap_or(DEFAULT_MAX_BODY),
        retries: values.retries,
        timeout: values.timeout,
    }
}

fn lowercase(values: &[String]) -> Vec<String> {
    values
        .iter()
        .map(|v| v.trim().to_ascii_lowercase())
        .filter(|v| !v.is_empty())
        .collect()
}

/// `COLUMNS` first (a user or script fixing the width), else the terminal's own.
pub(crate) fn terminal_width() -> Option<usize> {
    let columns = env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok());
    columns
        .filter(|&c: &usize| c > 0)
        .or_else(|| comfy_table::Table::new().width().map(usize::from))
        .filter(|&c| c >= 20)
}

/// The first of LC_ALL, LC_CTYPE, LANG that is set decides, as in POSIX.
pub(crate) fn locale_is_utf8() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|name| env::var(name).ok().filter(|v| !v.is_empty()))
        .is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// `--color` wins; in auto mode NO_COLOR, CLICOLOR=0 and TERM=dumb turn colour off,
/// CLICOLOR_FORCE on, and otherwise only a terminal gets colour.
pub fn use_color(choice: ColorChoice, stdout_is_terminal: bool) -> bool {
    // no-color.org: NO_COLOR set to anything non-empty (even "0") means no colour;
    // CLICOLOR_FORCE forces it unless empty or "0" (bixense.com/clicolors).
    let no_color = env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
        || env::var_os("CLICOLOR").is_some_and(|v| v == "0")
        || env::var_os("TERM").is_some_and(|v| v == "dumb");
    let force = env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if no_color => false,
        ColorChoice::Auto if force => true,
        ColorChoice::Auto => stdout_is_terminal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_with_prefix_and_slash() {
        assert_eq!(
            validate_base_url("https://h.example/rest/").unwrap(),
            "https://h.example/rest"
        );
        assert_eq!(
            validate_base_url("http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert!(validate_base_url("http://[::1]:8080/rest").is_ok());
        assert!(validate_base_url("HTTPS://H.example/rest").is_ok());
    }

    #[test]
    fn bad_base_urls_are_refused() {
        for url in [
            "http://127.0.0.1:0",
            "http://127.0.0.1:99999",
            "http://h:/x",
            "HTTP://h:notaport/",
            "ftp://h/x",
            "h.example/rest",
            "",
            "https://",
            "http://u:p@h/",
            "http://h/?a=1",
            "http://h/#x",
        ] {
            assert!(validate_base_url(url).is_err(), "{url} accepted");
        }
    }

    #[test]
    fn credentials_are_refused_without_being_echoed() {
        for url in [
            "https://user:s3cr3t@h.example/rest",
            "https://s3cr3t@h.example",
            "https://h.example/rest?api_key=s3cr3t",
            "https://us er:s3cr3t@h.example:port/",
        ] {
            let message = validate_base_url(url).unwrap_err().0;
            assert!(!message.contains("s3cr3t"), "{message}");
            assert!(message.contains("credentials in the base URL"), "{message}");
            assert!(!message.contains("the port"), "{message}");
            assert!(!mask_credentials(url).contains("s3cr3t"), "{url}");
        }
    }

    #[test]
    fn credentials_are_masked_for_display() {
        assert_eq!(
            mask_credentials("https://user:s3cretpw@gw.example/rest?api_key=s3cretpw"),
            "https://****@gw.example/rest?****"
        );
        assert_eq!(mask_credentials("http://h/x?k=v#f"), "http://h/x?****#f");
        assert_eq!(mask_credentials("http://h:8/x"), "http://h:8/x");
    }
}

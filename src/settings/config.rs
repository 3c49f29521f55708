//! The parsed command line resolved once into a `Config`: defaults, environment,
//! terminal and colour decisions all happen here, and nowhere else.

use std::env;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use ureq::http::{HeaderName, Uri};

use crate::domain::error::{ConfigError, SettingsError};
use crate::domain::format::{ColorChoice, OutputFormat, PrintStyle, TableStyle};
use crate::domain::lookup::{LookupKind, PathStyle};
use crate::domain::verdict::{Expectation, WaitSettings};
use crate::settings::ca::CaCerts;
use crate::settings::checks::{
    self, parse_bool, parse_interval, parse_max_body, parse_wait_timeout,
};
use crate::settings::given::Given;
use crate::settings::layers::{Layers, Sourced};
use crate::settings::origin::Origin;
use crate::settings::proxy::{self, ProxyChoice};
use crate::settings::secret::ApiKey;
use crate::settings::usage;

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
    pub verbose: u8,
    pub mask_msisdn: bool,
}

/// What the output reads: stdout's format and shape, how tables look, what goes to
/// stderr (warnings, progress, the summary) and the files written beside it.
#[derive(Debug, Clone)]
pub struct OutputSettings {
    pub style: PrintStyle,
    /// Whether stderr is a terminal: the progress bar, live view and summary go there.
    pub stderr_is_terminal: bool,
    pub quiet: bool,
    pub junit: Option<PathBuf>,
    pub metrics: Option<PathBuf>,
}

/// Waiting and expectations: how each lookup is watched until its record is final,
/// and what the final record must be.
#[derive(Debug, Clone)]
pub struct WatchSettings {
    /// None without `--wait`.
    pub wait: Option<WaitSettings>,
    pub follow: bool,
    pub until: Vec<String>,
    pub expect: Expectation,
}

#[derive(Debug, Clone)]
pub struct BatchSettings {
    /// `-j` (before the open-file limit lowers it).
    pub jobs: usize,
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

/// A command's settings from the config file and every layer, usage checked (exit 64;
/// a lookup of `kind` by its own checks too); `demo_url` is the `--demo` simulator's
/// address. The warnings are for stderr.
pub fn resolve(
    args: &Given,
    demo_url: Option<String>,
    kind: Option<LookupKind>,
) -> Result<(Config, Vec<String>), SettingsError> {
    let mut layers = Layers::open(args)?;
    let config = Config::resolve(&mut layers, args, demo_url, kind)?;
    Ok((config, layers.warnings))
}

impl Config {
    /// Each group from the layers, in an order that picks every setting before a
    /// value found unusable stops it (so `config show` can still list them all).
    pub fn resolve(
        layers: &mut Layers,
        args: &Given,
        demo_url: Option<String>,
        kind: Option<LookupKind>,
    ) -> Result<Config, SettingsError> {
        usage::check_options(args).map_err(SettingsError::Usage)?;
        // `--json` is `-o json`; `config show` and `check` take it for themselves.
        let format = if args.json {
            layers.row("output", "json".into(), Origin::Flag("--json".into()));
            OutputFormat::json()
        } else {
            layers.value("output", args.output, checks::output, "table")?
        };
        let color: ColorChoice = layers.value("color", args.color, checks::value_enum, "auto")?;
        let style = PrintStyle {
            format,
            fields: args.fields.clone(),
            field: args.field.clone(),
            normalize: args.normalize,
            table: TableStyle {
                color: use_color(color, std::io::stdout().is_terminal()),
                utf8: locale_is_utf8(),
                width: terminal_width(),
            },
            single: false,
            raw_cells: args.raw_cells,
            no_headers: args.no_headers,
            waited: args.wait,
        };
        let mut output = OutputSettings {
            style,
            stderr_is_terminal: std::io::stderr().is_terminal(),
            quiet: args.quiet,
            junit: args.junit.clone(),
            metrics: args.metrics.clone(),
        };
        let batch = BatchSettings {
            jobs: layers.value("jobs", args.jobs, checks::parse_jobs, "8")?,
            keep_going: args.keep_going,
        };
        let timeout = layers.value("wait_timeout", args.wait_timeout, parse_wait_timeout, "10m")?;
        let interval = layers.value("interval", args.interval, parse_interval, "2s")?;
        // Trimmed, in lower case and never empty: `checks::parse_status` parsed them.
        let watch = WatchSettings {
            wait: args.wait.then(|| WaitSettings {
                timeout,
                interval,
                until: args.until.clone(),
            }),
            follow: args.follow,
            until: args.until.clone(),
            expect: Expectation {
                statuses: args.expect.clone(),
                delivered_ratio: args.expect_delivered,
            },
        };
        if let Some(kind) = kind {
            check_lookup(kind, &mut output.style, &watch).map_err(SettingsError::Usage)?;
        }
        let http = HttpSettings::resolve(layers, args, demo_url)?;
        Ok(Config {
            http,
            output,
            watch,
            batch,
        })
    }
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

    fn resolve(
        layers: &mut Layers,
        args: &Given,
        demo_url: Option<String>,
    ) -> Result<HttpSettings, SettingsError> {
        let base_url = match demo_url {
            Some(url) => Some(Sourced::new(url, Origin::Demo)),
            // Checked once picked, below.
            None => layers.pick("base_url", args.base_url.clone(), |url| Ok(url.into()))?,
        };
        let api_key = layers.api_key(args)?;
        let header = args.api_key_header.clone();
        let header = layers.value("api_key_header", header, checks::key_header, "X-API-KEY")?;
        let ca_cert = layers.optional("ca_cert", args.ca_cert.clone(), checks::path)?;
        let timeout = layers.value("timeout", args.timeout, checks::timeout, "10s")?;
        let retries = layers.value("retries", args.retries, checks::retries, "2")?;
        let paths = layers.value("paths", args.paths, checks::value_enum, "auto")?;
        let max_body = layers.value("max_body", args.max_body, parse_max_body, "4194304")?;
        let mask_msisdn = layers.value("mask_msisdn", args.mask_msisdn, parse_bool, "false")?;
        let rate = layers.optional("rate", args.rate, checks::parse_rate)?;
        // Checked once every setting is picked: `config show` lists them all.
        let Some(base_url) = base_url else {
            layers.row("base_url", "(not set)".into(), Origin::Default);
            let why = "no service address: set SMSSTAT_BASE_URL or pass --base-url \
                       (e.g. https://gateway.example/rest), or try --demo";
            return Err(ConfigError(why.into()).into());
        };
        let demo = base_url.origin == Origin::Demo;
        let shown = match &base_url.value {
            _ if demo => "(the built-in simulator, on a free loopback port)".into(),
            // Masked, as it is refused: the listing ends in exit 78.
            url if checks::has_credentials(url) => {
                let masked = checks::mask_credentials(url);
                format!("{masked} (refused: credentials in the URL)")
            }
            url => url.clone(),
        };
        layers.row("base_url", shown, base_url.origin.clone());
        let url = checks::validate_base_url(&base_url.value)
            .map_err(|err| layers.unusable(&base_url.origin, "base_url", err.0))?;
        let ca_certs = ca_cert.map(|path| {
            let unusable = |err: ConfigError| layers.unusable(&path.origin, "ca_cert", err.0);
            CaCerts::load(&layers.placed(&path)).map_err(unusable)
        });
        let ca_certs = ca_certs.transpose()?;
        let proxy = proxy::resolve(&url, demo, |name| env::var(name).ok())?;
        Ok(HttpSettings {
            base_url: url,
            api_key: api_key.map(ApiKey::new),
            api_key_header: HeaderName::from_bytes(header.as_bytes())
                .expect("checked by checks::key_header"),
            timeout,
            retries,
            paths,
            max_body,
            ca_certs,
            proxy,
            rate_interval: rate.map(|rate| rate.value.per / rate.value.requests),
            verbose: args.verbose,
            mask_msisdn,
        })
    }
}

/// A lookup's usage checks: its field names and statuses, then each option paired with
/// what makes it do nothing (the format may come from the file); the first is refused.
fn check_lookup(
    kind: LookupKind,
    output: &mut PrintStyle,
    watch: &WatchSettings,
) -> Result<(), String> {
    // Field names as the records of the kind name them (`status`, `Status` and
    // `Delivery report` alike).
    let record = kind.record_kind();
    let resolve = |name: &String| usage::resolve_name(record, name);
    let fields = output.fields.iter().map(resolve);
    output.fields = fields.collect::<Result<_, _>>()?;
    output.field = output.field.as_ref().map(resolve).transpose()?;
    usage::check_statuses(record, "--until", &watch.until)?;
    usage::check_statuses(record, "--expect", &watch.expect.statuses)?;
    let (format, field) = (output.format, output.field.is_some());
    let task = kind == LookupKind::Task;
    let shaping = [
        (watch.follow, "--follow"),
        (!output.fields.is_empty(), "--fields"),
        (output.no_headers, "--no-headers"),
        (output.raw_cells, "--raw-cells"),
    ];
    let shaping = shaping.iter().find(|s| s.0 && format.is_report());
    let flag = shaping.map_or("", |s| s.1);
    let report = format!(
        "{flag} shapes the records printed; -o report, report-json, report-md and \
         prometheus print one report over the batch instead"
    );
    let refused = [
        (
            output.normalize && !format.is_json_lines() && !watch.follow,
            // report-json is JSON too, but of the batch, not of records: named as well.
            "--normalize shapes JSON records; it does nothing with table, csv, \
             tsv or report output (report, report-json, report-md; add --json)",
        ),
        (
            output.no_headers && (format.is_json_lines() || field),
            "--no-headers applies to table, csv and tsv output; JSON lines and \
             --field values have no header",
        ),
        (
            // The report forms refuse it in their own words, below.
            output.raw_cells && (field || !format.is_delimited()) && !format.is_report(),
            "--raw-cells applies to -o csv and -o tsv; table, JSON and --field output \
             print no formula guard to leave out",
        ),
        (
            watch.follow && (field || format.is_delimited()),
            "--follow prints JSON lines; it does not combine with -o csv/tsv or --field",
        ),
        (shaping.is_some(), report.as_str()),
        (
            task && !watch.expect.statuses.is_empty(),
            "--expect applies to sms and hlr lookups; for tasks use --expect-delivered RATIO",
        ),
        (
            task && !watch.until.is_empty(),
            "--until applies to sms and hlr lookups; a task is final when nothing is pending",
        ),
        (
            !task && watch.expect.delivered_ratio.is_some(),
            "--expect-delivered applies to task lookups; for sms and hlr use --expect STATUS",
        ),
    ];
    let first = refused.into_iter().find(|(wrong, _)| *wrong);
    first.map_or(Ok(()), |(_, why)| Err(why.to_string()))
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
    let set = |name| env::var(name).ok().filter(|v: &String| !v.is_empty());
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].into_iter().find_map(set);
    let locale = locale.unwrap_or_default().to_ascii_lowercase();
    locale.contains("utf-8") || locale.contains("utf8")
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
        ColorChoice::Auto => !no_color && (force || stdout_is_terminal),
    }
}

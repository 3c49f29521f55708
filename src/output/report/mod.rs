//! `-o report`: what a batch came to, for people (`report`), scripts
//! (`report-json`) and CI job summaries (`report-md`). Lookups are folded in as
//! they finish and then forgotten, so memory stays flat however many there are.

mod draw;
mod json;
mod money;
mod section;
mod stats;

use crate::domain::exit_codes::STILL_PENDING;
use crate::domain::format::TableStyle;
use crate::domain::outcome::Outcome;
use crate::domain::record::{lenient_bool, plain_text, Record, RecordKind};
use crate::domain::sanitize::escape_cut;
use crate::domain::status::{self, Phase};
use crate::domain::task::TaskCounters;
use crate::domain::timestamp::{seconds_between, timestamp};
use crate::output::derived::{delivery_latency, named_network, network};
use crate::output::summary::failure_label;
use crate::output::taskbar;

use money::Money;
use stats::{Counts, Durations, Top};

/// How many lookups the "slowest", "oldest pending" and "lowest delivery rate"
/// lists name.
const LISTED: usize = 5;
/// Networks named one by one; the rest are "other".
const TOP_NETWORKS: usize = 10;
/// Distinct labels kept per count (servers choose the labels).
const MAX_LABELS: usize = 64;
const MAX_NETWORKS: usize = 4096;
/// Queries and statuses named in the report are cut to this many characters.
const MAX_SHOWN: usize = 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportForm {
    Text,
    Json,
    Markdown,
}

pub struct Report {
    kind: RecordKind,
    records: u64,
    statuses: Counts,
    failures: Counts,
    /// Records with a verdict: they make the exit code, so the report says them.
    verdicts: Verdicts,
    /// Milliseconds each lookup took, polls of `--wait` included: one per lookup.
    lookup_ms: Durations,
    slowest: Top<u64, String>,
    prices: Money,
    sms: SmsPart,
    hlr: HlrPart,
    tasks: TaskPart,
    /// Under `--wait`: milliseconds until a record was final.
    until_final_ms: Option<Durations>,
}

/// Records whose verdict failed the lookup, by verdict.
#[derive(Default, Clone, Copy)]
struct Verdicts {
    /// Not final (exit 81): at the `--wait` deadline, or with `--expect` and no `--wait`.
    still_pending: u64,
    /// Final, but not what `--expect`/`--expect-delivered` asked for (exit 80).
    unmet: u64,
    /// A signal stopped the wait; the record is the last state seen.
    interrupted: u64,
}

#[derive(Default)]
struct SmsPart {
    /// Seconds from `time_in` to `time_sent`, and to `time_dr`.
    send_latency: Durations,
    delivery_latency: Durations,
    /// Still-pending SMS by how early they came in (the key is -time_in: largest, oldest).
    oldest_pending: Top<i64, Pending>,
}

struct Pending {
    query: String,
    status: String,
    time_in: String,
}

struct HlrPart {
    /// By network code (MCC+MNC), named as first seen.
    networks: Counts,
    ported: Share,
    roaming: Share,
}

/// How many records say yes, of those that say.
#[derive(Default, Clone, Copy)]
struct Share {
    yes: u64,
    known: u64,
}

#[derive(Default)]
struct TaskPart {
    tasks: u64,
    messages: i64,
    /// Summed as [`taskbar::COUNTERS`] names them.
    counters: [i64; 5],
    /// Tasks by lowest delivery rate (the key is the negated rate in millionths).
    lowest_rate: Top<i64, LowRate>,
}

struct LowRate {
    query: String,
    delivered: i64,
    messages: i64,
}

impl Report {
    pub fn new(kind: RecordKind, waited: bool) -> Report {
        Report {
            kind,
            records: 0,
            statuses: Counts::new(MAX_LABELS),
            failures: Counts::new(MAX_LABELS),
            verdicts: Verdicts::default(),
            lookup_ms: Durations::default(),
            slowest: Top::default(),
            prices: Money::default(),
            sms: SmsPart::default(),
            hlr: HlrPart {
                networks: Counts::new(MAX_NETWORKS),
                ported: Share::default(),
                roaming: Share::default(),
            },
            tasks: TaskPart::default(),
            until_final_ms: waited.then(Durations::default),
        }
    }

    pub fn add(&mut self, outcome: &Outcome) {
        let ms = u64::try_from(outcome.elapsed.as_millis()).unwrap_or(u64::MAX);
        self.lookup_ms.record(ms);
        self.slowest.offer(ms, || shown(&outcome.query));
        let Ok(record) = &outcome.result else {
            // A failed lookup always has a label.
            self.failures
                .add(&failure_label(outcome).unwrap_or_default());
            return;
        };
        self.records += 1;
        self.add_verdict(outcome, ms);
        self.add_price(record);
        let status = record.status().unwrap_or("").trim();
        if record.kind != RecordKind::Task {
            self.statuses.add(&status_label(status));
        }
        match record.kind {
            RecordKind::Sms => self.add_sms(record, status, &outcome.query),
            RecordKind::Hlr => self.add_hlr(record),
            RecordKind::Task => self.add_task(record, &outcome.query),
        }
    }

    /// Counts the record's verdict; under `--wait`, only a record that was final (not
    /// pending at the deadline, nor cut short by a signal) counts to the time until final.
    fn add_verdict(&mut self, outcome: &Outcome, ms: u64) {
        let verdicts = &mut self.verdicts;
        let (count, final_now) = match &outcome.verdict {
            None => (None, true),
            Some(v) if v.interrupted() => (Some(&mut verdicts.interrupted), false),
            Some(v) if v.code == STILL_PENDING => (Some(&mut verdicts.still_pending), false),
            Some(_) => (Some(&mut verdicts.unmet), true),
        };
        if let Some(count) = count {
            *count += 1;
        }
        if let (true, Some(until_final)) = (final_now, &mut self.until_final_ms) {
            until_final.record(ms);
        }
    }

    fn add_price(&mut self, record: &Record) {
        let price = record.get("price").or_else(|| record.get("totalprice"));
        let currency = record.get("currency").map(plain_text);
        if let (Some(price), Some(currency)) = (price, currency) {
            self.prices.add(&shown(currency.trim()), price);
        }
    }

    fn add_sms(&mut self, record: &Record, status: &str, query: &str) {
        let part = &mut self.sms;
        if let Some(seconds) = seconds_between(record, "time_in", "time_sent") {
            part.send_latency.record(seconds.unsigned_abs());
        }
        if let Some(seconds) = delivery_latency(record) {
            part.delivery_latency.record(seconds.unsigned_abs());
        }
        let pending = status::phase(RecordKind::Sms, status) == Phase::Pending;
        let came_in = record.get("time_in").filter(|_| pending);
        if let (Some(came_in), Some(at)) = (came_in, came_in.and_then(timestamp)) {
            part.oldest_pending.offer(-at, || Pending {
                query: shown(query),
                status: status_label(status),
                time_in: shown(&plain_text(came_in)),
            });
        }
    }

    fn add_hlr(&mut self, record: &Record) {
        // v1 names the network: grouped by that name, shown with its country.
        let named =
            || named_network(record).map(|(name, country)| (name.clone(), country, Some(name)));
        if let Some((key, country, operator)) = network(record).or_else(named) {
            self.hlr
                .networks
                .add_named(&key, || network_name(&key, country, operator));
        }
        let flag = |name: &str| {
            let details = record.get("details").and_then(|d| d.get(name));
            details.or_else(|| record.get(name)).and_then(lenient_bool)
        };
        for (share, name) in [
            (&mut self.hlr.ported, "ported"),
            (&mut self.hlr.roaming, "roaming"),
        ] {
            if let Some(yes) = flag(name) {
                share.known += 1;
                share.yes += u64::from(yes);
            }
        }
    }

    fn add_task(&mut self, record: &Record, query: &str) {
        let Some(counters) = TaskCounters::of(record) else {
            return;
        };
        let part = &mut self.tasks;
        part.tasks += 1;
        part.messages = part.messages.saturating_add(counters.messages());
        for (sum, value) in part.counters.iter_mut().zip(taskbar::counts(&counters)) {
            *sum = sum.saturating_add(value);
        }
        if let Some(ratio) = counters.delivered_ratio() {
            part.lowest_rate
                .offer(-(ratio * 1e6).round() as i64, || LowRate {
                    query: shown(query),
                    delivered: counters.delivered(),
                    messages: counters.messages(),
                });
        }
    }

    /// The report in the chosen form, drawn as tables are.
    pub fn text(&self, form: ReportForm, style: TableStyle) -> String {
        match form {
            ReportForm::Json => format!("{:#}\n", json::report(self)),
            ReportForm::Markdown => draw::markdown(&section::shape(self)),
            ReportForm::Text => draw::terminal(&section::shape(self), style),
        }
    }
}

/// A status as a label: the empty status is named, not left blank.
fn status_label(status: &str) -> String {
    shown(if status.is_empty() { "(none)" } else { status })
}

/// Server text in the report: escaped and cut like every other output.
fn shown(text: &str) -> String {
    escape_cut(text, MAX_SHOWN).into_owned()
}

/// `Ukraine / Kyivstar`: a network's country and operator, as tables decode them;
/// the code itself when neither is known.
fn network_name(code: &str, country: Option<String>, operator: Option<String>) -> String {
    let name = match (country, operator) {
        (Some(country), Some(operator)) => format!("{country} / {operator}"),
        (Some(country), None) => country,
        (None, _) => code.to_owned(),
    };
    shown(&name)
}

#[cfg(test)]
mod tests;

//! The sections particular to each kind of record: latencies and pending SMS,
//! HLR networks and flags, summed task counters.

use super::section::{durations_row, list_note, Notes, Section};
use super::section::{histogram, percent, seconds, share_text, whole_unit};
use super::stats::SECOND_BUCKETS;
use super::{Report, TaskPart, COUNTERS, TOP_NETWORKS};
use crate::domain::status::Tone;
use crate::output::derived::is_network_code;

pub(super) fn sms_sections(report: &Report, sections: &mut Vec<Section>, notes: &mut Notes) {
    let part = &report.sms;
    let mut latency = Section::new(vec!["Latency", "Count", "p50", "p90", "p99", "Max"]);
    let row = |name, latency| durations_row(name, latency, seconds);
    latency.row(row("send", &part.send_latency), None);
    latency.row(row("delivery", &part.delivery_latency), None);
    sections.push(latency);
    for (title, latency) in [
        ("Send latency", &part.send_latency),
        ("Delivery latency", &part.delivery_latency),
    ] {
        if latency.count() > 0 {
            sections.push(histogram(title, latency, SECOND_BUCKETS, whole_unit));
        }
    }
    let oldest = part.oldest_pending.entries().iter();
    let oldest = oldest.map(|(_, p)| format!("{} ({} since {})", p.query, p.status, p.time_in));
    list_note(notes, "Oldest still pending", oldest);
}

pub(super) fn hlr_sections(report: &Report, sections: &mut Vec<Section>, notes: &mut Notes) {
    let part = &report.hlr;
    if part.networks.total() > 0 {
        sections.push(networks_section(report));
    }
    for (name, share) in [("Ported", part.ported), ("Roaming", part.roaming)] {
        notes.push((name.into(), share_text(share)));
    }
}

pub(super) fn task_sections(report: &Report, sections: &mut Vec<Section>, notes: &mut Notes) {
    let part = &report.tasks;
    if report.records > 0 {
        sections.push(task_counters(part));
    }
    notes.push(("Tasks".into(), part.tasks.to_string()));
    let lowest = part.lowest_rate.entries().iter().map(|(_, low)| {
        let rate = low.delivered as f64 / low.messages as f64;
        format!(
            "{} ({} of {})",
            low.query,
            percent(Some(rate)),
            low.messages
        )
    });
    list_note(notes, "Lowest delivery rate", lowest);
}

/// The summed counters of the tasks, as shares of their messages.
fn task_counters(part: &TaskPart) -> Section {
    let mut counters = Section::new(vec!["Messages", "Count", "Share"]);
    let of = u64::try_from(part.messages).unwrap_or(0);
    for ((name, tone), count) in COUNTERS.into_iter().zip(part.counters) {
        let count = u64::try_from(count).unwrap_or(0);
        counters.share_row(name.into(), count, of, tone);
    }
    counters.row(
        vec!["total".into(), part.messages.to_string(), String::new()],
        None,
    );
    counters
}

/// The commonest networks by code (`Russia / Beeline (25099)`), or by name where
/// the records name them (`Ukraine / Kyivstar`), then "(other)".
fn networks_section(report: &Report) -> Section {
    let networks = &report.hlr.networks;
    let of = networks.total();
    let mut section = Section::new(vec!["Network", "Count", "Share"]);
    for (code, name, count) in networks.ranked(TOP_NETWORKS) {
        // Named networks (v1) are grouped by their name: no code to add.
        let label = match code.filter(|code| is_network_code(code) && name != *code) {
            Some(code) => format!("{name} ({code})"),
            None => name.to_owned(),
        };
        section.share_row(label, count, of, Tone::Plain);
    }
    section
}

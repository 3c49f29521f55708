//! The command as the dynamic completion engine sees it (`COMPLETE=bash smsstat --
//! WORDS`): statuses and field names from the domain's tables, for the lookup's record
//! kind after one; profile names handed in by the caller, which may read files.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::sync::Arc;

use clap::Command;
use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};

use crate::domain::fields::FIELDS;
use crate::domain::lookup::LookupKind;
use crate::domain::record::RecordKind;
use crate::domain::status::{Phase, STATUSES};

/// The profile names to offer, read when `--profile` is completed and only then.
pub(crate) type ProfileNames = Arc<dyn Fn() -> Vec<String> + Send + Sync>;

type Offer = Box<dyn Fn() -> Vec<CompletionCandidate> + Send + Sync>;

/// `super::command()` (hidden globals are not offered) with completers at every level.
pub(crate) fn command(profiles: ProfileNames) -> Command {
    with_completers(super::command(), None, &profiles)
}

fn with_completers(cmd: Command, kind: Option<RecordKind>, profiles: &ProfileNames) -> Command {
    let cmd = cmd.mut_args(|arg| {
        let profiles = Arc::clone(profiles);
        let offer: Offer = match arg.get_id().as_str() {
            "profile" => Box::new(move || profiles().into_iter().map(Into::into).collect()),
            "expect" | "until" => Box::new(move || statuses(kind).collect()),
            "field" | "fields" => Box::new(move || fields(kind).collect()),
            _ => return arg,
        };
        // The engine leaves the filtering by what is typed to custom completers.
        arg.add(ArgValueCompleter::new(move |current: &OsStr| {
            let typed = current.to_string_lossy();
            let typed =
                |c: &CompletionCandidate| c.get_value().to_string_lossy().starts_with(&*typed);
            offer().into_iter().filter(typed).collect()
        }))
    });
    cmd.mut_subcommands(|sub| {
        // Below a lookup subcommand its record kind is known; `config show` and the
        // rest keep what their parent knew (nothing).
        let lookup = LookupKind::from_name(sub.get_name());
        let kind = lookup.map(LookupKind::record_kind).or(kind);
        with_completers(sub, kind, profiles)
    })
}

/// The named statuses, each once, with their kinds and phase as help (fish and zsh
/// show it).
fn statuses(kind: Option<RecordKind>) -> impl Iterator<Item = CompletionCandidate> {
    let mut helps: Vec<(&str, String)> = Vec::new();
    let listed = STATUSES.iter().filter(|s| kind.is_none_or(|k| k == s.kind));
    for s in listed.filter(|s| !s.name.is_empty()) {
        let phase = match s.phase {
            Phase::Final => "final",
            Phase::Pending => "pending",
        };
        let help = format!("{} {phase}", s.kind.name());
        match helps.iter_mut().find(|(name, _)| *name == s.name) {
            Some((_, of_name)) => *of_name += &format!(", {help}"),
            None => helps.push((s.name, help)),
        }
    }
    helps
        .into_iter()
        .map(|(name, help)| CompletionCandidate::new(name).help(Some(help.into())))
}

/// The field keys of a kind, or of every kind once, with their label as help.
fn fields(kind: Option<RecordKind>) -> impl Iterator<Item = CompletionCandidate> {
    let mut seen = HashSet::new();
    FIELDS
        .iter()
        .filter(move |f| kind.is_none_or(|k| k == f.kind))
        .filter(move |f| seen.insert(f.key))
        .map(|f| CompletionCandidate::new(f.key).help(Some(f.label.into())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(candidates: impl Iterator<Item = CompletionCandidate>) -> Vec<String> {
        let values = candidates.map(|c| c.get_value().to_string_lossy().into_owned());
        values.collect()
    }

    #[test]
    fn statuses_of_a_kind_or_all_once() {
        let hlr = values(statuses(Some(RecordKind::Hlr)));
        assert_eq!(
            hlr,
            [
                "active",
                "delivered",
                "undeliverable",
                "absent",
                "unknown",
                "failed",
                "sent"
            ]
        );
        let all = values(statuses(None));
        assert_eq!(all.iter().filter(|s| *s == "unknown").count(), 1);
        assert!(all.contains(&"delivered".into()) && all.contains(&"active".into()));
        assert!(values(statuses(Some(RecordKind::Task))).is_empty());
    }

    #[test]
    fn fields_of_a_kind_or_all_once() {
        let task = values(fields(Some(RecordKind::Task)));
        assert!(task.contains(&"delivery_rate".into()) && !task.contains(&"msisdn".into()));
        let all = values(fields(None));
        assert_eq!(all.iter().filter(|f| *f == "msisdn").count(), 1);
    }
}

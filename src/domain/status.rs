//! The one status table: every status smsstat knows, the kind of record that has
//! it, whether it is still pending or final, and the tone it is shown in. Waiting,
//! expectations, colours, typo warnings and the simulator all read it; a status not
//! listed is final (servers have their own).

use crate::domain::record::RecordKind;

/// Still on its way, or settled for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Pending,
    Final,
}

/// What a status value means, for colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Good,
    Bad,
    Doubtful,
    Pending,
    Plain,
}

/// One known status of one record kind.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Status {
    pub kind: RecordKind,
    pub name: &'static str,
    pub phase: Phase,
    pub tone: Tone,
}

const fn status(kind: RecordKind, name: &'static str, phase: Phase, tone: Tone) -> Status {
    Status {
        kind,
        name,
        phase,
        tone,
    }
}

use Phase::{Final, Pending as Waiting};
use RecordKind::{Hlr, Sms};

/// The simulator draws statuses in this order: keep it, or its data changes.
pub(crate) const STATUSES: &[Status] = &[
    status(Sms, "delivered", Final, Tone::Good),
    status(Sms, "undeliverable", Final, Tone::Bad),
    status(Sms, "expired", Final, Tone::Doubtful),
    // Final: the gateway lists it among the final ones, with time_dr set.
    status(Sms, "unknown", Final, Tone::Doubtful),
    status(Sms, "rejected", Final, Tone::Bad),
    status(Sms, "failed", Final, Tone::Bad),
    status(Sms, "sent", Waiting, Tone::Pending),
    status(Sms, "enroute", Waiting, Tone::Pending),
    status(Sms, "accepted", Waiting, Tone::Pending),
    status(Sms, "queued", Waiting, Tone::Pending),
    status(Sms, "scheduled", Waiting, Tone::Pending),
    status(Sms, "pending", Waiting, Tone::Pending),
    status(Sms, "", Waiting, Tone::Pending),
    status(Hlr, "active", Final, Tone::Good),
    status(Hlr, "absent", Final, Tone::Bad),
    status(Hlr, "unknown", Final, Tone::Doubtful),
    status(Hlr, "failed", Final, Tone::Bad),
    status(Hlr, "sent", Waiting, Tone::Pending),
    status(Hlr, "", Waiting, Tone::Pending),
];

/// The table's entry for a status of a kind, in any letter case and trimmed.
pub(crate) fn find(kind: RecordKind, name: &str) -> Option<&'static Status> {
    let name = name.trim();
    STATUSES
        .iter()
        .find(|s| s.kind == kind && s.name.eq_ignore_ascii_case(name))
}

/// Unknown statuses are final: waiting on a status nobody documented would never end.
pub(crate) fn phase(kind: RecordKind, name: &str) -> Phase {
    find(kind, name).map_or(Phase::Final, |s| s.phase)
}

pub(crate) fn is_known(kind: RecordKind, name: &str) -> bool {
    kind == RecordKind::Task || find(kind, name).is_some()
}

/// The tone of a status, whichever kind of record has it.
pub(crate) fn tone(name: &str) -> Tone {
    let name = name.trim();
    STATUSES
        .iter()
        .find(|s| !s.name.is_empty() && s.name.eq_ignore_ascii_case(name))
        .map_or(Tone::Plain, |s| s.tone)
}

/// The non-empty names of one kind in one phase, in table order.
pub(crate) fn names(kind: RecordKind, phase: Phase) -> impl Iterator<Item = &'static str> {
    STATUSES
        .iter()
        .filter(move |s| s.kind == kind && s.phase == phase && !s.name.is_empty())
        .map(|s| s.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_is_final_and_unlisted_statuses_too() {
        assert_eq!(phase(Sms, "unknown"), Final);
        assert_eq!(phase(Sms, " ENROUTE "), Waiting);
        assert_eq!(phase(Sms, ""), Waiting);
        assert_eq!(phase(Sms, "weird"), Final);
        assert_eq!(phase(Hlr, "sent"), Waiting);
        assert_eq!(phase(Hlr, "active"), Final);
    }

    #[test]
    fn tones() {
        assert_eq!(tone("delivered"), Tone::Good);
        assert_eq!(tone("ABSENT"), Tone::Bad);
        assert_eq!(tone("expired"), Tone::Doubtful);
        assert_eq!(tone("enroute"), Tone::Pending);
        assert_eq!(tone("whatever"), Tone::Plain);
    }

    #[test]
    fn every_kind_has_both_phases() {
        for kind in [Sms, Hlr] {
            assert!(names(kind, Final).count() >= 3);
            assert!(names(kind, Waiting).count() >= 1);
        }
    }
}

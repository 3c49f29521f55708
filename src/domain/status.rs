//! The one status table: every status smsstat knows, its kind of record, phase, tone,
//! and which variant of the service documents it (docs/variants.md has the sources).
//! A status not listed is final (servers have their own); a documented one is never
//! guessed.

use crate::domain::record::RecordKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Pending,
    Final,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Good,
    Bad,
    Doubtful,
    Pending,
    Plain,
}

/// Which variant of the service documents a status (see docs/variants.md): the
/// spec and field notes' classic service, the v1 API's OpenAPI document, both, or
/// neither (listed so that it is read right, never sent by the simulator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Documented {
    Classic,
    V1,
    Both,
    Neither,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Status {
    pub kind: RecordKind,
    pub name: &'static str,
    pub phase: Phase,
    pub tone: Tone,
    pub documented: Documented,
}

const fn status(
    kind: RecordKind,
    name: &'static str,
    phase: Phase,
    tone: Tone,
    documented: Documented,
) -> Status {
    Status {
        kind,
        name,
        phase,
        tone,
        documented,
    }
}

use Documented::{Both, Classic, Neither, V1};
use Phase::{Final, Pending as Waiting};
use RecordKind::{Hlr, Sms};
use Tone::{Bad, Doubtful, Good};

const WAIT: Tone = Tone::Pending;

pub(crate) const STATUSES: &[Status] = &[
    // Finals first: completion offers them in this order.
    // SMS, final.
    status(Sms, "delivered", Final, Good, Both),
    status(Sms, "undeliverable", Final, Bad, Classic),
    status(Sms, "expired", Final, Doubtful, Both),
    // Final: the gateway lists it among the final ones, with time_dr set.
    status(Sms, "unknown", Final, Doubtful, Both),
    status(Sms, "rejected", Final, Bad, Both),
    status(Sms, "failed", Final, Bad, V1),
    // Removed before it was sent: it never will be.
    status(Sms, "deleted", Final, Bad, V1),
    // SMS, pending: before the message is sent (v1's `new` and `waiting`, the
    // classic `scheduled`), then handed to the operator (`sent`).
    status(Sms, "new", Waiting, WAIT, V1),
    status(Sms, "waiting", Waiting, WAIT, V1),
    status(Sms, "scheduled", Waiting, WAIT, Classic),
    status(Sms, "sent", Waiting, WAIT, Both),
    // The field notes' v1 values; the v1 OpenAPI document has them as task
    // counters only, so the simulator sends none of them.
    status(Sms, "queued", Waiting, WAIT, Neither),
    status(Sms, "accepted", Waiting, WAIT, Neither),
    status(Sms, "enroute", Waiting, WAIT, Neither),
    // No SMS status document has it (an exports filter of the v1 API does); the
    // word says what it means.
    status(Sms, "pending", Waiting, WAIT, Neither),
    status(Sms, "", Waiting, WAIT, Neither),
    // HLR, final.
    status(Hlr, "active", Final, Good, Classic),
    // v1's words for the lookup's outcome: reached (v1's `active`) or not.
    status(Hlr, "delivered", Final, Good, V1),
    status(Hlr, "undeliverable", Final, Bad, V1),
    status(Hlr, "absent", Final, Bad, Both),
    status(Hlr, "unknown", Final, Doubtful, Both),
    status(Hlr, "failed", Final, Bad, Both),
    // HLR, pending: the classic `sent` while the request is out; v1 documents none.
    status(Hlr, "sent", Waiting, WAIT, Classic),
    status(Hlr, "", Waiting, WAIT, Neither),
];

/// A status of a kind, in any letter case and trimmed.
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
    let status = [Sms, Hlr].into_iter().find_map(|kind| find(kind, name));
    status
        .filter(|s| !s.name.is_empty())
        .map_or(Tone::Plain, |s| s.tone)
}

/// The non-empty names of one kind and phase, in table order.
pub(crate) fn names(kind: RecordKind, phase: Phase) -> impl Iterator<Item = &'static str> {
    STATUSES
        .iter()
        .filter(move |s| s.kind == kind && s.phase == phase && !s.name.is_empty())
        .map(|s| s.name)
}

/// The statuses of one kind and phase that a variant documents, in table order:
/// what the simulator may send.
pub fn documented(kind: RecordKind, phase: Phase, v1: bool) -> impl Iterator<Item = &'static str> {
    let variant = if v1 { V1 } else { Classic };
    STATUSES
        .iter()
        .filter(move |s| s.kind == kind && s.phase == phase)
        .filter(move |s| s.documented == Both || s.documented == variant)
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
    fn every_documented_status_has_its_phase() {
        for pending in ["new", "waiting", "scheduled", "sent"] {
            assert_eq!(phase(Sms, pending), Waiting, "{pending}");
        }
        for done in ["deleted", "failed", "rejected", "delivered", "unknown"] {
            assert_eq!(phase(Sms, done), Final, "{done}");
        }
        for done in ["delivered", "undeliverable", "active", "absent"] {
            assert!(is_known(Hlr, done), "{done}");
            assert_eq!(phase(Hlr, done), Final, "{done}");
        }
        assert_eq!(tone("deleted"), Tone::Bad);
        assert_eq!(tone("new"), Tone::Pending);
    }

    #[test]
    fn each_variant_documents_its_own_statuses() {
        let sms = |phase, v1| documented(Sms, phase, v1).collect::<Vec<_>>();
        assert_eq!(sms(Waiting, false), ["scheduled", "sent"]);
        assert_eq!(sms(Waiting, true), ["new", "waiting", "sent"]);
        assert_eq!(
            sms(Final, false),
            [
                "delivered",
                "undeliverable",
                "expired",
                "unknown",
                "rejected"
            ]
        );
        assert_eq!(
            sms(Final, true),
            [
                "delivered",
                "expired",
                "unknown",
                "rejected",
                "failed",
                "deleted"
            ]
        );
        let hlr = |phase, v1| documented(Hlr, phase, v1).collect::<Vec<_>>();
        assert_eq!(hlr(Waiting, false), ["sent"]);
        assert!(hlr(Waiting, true).is_empty());
        assert_eq!(
            hlr(Final, true),
            ["delivered", "undeliverable", "absent", "unknown", "failed"]
        );
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

//! Whether a deployment has the explicit routes, learnt from consistent evidence.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::domain::lookup::LookupKind;

/// Missing-route and served answers of explicit paths, per lookup kind. One stray
/// answer (an HTML 404 from a proxy) must not switch a whole run to short forms,
/// where `/sms/{x}` may answer another record: it takes two missing-route answers of
/// the same kind and none served.
#[derive(Default)]
pub(crate) struct RouteEvidence {
    missing: [AtomicU32; 5],
    served: [AtomicU32; 5],
}

impl RouteEvidence {
    const ENOUGH: u32 = 2;

    pub(crate) fn note(&self, kind: LookupKind, missing: bool) {
        let counts = if missing { &self.missing } else { &self.served };
        counts[kind.index()].fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn explicit_missing(&self, kind: LookupKind) -> bool {
        let i = kind.index();
        self.served[i].load(Ordering::Relaxed) == 0
            && self.missing[i].load(Ordering::Relaxed) >= Self::ENOUGH
    }
}

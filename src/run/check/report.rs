//! The check's steps as a checklist for people or one JSON document for scripts.

use serde_json::{json, Value};

use super::{first_failure, State, Step, ALL_STEPS};
use crate::domain::exit_codes;
use crate::domain::sanitize::escape_control;

pub(super) fn as_checklist(steps: &[Step], utf8: bool) -> String {
    let width = ALL_STEPS.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = String::new();
    for step in steps {
        let mark = match (step.state, utf8) {
            (State::Ok, true) => "✓",
            (State::Failed, true) => "✗",
            (State::Skipped, true) => "-",
            (State::Ok, false) => "ok",
            (State::Failed, false) => "FAIL",
            (State::Skipped, false) => "--",
        };
        out.push_str(&format!(
            "{mark:>4} {:width$}  {}\n",
            step.name,
            escape_control(&step.detail)
        ));
    }
    out
}

pub(super) fn as_json(steps: &[Step]) -> Value {
    let items: Vec<Value> = steps
        .iter()
        .map(|step| {
            let state = match step.state {
                State::Ok => "ok",
                State::Failed => "failed",
                State::Skipped => "skipped",
            };
            json!({"step": step.name, "status": state, "detail": step.detail, "exit": step.code})
        })
        .collect();
    let exit = first_failure(steps);
    json!({"ok": exit == exit_codes::SUCCESS, "exit": exit, "steps": items})
}

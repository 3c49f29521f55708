//! The check's steps as a checklist for people or one JSON document for scripts.

use serde_json::{json, Value};

use super::{first_failure, State, Step, ALL_STEPS};
use crate::domain::exit_codes;
use crate::domain::sanitize::escape_control;
use crate::output::wrap::hanging;

/// One line per step, its details broken at spaces to fit `width` (a path or URL
/// never split).
pub(super) fn as_checklist(
    steps: &[Step],
    utf8: bool,
    color: bool,
    width: Option<usize>,
) -> String {
    let name_width = ALL_STEPS.iter().map(|s| s.len()).max().unwrap_or(0);
    // "{mark:>4} {name}  ": where the details start.
    let indent = 4 + 1 + name_width + 2;
    let mut out = String::new();
    for step in steps {
        let [mark, ascii] = match step.state {
            State::Ok => ["✓", "ok"],
            State::Failed => ["✗", "FAIL"],
            State::Skipped => ["-", "--"],
        };
        let mark = if utf8 { mark } else { ascii };
        let detail = escape_control(&step.detail);
        let detail = match width {
            Some(width) => hanging(&detail, indent, width),
            None => detail.into_owned(),
        };
        // Padded before it is painted: the escapes take no room on the screen.
        let mark = match (step.state, color) {
            (State::Ok, true) => format!("\x1b[32m{mark:>4}\x1b[0m"),
            (State::Failed, true) => format!("\x1b[31m{mark:>4}\x1b[0m"),
            _ => format!("{mark:>4}"),
        };
        let lines = format!("{mark} {:name_width$}  {detail}\n", step.name);
        // A name whose details went to a line of their own keeps no trailing spaces.
        for line in lines.lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

pub(super) fn as_json(steps: &[Step]) -> Value {
    let items: Vec<Value> = steps
        .iter()
        .map(|s| json!({"step": s.name, "status": s.state, "detail": s.detail, "exit": s.code}))
        .collect();
    let exit = first_failure(steps);
    json!({"ok": exit == exit_codes::SUCCESS, "exit": exit, "steps": items})
}

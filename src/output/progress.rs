//! Progress for people on stderr: a bar for batches that take a while, and a live
//! view of the lookups `--wait` is polling. Both only on a terminal, never in pipes.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::output::term::{rows_of, stderr_target, Rows};

/// Quick batches finish before a bar would be worth drawing.
const SHOW_AFTER: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(120);

/// Spinner frames, as indicatif's default spinner, and in ASCII.
const SPINNER: [&str; 8] = ["⠁", "⠂", "⠄", "⡀", "⢀", "⠠", "⠐", "⠈"];
const ASCII_SPINNER: [&str; 4] = ["|", "/", "-", "\\"];

/// The batch progress bar: created hidden, drawn once the batch has run a second.
pub struct BatchProgress {
    bar: ProgressBar,
    started: Instant,
    allowed: bool,
    shown: bool,
}

impl BatchProgress {
    /// `allowed`: stderr is a terminal and nothing else draws there (no -v, no live view).
    pub fn new(allowed: bool, total: Option<u64>, utf8: bool) -> BatchProgress {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        // `{per_sec}` shows four decimals and `{per_sec:.0}` is read as a colour, not
        // a precision: the rate and the noun are keys of our own.
        let template = match total {
            Some(_) => "{bar:30} {pos}/{len} {lookups}, {rate}, eta {eta}",
            None => "{spinner} {pos} {lookups}, {rate}",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            let style = style
                .with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
                    let _ = w.write_str(&whole_rate(state.per_sec()));
                })
                .with_key(
                    "lookups",
                    |state: &ProgressState, w: &mut dyn fmt::Write| {
                        // Agrees with the number before it: the total, or the count so far.
                        let count = state.len().unwrap_or(state.pos());
                        let _ = w.write_str(if count == 1 { "lookup" } else { "lookups" });
                    },
                );
            bar.set_style(glyphs(style, utf8));
        }
        BatchProgress {
            bar,
            started: Instant::now(),
            allowed,
            shown: false,
        }
    }

    /// One more lookup done. A bar that may never be drawn is left alone: its
    /// lock and rate estimate were a visible share of a batch's CPU.
    pub fn advance(&mut self) {
        if !self.allowed {
            return;
        }
        self.bar.inc(1);
        if !self.shown && self.started.elapsed() >= SHOW_AFTER {
            self.bar.set_draw_target(stderr_target());
            self.bar.enable_steady_tick(TICK);
            self.shown = true;
        }
    }

    /// Runs `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match self.shown {
            true => self.bar.suspend(f),
            false => f(),
        }
    }

    #[cfg(test)]
    pub fn is_shown(&self) -> bool {
        self.shown
    }

    /// Clears the bar so the summary line and the prompt come after clean output.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A rate as a whole number: per second, or per minute below one a second
/// (`0/s` would say nothing is happening).
fn whole_rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return "0/s".into();
    }
    match per_sec >= 1.0 {
        true => format!("{}/s", per_sec.floor() as u64),
        false => format!("{}/min", (per_sec * 60.0).floor() as u64),
    }
}

/// Block and braille glyphs on a UTF-8 terminal, plain ASCII elsewhere.
fn glyphs(style: ProgressStyle, utf8: bool) -> ProgressStyle {
    if utf8 {
        style
    } else {
        style.progress_chars("#>-").tick_chars("|/-\\ ")
    }
}

/// The spinner's frame after `elapsed`.
fn spinner(utf8: bool, elapsed: Duration) -> &'static str {
    let frames: &[&'static str] = if utf8 { &SPINNER } else { &ASCII_SPINNER };
    let tick = (elapsed.as_millis() / TICK.as_millis()) as usize;
    frames[tick % frames.len()]
}

/// `--wait` on a terminal: a redrawn line per lookup being polled, in input order, as
/// many as fit the screen, then one line counting the rest. One thread draws it,
/// whatever the number of lookups.
pub struct LiveView {
    shared: Arc<Shared>,
}

/// The line of one polled lookup; removed when the lookup ends.
pub struct LiveLine {
    shared: Arc<Shared>,
    index: usize,
}

struct Shared {
    state: Mutex<State>,
    /// Wakes the drawing thread to end.
    ended: Condvar,
    utf8: bool,
}

struct State {
    /// The lookups' lines by input index: the screen shows them in input order,
    /// though workers start lookups in a racy order.
    lines: BTreeMap<usize, Line>,
    /// Where to draw; None once cleared for good (or never a terminal).
    rows: Option<Rows>,
    /// Something was printed since the last change: nothing is drawn again until a
    /// line changes, so that the last frame cannot come back between a record
    /// written and flushed by the caller (a single record's table).
    held: bool,
    started: Instant,
}

struct Line {
    label: String,
    status: String,
    started: Instant,
    is_final: bool,
}

impl LiveView {
    pub fn new(utf8: bool) -> LiveView {
        let rows = Rows::stderr();
        let drawn = rows.is_some();
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                lines: BTreeMap::new(),
                rows,
                held: false,
                started: Instant::now(),
            }),
            ended: Condvar::new(),
            utf8,
        });
        if drawn {
            let drawing = Arc::clone(&shared);
            thread::spawn(move || drawing.draw_until_cleared());
        }
        LiveView { shared }
    }

    /// Runs `f` (which prints) with the live lines out of the way; they come back
    /// when one of them changes.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        let mut state = self.shared.lock();
        if let Some(rows) = &mut state.rows {
            rows.clear();
        }
        state.held = true;
        f()
    }

    /// Clears the lines for good: lookups abandoned at a signal still hold theirs,
    /// and a redraw would show them again under the summary.
    pub fn clear(&self) {
        let mut state = self.shared.lock();
        if let Some(mut rows) = state.rows.take() {
            rows.clear();
        }
        self.shared.ended.notify_all();
    }

    /// A line for input number `index`.
    pub fn line(&self, index: usize, label: &str) -> LiveLine {
        let line = Line {
            label: label.to_string(),
            status: "looking up".into(),
            started: Instant::now(),
            is_final: false,
        };
        self.shared.changed().lines.insert(index, line);
        LiveLine {
            shared: Arc::clone(&self.shared),
            index,
        }
    }
}

impl Drop for LiveView {
    fn drop(&mut self) {
        self.clear();
    }
}

impl LiveLine {
    pub fn update(&self, status: &str, polls: u32) {
        let separator = if self.shared.utf8 { "·" } else { "-" };
        let polls = match polls {
            1 => "1 poll".to_string(),
            n => format!("{n} polls"),
        };
        if let Some(line) = self.shared.changed().lines.get_mut(&self.index) {
            line.status = format!("{status} {separator} {polls}");
            line.is_final = status == "final";
        }
    }
}

impl Drop for LiveLine {
    fn drop(&mut self) {
        self.shared.changed().lines.remove(&self.index);
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state, about to change: drawn again from the next tick.
    fn changed(&self) -> MutexGuard<'_, State> {
        let mut state = self.lock();
        state.held = false;
        state
    }

    /// Redraws every tick until the view is cleared.
    fn draw_until_cleared(&self) {
        let mut state = self.lock();
        loop {
            let State {
                lines,
                rows,
                held,
                started,
            } = &mut *state;
            let Some(rows) = rows else { return };
            if !*held {
                let (width, height) = rows.room();
                let spinner = spinner(self.utf8, started.elapsed());
                rows.draw(&frame(lines, spinner, width, height));
            }
            state = self
                .ended
                .wait_timeout(state, TICK)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// The lines drawn: the first of `lines` that fit `height` rows of `width` columns,
/// then, if some did not fit, one counting them.
fn frame(lines: &BTreeMap<usize, Line>, spinner: &str, width: usize, height: usize) -> Vec<String> {
    let mut shown = Vec::new();
    let mut rows = 0;
    for line in lines.values() {
        let text = format!(
            "{spinner} {} {} ({:#})",
            line.label,
            line.status,
            HumanDuration(line.started.elapsed())
        );
        let taken = rows_of(&text, width).1;
        // The last row goes to the count of the rest, unless this line is the last.
        let room = match shown.len() + 1 == lines.len() {
            true => height,
            false => height.saturating_sub(1),
        };
        if rows + taken > room {
            break;
        }
        rows += taken;
        shown.push(text);
    }
    let rest = lines.len() - shown.len();
    if rest > 0 {
        let finals = lines
            .values()
            .skip(shown.len())
            .filter(|l| l.is_final)
            .count();
        let pending = rest - finals;
        shown.push(format!("{rest} more: {pending} pending, {finals} final"));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(label: &str, status: &str) -> Line {
        Line {
            label: label.into(),
            status: status.into(),
            started: Instant::now(),
            is_final: status == "final",
        }
    }

    #[test]
    fn live_lines_keep_input_order_whatever_the_start_order() {
        let live = LiveView::new(true);
        let third = live.line(7, "sms 7");
        let first = live.line(2, "sms 2");
        let second = live.line(5, "sms 5");
        let indices =
            |live: &LiveView| -> Vec<usize> { live.shared.lock().lines.keys().copied().collect() };
        assert_eq!(indices(&live), [2, 5, 7]);
        drop(first);
        assert_eq!(indices(&live), [5, 7]);
        drop((second, third));
        assert!(indices(&live).is_empty());
    }

    #[test]
    fn a_frame_shows_what_fits_and_counts_the_rest() {
        let mut lines = BTreeMap::new();
        for i in 0..10 {
            let status = if i % 4 == 3 { "final" } else { "enroute" };
            lines.insert(i, line(&format!("sms {i}"), status));
        }
        let shown = frame(&lines, "*", 80, 4);
        assert_eq!(shown.len(), 4, "{shown:?}");
        assert_eq!(shown[0], "* sms 0 enroute (0s)");
        assert_eq!(shown[2], "* sms 2 enroute (0s)");
        // sms 3 to 9 left: 3 and 7 are final.
        assert_eq!(shown[3], "7 more: 5 pending, 2 final");
        // All fit: no count.
        assert_eq!(frame(&lines, "*", 80, 10).len(), 10);
        // Lines of two rows each at 12 columns: one fits in 3 rows, then the count.
        let narrow = frame(&lines, "*", 12, 3);
        assert_eq!(narrow.len(), 2, "{narrow:?}");
        assert!(narrow[1].starts_with("9 more"), "{narrow:?}");
    }

    #[test]
    fn rates_are_whole_numbers() {
        assert_eq!(whole_rate(21.5716), "21/s");
        assert_eq!(whole_rate(0.5), "30/min");
        assert_eq!(whole_rate(0.0), "0/s");
        assert_eq!(whole_rate(f64::INFINITY), "0/s");
    }

    #[test]
    fn a_bar_that_is_not_allowed_is_never_shown() {
        let mut progress = BatchProgress::new(false, Some(3), true);
        progress.started -= SHOW_AFTER * 2;
        progress.advance();
        assert!(!progress.is_shown());
    }

    #[test]
    fn an_allowed_bar_waits_a_second() {
        let mut progress = BatchProgress::new(true, Some(3), false);
        progress.advance();
        assert!(!progress.is_shown());
        progress.started -= SHOW_AFTER * 2;
        progress.advance();
        assert!(progress.is_shown());
        progress.finish();
    }
}

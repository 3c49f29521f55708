//! Progress for people on stderr: a bar for batches that take a while, and a live
//! view of the lookups `--wait` is polling. Both only on a terminal, never in pipes.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::output::term::{rows_of, stderr_line_width, stderr_target, Rows};
use crate::run::input::estimated_total;

/// Quick batches finish before a bar would be worth drawing.
const SHOW_AFTER: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(120);

/// The bar's cells at most, and at least (narrower, the counter goes alone).
const BAR_CELLS: usize = 30;
const MIN_BAR_CELLS: usize = 8;

/// Spinner frames, as indicatif's default spinner, and in ASCII.
const SPINNER: [&str; 8] = ["⠁", "⠂", "⠄", "⡀", "⢀", "⠠", "⠐", "⠈"];
const ASCII_SPINNER: [&str; 4] = ["|", "/", "-", "\\"];

/// The batch progress bar: created hidden, drawn once the batch has run a second.
pub struct BatchProgress {
    bar: ProgressBar,
    started: Instant,
    allowed: bool,
    shown: bool,
    /// No total given: it is estimated as stdin is read, when stdin is a file.
    estimating: bool,
    /// The bar's total is an estimate so far.
    estimated: Arc<AtomicBool>,
}

impl BatchProgress {
    /// `allowed`: stderr is a terminal and nothing else draws there (no -v, no live view).
    pub fn new(allowed: bool, total: Option<u64>, utf8: bool) -> BatchProgress {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let estimated = Arc::new(AtomicBool::new(false));
        let approximate = Arc::clone(&estimated);
        // One key for the whole line: what it shows depends on the width left.
        if let Ok(style) = ProgressStyle::with_template("{line}") {
            bar.set_style(style.with_key(
                "line",
                move |state: &ProgressState, w: &mut dyn fmt::Write| {
                    let shown = Shown {
                        done: state.pos(),
                        total: state.len(),
                        approximate: approximate.load(Ordering::Relaxed),
                        per_sec: state.per_sec(),
                        eta: state.eta(),
                        spinner: spinner(utf8, state.elapsed()),
                        utf8,
                    };
                    let _ = w.write_str(&shown.line(stderr_line_width()));
                },
            ));
        }
        BatchProgress {
            bar,
            started: Instant::now(),
            allowed,
            shown: false,
            estimating: total.is_none(),
            estimated,
        }
    }

    /// One more lookup done. A bar that may never be drawn is left alone: its
    /// lock and rate estimate were a visible share of a batch's CPU.
    pub fn advance(&mut self) {
        if !self.allowed {
            return;
        }
        self.bar.inc(1);
        if self.estimating {
            if let Some((total, exact)) = estimated_total() {
                self.estimated.store(!exact, Ordering::Relaxed);
                self.bar.set_length(total.max(self.bar.position()));
            }
        }
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

/// What the bar's line shows.
struct Shown {
    done: u64,
    total: Option<u64>,
    approximate: bool,
    per_sec: f64,
    eta: Duration,
    spinner: &'static str,
    utf8: bool,
}

impl Shown {
    /// The line in at most `width` columns: the bar shrinks first, then the counter
    /// drops its words, and the count itself is cut at the end, never broken.
    fn line(&self, width: usize) -> String {
        let done = self.done;
        // Agrees with the number before it: the total, or the count so far.
        let lookups = match self.total.unwrap_or(done) {
            1 => "lookup",
            _ => "lookups",
        };
        let rate = whole_rate(self.per_sec);
        let Some(total) = self.total else {
            let spinner = self.spinner;
            let texts = [
                format!("{spinner} {done} {lookups}, {rate}"),
                format!("{spinner} {done} {lookups}"),
                format!("{spinner} {done}"),
            ];
            return fitting(&texts, width);
        };
        let about = if self.approximate { "~" } else { "" };
        let count = format!("{done}/{about}{total}");
        let eta = format!("{:#}", HumanDuration(self.eta));
        let texts = [
            format!("{count} {lookups}, {rate}, eta {eta}"),
            format!("{count}, eta {eta}"),
            count,
        ];
        let with_bar = texts.iter().find_map(|text| {
            let cells = width.checked_sub(text.chars().count() + 1)?;
            (cells >= MIN_BAR_CELLS).then(|| (text, cells.min(BAR_CELLS)))
        });
        match with_bar {
            Some((text, cells)) => format!("{} {text}", self.bar(cells, done, total)),
            None => fitting(&texts, width),
        }
    }

    /// `cells` cells, filled in proportion of `done` to `total`.
    fn bar(&self, cells: usize, done: u64, total: u64) -> String {
        let filled = match total {
            0 => cells,
            total => (u128::from(done.min(total)) * cells as u128 / u128::from(total)) as usize,
        };
        let (full, empty) = if self.utf8 {
            ('█', '░')
        } else {
            ('#', '-')
        };
        let mut bar: String = std::iter::repeat_n(full, filled).collect();
        bar.extend(std::iter::repeat_n(empty, cells - filled));
        bar
    }
}

/// The first of `texts` (longest first) that fits `width` columns, or the last cut
/// to the width. Their characters all take one column.
fn fitting(texts: &[String], width: usize) -> String {
    match texts.iter().find(|text| text.chars().count() <= width) {
        Some(text) => text.clone(),
        None => texts
            .last()
            .map_or_else(String::new, |text| text.chars().take(width).collect()),
    }
}

/// The spinner's frame after `elapsed`.
fn spinner(utf8: bool, elapsed: Duration) -> &'static str {
    let frames: &[&'static str] = if utf8 { &SPINNER } else { &ASCII_SPINNER };
    let tick = (elapsed.as_millis() / TICK.as_millis()) as usize;
    frames[tick % frames.len()]
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

    fn shown(done: u64, total: Option<u64>) -> Shown {
        Shown {
            done,
            total,
            approximate: false,
            per_sec: 795.3,
            eta: Duration::from_secs(3),
            spinner: "|",
            utf8: false,
        }
    }

    #[test]
    fn the_bar_shrinks_before_the_counter_and_the_counter_is_never_broken() {
        let line = |width| shown(2960, Some(5000)).line(width);
        let wide = line(200);
        assert_eq!(
            wide,
            format!(
                "{} 2960/5000 lookups, 795/s, eta 3s",
                "#".repeat(17) + &"-".repeat(13)
            )
        );
        assert_eq!(line(76), wide);
        // 36 columns (a 40-column terminal): the words go, the bar stays.
        assert_eq!(
            line(36),
            format!("{} 2960/5000, eta 3s", "#".repeat(10) + &"-".repeat(8))
        );
        assert_eq!(
            line(18),
            format!("{} 2960/5000", "#".repeat(4) + &"-".repeat(4))
        );
        assert_eq!(line(12), "2960/5000");
        assert_eq!(line(5), "2960/");
        for width in 1..120 {
            assert!(line(width).chars().count() <= width, "{width}");
        }
        let mut about = shown(3, Some(40));
        about.approximate = true;
        assert!(about.line(80).contains(" 3/~40 lookups"));
        assert_eq!(shown(1, None).line(80), "| 1 lookup, 795/s");
        assert_eq!(shown(12, None).line(10), "| 12");
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

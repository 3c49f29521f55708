//! Progress for people on stderr: a bar for batches that take a while, and a live
//! view of the lookups `--wait` is polling. Both only on a terminal, never in pipes,
//! each redrawn by one thread of its own (`Painter`).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::domain::lock;
use crate::output::derived::format_seconds;
use crate::output::term::{rows_of, Rows};

/// Quick batches finish before a bar would be worth drawing.
const SHOW_AFTER: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(120);

/// The bar's cells at most, and at least (narrower, the counter goes alone).
const BAR_CELLS: usize = 30;
const MIN_BAR_CELLS: usize = 8;

const SPINNER: [&str; 8] = ["⠁", "⠂", "⠄", "⡀", "⢀", "⠠", "⠐", "⠈"];
const ASCII_SPINNER: [&str; 4] = ["|", "/", "-", "\\"];

/// Lines redrawn in place on stderr every tick, by one thread, until cleared.
struct Painter {
    /// Where to draw; None once cleared, or when stderr cannot be drawn on.
    rows: Mutex<Option<Rows>>,
    /// A print went out since the last change: nothing is drawn until the next one.
    held: AtomicBool,
    ended: Condvar,
}

impl Painter {
    /// Draws the lines `frame` gives for the room there is (columns, rows) on `rows`.
    fn start(
        rows: Option<Rows>,
        frame: impl Fn(usize, usize) -> Vec<String> + Send + 'static,
    ) -> Arc<Painter> {
        let painter = Arc::new(Painter {
            rows: Mutex::new(rows),
            held: AtomicBool::new(false),
            ended: Condvar::new(),
        });
        let drawing = Arc::clone(&painter);
        thread::spawn(move || drawing.draw_until_cleared(frame));
        painter
    }

    fn draw_until_cleared(&self, frame: impl Fn(usize, usize) -> Vec<String>) {
        let mut rows = lock(&self.rows);
        while let Some(drawn) = rows.as_mut() {
            if !self.held.load(Ordering::Relaxed) {
                let (width, height) = drawn.room();
                drawn.draw(&frame(width, height));
            }
            let waited = self.ended.wait_timeout(rows, TICK);
            rows = waited.unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// Runs `f` (which prints) with the lines out of the way. With `hold`, they are
    /// drawn again only after the next `changed`: the last frame cannot come back
    /// between a record written and its flush by the caller (a single record's table).
    fn suspend<R>(&self, hold: bool, f: impl FnOnce() -> R) -> R {
        // Held while `f` prints: the drawing thread cannot draw in between.
        let mut rows = lock(&self.rows);
        if let Some(drawn) = rows.as_mut() {
            drawn.draw(&[]);
        }
        self.held.store(hold, Ordering::Relaxed);
        f()
    }

    fn changed(&self) {
        self.held.store(false, Ordering::Relaxed);
    }

    /// Erases the lines for good and ends the thread.
    fn clear(&self) {
        if let Some(mut drawn) = lock(&self.rows).take() {
            drawn.draw(&[]);
        }
        self.ended.notify_all();
    }
}

/// The batch progress bar: drawn once the batch has run a second.
pub struct BatchProgress {
    allowed: bool,
    started: Instant,
    utf8: bool,
    /// No total given: it is estimated as stdin is read, when stdin is a file.
    estimating: bool,
    counts: Arc<Mutex<Counts>>,
    /// Started once the bar is shown.
    painter: Option<Arc<Painter>>,
}

#[derive(Clone, Copy, Default)]
struct Counts {
    done: u64,
    total: Option<u64>,
    /// The total is an estimate so far.
    approximate: bool,
}

impl BatchProgress {
    /// `allowed`: stderr is a terminal and nothing else draws there (no -v, no live view).
    pub fn new(allowed: bool, total: Option<u64>, utf8: bool) -> BatchProgress {
        let counts = Counts {
            total,
            ..Counts::default()
        };
        BatchProgress {
            allowed,
            started: Instant::now(),
            utf8,
            estimating: total.is_none(),
            counts: Arc::new(Mutex::new(counts)),
            painter: None,
        }
    }

    /// One more lookup done. A bar that may never be drawn is left alone.
    pub fn advance(&mut self) {
        if !self.allowed {
            return;
        }
        let mut counts = lock(&self.counts);
        counts.done += 1;
        if let Some((total, exact)) = STDIN.estimated_total().filter(|_| self.estimating) {
            counts.total = Some(total.max(counts.done));
            counts.approximate = !exact;
        }
        drop(counts);
        if self.painter.is_none() && self.started.elapsed() >= SHOW_AFTER {
            let (counts, started, utf8) = (Arc::clone(&self.counts), self.started, self.utf8);
            self.painter = Some(Painter::start(Rows::stderr(), move |width, _| {
                vec![bar_line(*lock(&counts), started.elapsed(), utf8, width)]
            }));
        }
    }

    /// Runs `f` (which prints) with the bar out of the way until the next tick.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.painter {
            Some(painter) => painter.suspend(false, f),
            None => f(),
        }
    }

    #[cfg(test)]
    pub fn is_shown(&self) -> bool {
        self.painter.is_some()
    }

    /// Clears the bar so the summary line and the prompt come after clean output.
    pub fn finish(&self) {
        if let Some(painter) = &self.painter {
            painter.clear();
        }
    }
}

/// How far stdin has been read, told by its reader (`run::input`): the bar's total
/// when stdin is a regular file.
pub struct StdinRead {
    /// Values on the command line other than `-`.
    arguments: AtomicU64,
    /// Bytes left in stdin when it was opened, when it is a regular file; else 0.
    size: AtomicU64,
    /// Bytes of stdin read as lines so far.
    consumed: AtomicU64,
    /// Values taken from stdin so far.
    values: AtomicU64,
    ended: AtomicBool,
}

pub static STDIN: StdinRead = StdinRead {
    arguments: AtomicU64::new(0),
    size: AtomicU64::new(0),
    consumed: AtomicU64::new(0),
    values: AtomicU64::new(0),
    ended: AtomicBool::new(false),
};

impl StdinRead {
    pub fn arguments(&self, count: u64) {
        self.arguments.store(count, Ordering::Relaxed);
    }

    /// Stdin opened, with its size when it is a regular file.
    pub fn opened(&self, size: Option<u64>) {
        self.size.store(size.unwrap_or(0), Ordering::Relaxed);
    }

    pub fn consumed(&self, bytes: usize) {
        self.consumed.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub fn value(&self) {
        self.values.fetch_add(1, Ordering::Relaxed);
    }

    pub fn ended(&self) {
        self.ended.store(true, Ordering::Relaxed);
    }

    /// How many values the input holds: exact once stdin ended (true), else estimated
    /// from the bytes read against the file's size (counting lines up front would read
    /// a huge file twice). None for a pipe or a terminal, which have no size.
    pub fn estimated_total(&self) -> Option<(u64, bool)> {
        let values = self.values.load(Ordering::Relaxed);
        let arguments = self.arguments.load(Ordering::Relaxed);
        if self.ended.load(Ordering::Relaxed) {
            return Some((arguments + values, true));
        }
        let size = self.size.load(Ordering::Relaxed);
        let consumed = self.consumed.load(Ordering::Relaxed);
        if size == 0 || consumed == 0 {
            return None;
        }
        let estimate = u128::from(values) * u128::from(size) / u128::from(consumed);
        let estimate = u64::try_from(estimate).unwrap_or(u64::MAX);
        Some((arguments + estimate, false))
    }
}

/// The bar's line after `elapsed` in at most `width` columns: the bar shrinks first,
/// then the counter drops its words, and the count itself is cut at the end, never
/// broken. The rate and time left are averages since the start.
fn bar_line(counts: Counts, elapsed: Duration, utf8: bool, width: usize) -> String {
    let done = counts.done;
    let per_sec = done as f64 / elapsed.as_secs_f64().max(0.001);
    // Agrees with the number before it: the total, or the count so far.
    let lookups = match counts.total.unwrap_or(done) {
        1 => "lookup",
        _ => "lookups",
    };
    let rate = whole_rate(per_sec);
    let Some(total) = counts.total else {
        let spinner = spinner(utf8, elapsed);
        let texts = [
            format!("{spinner} {done} {lookups}, {rate}"),
            format!("{spinner} {done} {lookups}"),
            format!("{spinner} {done}"),
        ];
        return fitting(&texts, width);
    };
    let about = if counts.approximate { "~" } else { "" };
    let count = format!("{done}/{about}{total}");
    let left = total.saturating_sub(done) as f64 / per_sec;
    let eta = short_duration(Duration::try_from_secs_f64(left).unwrap_or(Duration::ZERO));
    let texts = [
        format!("{count} {lookups}, {rate}, eta {eta}"),
        format!("{count}, eta {eta}"),
        count,
    ];
    let with_bar = texts.iter().find_map(|text| {
        let cells = width.checked_sub(text.chars().count() + 1)?;
        (cells >= MIN_BAR_CELLS).then(|| (text, cells.min(BAR_CELLS)))
    });
    let Some((text, cells)) = with_bar else {
        return fitting(&texts, width);
    };
    // `cells` cells, filled in proportion of `done` to `total`.
    let filled = match total {
        0 => cells,
        total => (u128::from(done.min(total)) * cells as u128 / u128::from(total)) as usize,
    };
    let (full, empty) = if utf8 { ("█", "░") } else { ("#", "-") };
    let bar = full.repeat(filled) + &empty.repeat(cells - filled);
    format!("{bar} {text}")
}

/// The first of `texts` (longest first) that fits `width` columns, or the last cut
/// to the width. Their characters all take one column.
fn fitting(texts: &[String], width: usize) -> String {
    let fits = texts.iter().find(|text| text.chars().count() <= width);
    let text = fits.unwrap_or(&texts[texts.len() - 1]);
    text.chars().take(width).collect()
}

fn spinner(utf8: bool, elapsed: Duration) -> &'static str {
    let frames: &[&'static str] = if utf8 { &SPINNER } else { &ASCII_SPINNER };
    let tick = (elapsed.as_millis() / TICK.as_millis()) as usize;
    frames[tick % frames.len()]
}

/// A rate as a whole number: per second, or per minute below one a second
/// (`0/s` would say nothing is happening).
fn whole_rate(per_sec: f64) -> String {
    match per_sec {
        r if !r.is_finite() || r <= 0.0 => "0/s".into(),
        r if r >= 1.0 => format!("{}/s", r.floor() as u64),
        r => format!("{}/min", (r * 60.0).floor() as u64),
    }
}

/// A duration in its largest whole unit: `3s`, `2m`, `1h`, `2d`.
fn short_duration(duration: Duration) -> String {
    let text = format_seconds(duration.as_secs());
    text.split(' ').next().unwrap_or_default().to_string()
}

/// `--wait` on a terminal: a redrawn line per lookup being polled, in input order, as
/// many as fit the screen, then one line counting the rest.
pub struct LiveView {
    /// The lookups' lines by input index: the screen shows them in input order,
    /// though workers start lookups in a racy order.
    lines: Arc<Mutex<BTreeMap<usize, Line>>>,
    painter: Arc<Painter>,
    utf8: bool,
}

/// The line of one polled lookup; removed when the lookup ends.
pub struct LiveLine {
    live: Arc<LiveView>,
    index: usize,
}

struct Line {
    label: String,
    status: String,
    started: Instant,
    is_final: bool,
}

impl LiveView {
    pub fn new(utf8: bool) -> LiveView {
        let lines: Arc<Mutex<BTreeMap<usize, Line>>> = Arc::default();
        let drawn = Arc::clone(&lines);
        let started = Instant::now();
        let painter = Painter::start(Rows::stderr(), move |width, height| {
            let spinner = spinner(utf8, started.elapsed());
            frame(&lock(&drawn), spinner, width, height)
        });
        LiveView {
            lines,
            painter,
            utf8,
        }
    }

    /// Runs `f` (which prints) with the live lines out of the way; they come back
    /// when one of them changes.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.painter.suspend(true, f)
    }

    /// Clears the lines for good: lookups abandoned at a signal still hold theirs,
    /// and a redraw would show them again under the summary.
    pub fn clear(&self) {
        self.painter.clear();
    }

    pub fn line(self: &Arc<Self>, index: usize, label: &str) -> LiveLine {
        let line = Line {
            label: label.to_string(),
            status: "looking up".into(),
            started: Instant::now(),
            is_final: false,
        };
        lock(&self.lines).insert(index, line);
        self.painter.changed();
        LiveLine {
            live: Arc::clone(self),
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
        let separator = if self.live.utf8 { "·" } else { "-" };
        let plural = if polls == 1 { "" } else { "s" };
        if let Some(line) = lock(&self.live.lines).get_mut(&self.index) {
            line.status = format!("{status} {separator} {polls} poll{plural}");
            line.is_final = status == "final";
        }
        self.live.painter.changed();
    }
}

impl Drop for LiveLine {
    fn drop(&mut self) {
        lock(&self.live.lines).remove(&self.index);
        self.live.painter.changed();
    }
}

/// The lines drawn: the first of `lines` that fit `height` rows of `width` columns,
/// then, if some did not fit, one counting them.
fn frame(lines: &BTreeMap<usize, Line>, spinner: &str, width: usize, height: usize) -> Vec<String> {
    let mut shown = Vec::new();
    let mut rows = 0;
    for line in lines.values() {
        let elapsed = short_duration(line.started.elapsed());
        let text = format!("{spinner} {} {} ({elapsed})", line.label, line.status);
        rows += rows_of(&text, width).1;
        // The last row goes to the count of the rest, unless this line is the last.
        if rows > height.saturating_sub(usize::from(shown.len() + 1 < lines.len())) {
            break;
        }
        shown.push(text);
    }
    let more = lines.len() - shown.len();
    if more > 0 {
        let rest = lines.values().skip(shown.len());
        let finals = rest.filter(|l| l.is_final).count();
        let pending = more - finals;
        shown.push(format!("{more} more: {pending} pending, {finals} final"));
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
        // Not drawn: stderr may be the terminal running the tests.
        let live = Arc::new(LiveView {
            lines: Arc::default(),
            painter: Painter::start(None, |_, _| Vec::new()),
            utf8: true,
        });
        let third = live.line(7, "sms 7");
        let first = live.line(2, "sms 2");
        let second = live.line(5, "sms 5");
        let indices =
            |live: &LiveView| -> Vec<usize> { lock(&live.lines).keys().copied().collect() };
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

    /// The line of `done` lookups at 795.3 a second, in ASCII.
    fn shown(done: u64, total: Option<u64>, approximate: bool, width: usize) -> String {
        let counts = Counts {
            done,
            total,
            approximate,
        };
        let elapsed = Duration::from_secs_f64(done as f64 / 795.3);
        bar_line(counts, elapsed, false, width)
    }

    #[test]
    fn the_bar_shrinks_before_the_counter_and_the_counter_is_never_broken() {
        let line = |width| shown(2960, Some(5000), false, width);
        let wide = line(200);
        assert_eq!(
            wide,
            format!(
                "{} 2960/5000 lookups, 795/s, eta 2s",
                "#".repeat(17) + &"-".repeat(13)
            )
        );
        assert_eq!(line(76), wide);
        // 36 columns (a 40-column terminal): the words go, the bar stays.
        assert_eq!(
            line(36),
            format!("{} 2960/5000, eta 2s", "#".repeat(10) + &"-".repeat(8))
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
        assert!(shown(3, Some(40), true, 80).contains(" 3/~40 lookups"));
        assert_eq!(shown(1, None, false, 80), "| 1 lookup, 795/s");
        assert_eq!(shown(12, None, false, 10), "| 12");
    }

    #[test]
    fn rate_and_time_left_are_averages_since_the_start() {
        let counts = Counts {
            done: 30,
            total: Some(90),
            approximate: false,
        };
        let line = bar_line(counts, Duration::from_secs(10), true, 80);
        let bar = "█".repeat(10) + &"░".repeat(20);
        assert_eq!(line, format!("{bar} 30/90 lookups, 3/s, eta 20s"));
        assert_eq!(short_duration(Duration::from_secs(150)), "2m");
        assert_eq!(short_duration(Duration::from_secs(7200)), "2h");
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

//! Progress for people on stderr: a bar for batches that take a while, and a live
//! view of the lookups `--wait` is polling. Both only on a terminal, never in pipes.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use std::fmt;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::output::term::stderr_target;

/// Quick batches finish before a bar would be worth drawing.
const SHOW_AFTER: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(120);

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

/// `--wait` on a terminal: one redrawn line per lookup being polled, in input order.
pub struct LiveView {
    multi: MultiProgress,
    utf8: bool,
    /// Input indices of the lines shown, top to bottom (the bars' order in `multi`).
    shown: Arc<Mutex<Vec<usize>>>,
}

/// The line of one polled lookup; removed when the lookup ends.
pub struct LiveLine {
    bar: ProgressBar,
    separator: &'static str,
    index: usize,
    multi: MultiProgress,
    shown: Arc<Mutex<Vec<usize>>>,
}

impl LiveView {
    pub fn new(utf8: bool) -> LiveView {
        LiveView {
            multi: MultiProgress::with_draw_target(stderr_target()),
            utf8,
            shown: Arc::default(),
        }
    }

    /// Runs `f` (which prints) with the live lines out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.multi.suspend(f)
    }

    /// Clears the lines for good: lookups abandoned at a signal still hold theirs,
    /// and their ticks would draw them again under the summary.
    pub fn clear(&self) {
        let _ = self.multi.clear();
        self.multi.set_draw_target(ProgressDrawTarget::hidden());
    }

    /// A line for input number `index`, placed among the others by input order
    /// (workers start lookups in a racy order).
    pub fn line(&self, index: usize, label: &str) -> LiveLine {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        let position = shown.partition_point(|&i| i < index);
        shown.insert(position, index);
        let bar = self.multi.insert(position, ProgressBar::new_spinner());
        drop(shown);
        if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix} {msg} ({elapsed})") {
            bar.set_style(glyphs(style, self.utf8));
        }
        bar.set_prefix(label.to_string());
        bar.set_message("looking up");
        bar.enable_steady_tick(TICK);
        LiveLine {
            bar,
            separator: if self.utf8 { "·" } else { "-" },
            index,
            multi: self.multi.clone(),
            shown: Arc::clone(&self.shown),
        }
    }
}

impl LiveLine {
    pub fn update(&self, status: &str, polls: u32) {
        let polls = if polls == 1 {
            "1 poll".to_string()
        } else {
            format!("{polls} polls")
        };
        self.bar
            .set_message(format!("{status} {} {polls}", self.separator));
    }
}

impl Drop for LiveLine {
    fn drop(&mut self) {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        shown.retain(|&i| i != self.index);
        self.bar.finish_and_clear();
        self.multi.remove(&self.bar);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_lines_keep_input_order_whatever_the_start_order() {
        let live = LiveView {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::hidden()),
            utf8: true,
            shown: Arc::default(),
        };
        let third = live.line(7, "sms 7");
        let first = live.line(2, "sms 2");
        let second = live.line(5, "sms 5");
        assert_eq!(*live.shown.lock().unwrap(), [2, 5, 7]);
        drop(first);
        assert_eq!(*live.shown.lock().unwrap(), [5, 7]);
        drop((second, third));
        assert!(live.shown.lock().unwrap().is_empty());
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

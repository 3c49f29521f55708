//! How fast requests may start, across every worker of a run: `--rate` spaces them
//! out, and a 429 pauses them all (the server speaks of the account, not of the
//! request that happened to get the answer).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Default)]
pub struct Pace {
    /// `--rate`: the least spacing between request starts.
    interval: Option<Duration>,
    /// Whether anything may delay a request: keeps the path lock-free for a run
    /// without `--rate` that never met a 429.
    active: AtomicBool,
    slots: Mutex<Slots>,
}

#[derive(Debug, Default)]
struct Slots {
    /// When the next request may start (`--rate`).
    next: Option<Instant>,
    /// No request starts before this (a 429's pause).
    paused_until: Option<Instant>,
}

impl Pace {
    pub fn new(interval: Option<Duration>) -> Pace {
        Pace {
            interval: interval.filter(|i| !i.is_zero()),
            active: AtomicBool::new(interval.is_some()),
            slots: Mutex::default(),
        }
    }

    /// This request's turn, taken: None when it may start now, else the time it may
    /// (the engine keeps the lookup queued until then).
    pub fn turn(&self) -> Option<Instant> {
        if !self.active.load(Ordering::Relaxed) {
            return None;
        }
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let mut turn = slots.paused_until.unwrap_or(now).max(now);
        if let Some(interval) = self.interval {
            turn = turn.max(slots.next.unwrap_or(now));
            slots.next = Some(turn + interval);
        }
        drop(slots);
        // Against the clock now, not when the turn was reckoned: one already come
        // (this thread was held up meanwhile) is taken at once.
        (turn > Instant::now()).then_some(turn)
    }

    /// Whether a pause that began after `turn` was taken now holds it: the turn
    /// must be taken again, spaced like any other.
    pub fn held_past(&self, turn: Instant) -> bool {
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.paused_until.is_some_and(|until| until > turn)
    }

    pub fn pause_all(&self, pause: Duration) {
        let until = Instant::now() + pause;
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.paused_until = slots.paused_until.max(Some(until));
        self.active.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_spaced_by_the_interval() {
        let pace = Pace::new(Some(Duration::from_millis(50)));
        assert_eq!(pace.turn(), None, "the first request goes at once");
        let second = pace.turn().expect("the second waits");
        let third = pace.turn().expect("the third waits");
        assert!(third >= second + Duration::from_millis(50));
        assert!(Pace::new(None).turn().is_none());
    }

    #[test]
    fn a_pause_holds_a_turn_already_taken() {
        let pace = Pace::new(Some(Duration::from_secs(5)));
        pace.turn();
        let taken = pace.turn().expect("spaced");
        assert!(!pace.held_past(taken));
        pace.pause_all(Duration::from_secs(60));
        assert!(pace.held_past(taken), "the pause must hold the taken turn");
        let again = pace.turn().expect("after the pause");
        assert!(again >= Instant::now() + Duration::from_secs(50));
    }

    #[test]
    fn a_pause_delays_every_later_turn() {
        let pace = Pace::new(None);
        assert_eq!(pace.turn(), None, "nothing to wait for without --rate");
        pace.pause_all(Duration::from_secs(60));
        let turn = pace.turn().expect("the pause holds it");
        assert!(turn >= Instant::now() + Duration::from_secs(50));
    }
}

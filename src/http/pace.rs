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

    /// Waits for this request's turn: after any pause, and one interval after the
    /// previous request's turn.
    pub fn wait_turn(&self) {
        if !self.active.load(Ordering::Relaxed) {
            return;
        }
        // A 429 pause that began while this turn was waiting holds it too: the
        // turn is taken again after the pause, spaced like any other.
        while !self.sleep_until(self.reserve()) {}
    }

    /// The next free turn, taken.
    fn reserve(&self) -> Instant {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let mut turn = now;
        if let Some(until) = slots.paused_until {
            turn = turn.max(until);
        }
        if let Some(interval) = self.interval {
            turn = turn.max(slots.next.unwrap_or(now));
            slots.next = Some(turn + interval);
        }
        turn
    }

    /// Sleeps until `turn`; false when a pause now reaches past it.
    fn sleep_until(&self, turn: Instant) -> bool {
        let now = Instant::now();
        if turn > now {
            std::thread::sleep(turn - now);
        }
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.paused_until.is_none_or(|until| until <= turn)
    }

    /// This request's turn, taken without waiting for it (for the multiplexer,
    /// which starts the request then): None when it may start now.
    pub fn turn(&self) -> Option<Instant> {
        if !self.active.load(Ordering::Relaxed) {
            return None;
        }
        Some(self.reserve()).filter(|turn| *turn > Instant::now())
    }

    /// Whether a pause that began after `turn` was taken now holds it: the turn
    /// must be taken again, as `wait_turn` does.
    pub fn held_past(&self, turn: Instant) -> bool {
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.paused_until.is_some_and(|until| until > turn)
    }

    pub fn pause_all(&self, pause: Duration) {
        let until = Instant::now() + pause;
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.paused_until = Some(slots.paused_until.map_or(until, |u| u.max(until)));
        self.active.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_spaced_by_the_interval() {
        let pace = Pace::new(Some(Duration::from_millis(20)));
        let started = Instant::now();
        for _ in 0..6 {
            pace.wait_turn();
        }
        // Five intervals at least between the first turn and the sixth.
        assert!(started.elapsed() >= Duration::from_millis(100));
    }

    #[test]
    fn a_pause_holds_a_turn_already_taken() {
        let pace = Pace::new(Some(Duration::from_millis(5)));
        let taken = pace.reserve();
        pace.pause_all(Duration::from_millis(60));
        assert!(
            !pace.sleep_until(taken),
            "the pause must hold the taken turn"
        );
        let started = Instant::now();
        pace.wait_turn();
        assert!(started.elapsed() >= Duration::from_millis(40));
    }

    #[test]
    fn turns_taken_without_waiting_are_spaced_too() {
        let pace = Pace::new(Some(Duration::from_millis(50)));
        assert_eq!(pace.turn(), None, "the first request goes at once");
        let second = pace.turn().expect("the second waits");
        let third = pace.turn().expect("the third waits");
        assert!(third >= second + Duration::from_millis(50));
        pace.pause_all(Duration::from_millis(500));
        assert!(pace.held_past(third));
        assert!(Pace::new(None).turn().is_none());
    }

    #[test]
    fn a_pause_delays_every_later_turn() {
        let pace = Pace::new(None);
        pace.pause_all(Duration::from_millis(50));
        let started = Instant::now();
        pace.wait_turn();
        assert!(started.elapsed() >= Duration::from_millis(40));
    }
}

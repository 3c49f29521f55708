//! The batch run by one thread that waits for every answer at once (`Flights`, over
//! the HTTP multiplexer): no thread wakes up per lookup. Input order, the byte
//! budget, stops and abandoned lookups are the thread engine's own code; only the
//! way lookups are started and finished differs. Values are read by a thread of
//! their own, ahead of the lookups, so that a slow stdin never holds back answers
//! that are already in; it wakes the loop only when the loop ran out of values.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

use super::{Ending, Input, Limits, Shared, Sink, STOP_POLL};

/// Values read ahead of the lookups.
const READ_AHEAD: usize = 256;

/// Lookups under way on one thread, their answers awaited together.
pub trait Flights<T>: Send + 'static {
    /// Starts the lookup of input number `index`; its result when there was nothing
    /// to wait for (a value refused before sending).
    fn start(&mut self, index: usize, input: Input) -> Option<T>;
    /// Waits at most `wait`, or until `wake` is readable, and moves the lookups
    /// that finished to `done`. True when `wake` was readable.
    fn poll(
        &mut self,
        wait: Duration,
        wake: std::os::fd::BorrowedFd<'_>,
        done: &mut Vec<(usize, T)>,
    ) -> bool;
    /// Lookups started and not finished.
    fn under_way(&self) -> usize;
}

/// Wakes the loop from another thread (the input reader, a helper thread).
#[derive(Clone)]
pub struct Waker(Arc<UnixStream>);

/// The loop's end of its wake-ups, and the waker that writes to it.
pub struct Wake {
    rx: UnixStream,
    waker: Waker,
}

impl Wake {
    pub fn new() -> std::io::Result<Wake> {
        let (rx, tx) = UnixStream::pair()?;
        rx.set_nonblocking(true)?;
        tx.set_nonblocking(true)?;
        Ok(Wake {
            rx,
            waker: Waker(Arc::new(tx)),
        })
    }

    pub fn waker(&self) -> Waker {
        self.waker.clone()
    }
}

impl Waker {
    pub fn wake(&self) {
        // A full socket already holds a wake-up: nothing is lost.
        let _ = (&*self.0).write(&[1]);
    }
}

/// `run_ordered`, with the lookups run by `flights` on one thread, at most
/// `limits.jobs` under way; `wake` is the one whose waker `flights` holds.
#[allow(clippy::too_many_arguments)]
pub fn run_evented<T, F, G, A, S>(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    limits: Limits,
    stop: Arc<AtomicBool>,
    wake: Wake,
    mut flights: F,
    weigh: G,
    abandoned: A,
    sink: S,
) -> (bool, S)
where
    T: Send + 'static,
    F: Flights<T>,
    G: Fn(&T) -> usize + Send + Sync + 'static,
    A: FnMut(usize) -> Option<T>,
    S: Sink<T>,
{
    let Wake { rx: wake_rx, waker } = wake;
    let queue = Arc::new(Queue::default());
    spawn_reader(inputs, Arc::clone(&queue), waker, Arc::clone(&stop));
    let shared = Arc::new(Shared::new(
        std::iter::empty(),
        limits.jobs.max(1),
        1,
        stop,
        (),
        weigh,
        limits.budget,
        sink,
    ));
    let jobs = limits.jobs.max(1);
    let looping = Arc::clone(&shared);
    thread::spawn(move || {
        let ending = Ending(&looping);
        looping.evented_loop(&mut flights, &queue, &wake_rx, jobs);
        drop(ending);
    });
    shared.end(abandoned)
}

/// Values read ahead, handed from the reader thread to the loop.
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
    space: Condvar,
}

#[derive(Default)]
struct QueueState {
    values: VecDeque<Input>,
    ended: bool,
    /// The loop found the queue empty and waits for a wake-up.
    starving: bool,
    /// The reader waits for space.
    full: bool,
}

enum Next {
    Value(Input),
    NotYet,
    Ended,
}

impl Queue {
    fn state(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn next(&self) -> Next {
        let mut state = self.state();
        let Some(value) = state.values.pop_front() else {
            if state.ended {
                return Next::Ended;
            }
            state.starving = true;
            return Next::NotYet;
        };
        // The reader is woken only when half the queue is free: one wake-up per
        // many values.
        if state.full && state.values.len() <= READ_AHEAD / 2 {
            state.full = false;
            self.space.notify_one();
        }
        Next::Value(value)
    }
}

fn spawn_reader(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    queue: Arc<Queue>,
    waker: Waker,
    stop: Arc<AtomicBool>,
) {
    thread::spawn(move || {
        let mut inputs = inputs;
        loop {
            let next = (!stop.load(Ordering::SeqCst))
                .then(|| inputs.next())
                .flatten();
            let mut state = queue.state();
            while next.is_some() && state.values.len() >= READ_AHEAD {
                state.full = true;
                state = queue.space.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            let ended = next.is_none();
            match next {
                Some(value) => state.values.push_back(value),
                None => state.ended = true,
            }
            if std::mem::take(&mut state.starving) || ended {
                waker.wake();
            }
            if ended {
                return;
            }
        }
    });
}

impl<T, S, G> Shared<T, S, std::iter::Empty<Input>, (), G>
where
    T: Send + 'static,
    S: Sink<T>,
    G: Fn(&T) -> usize,
{
    fn evented_loop<F: Flights<T>>(
        &self,
        flights: &mut F,
        queue: &Queue,
        wake: &UnixStream,
        jobs: usize,
    ) {
        let mut done = Vec::new();
        let mut next_index = 0;
        let mut ended = false;
        loop {
            while !ended && !self.stopped() && flights.under_way() < jobs && self.take_room() {
                match queue.next() {
                    Next::Value(input) => {
                        let index = next_index;
                        next_index += 1;
                        if let Some(result) = flights.start(index, input) {
                            done.push((index, result));
                        }
                    }
                    Next::NotYet => {
                        self.give_room_back(false);
                        break;
                    }
                    Next::Ended => {
                        self.give_room_back(true);
                        ended = true;
                    }
                }
            }
            self.deliver_all(&mut done);
            if flights.under_way() == 0 && (ended || self.stopped()) {
                return;
            }
            if flights.poll(STOP_POLL, wake.as_fd(), &mut done) {
                // Wake-ups are only a reason to look again; what they were for is
                // in the queue or in `done`.
                let mut sink = [0; 64];
                while matches!((&*wake).read(&mut sink), Ok(n) if n > 0) {}
            }
            self.deliver_all(&mut done);
        }
    }

    /// Counts a lookup as in flight when the budget has room for it.
    fn take_room(&self) -> bool {
        let mut order = self.order();
        if order.exhausted || self.full(&order, 0) {
            return false;
        }
        order.in_flight += 1;
        true
    }

    fn give_room_back(&self, exhausted: bool) {
        let mut order = self.order();
        order.in_flight -= 1;
        order.exhausted |= exhausted;
    }

    fn deliver_all(&self, done: &mut Vec<(usize, T)>) {
        if done.is_empty() {
            return;
        }
        let mut order = self.order();
        let mut emitted = false;
        for (index, result) in done.drain(..) {
            let weight = (self.weigh)(&result);
            emitted |= self.deliver_locked(&mut order, index, result, weight);
        }
        if emitted {
            self.flush(&mut order);
        }
    }
}

#[cfg(test)]
#[path = "evented_tests.rs"]
mod tests;

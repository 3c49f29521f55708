//! Many lookups at once, printed in input order, with at most one cross-thread
//! wake-up per lookup: each worker takes the next value from the shared input itself,
//! looks it up, and files the result in a reorder buffer; the worker that completes
//! the oldest unprinted lookup prints it and every finished one after it. Results
//! held behind a slow lookup are bounded in bytes (and in number); past the bound,
//! workers wait before taking another value, never while holding the oldest one.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

pub use crate::run::input::{inputs, Input};

mod threads;

#[cfg(unix)]
mod evented;
#[cfg(unix)]
pub use evented::{run_evented, Flights, Wake, Waker};

/// How many finished results may wait behind the oldest unprinted lookup, per job:
/// enough to keep every worker busy behind one slow lookup.
const WINDOW_PER_JOB: usize = 64;

/// Bytes of finished results that may wait behind the oldest unprinted lookup.
pub const BYTE_BUDGET: usize = 32 * 1024 * 1024;

/// How often a waiting thread looks at the stop flag.
/// Lookups started before the first answer tells how large answers are: enough to
/// keep a small batch as fast as ever, few enough that 32 jobs of 4 MiB answers do
/// not all start at once.
const FIRST_IN_FLIGHT: usize = 8;

const STOP_POLL: Duration = Duration::from_millis(50);
/// After a stop, how long lookups under way get to finish and be printed.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Where results go, in input order; called by whichever worker completes the
/// oldest unprinted lookup, one call at a time.
pub trait Sink<T>: Send + 'static {
    fn emit(&mut self, item: T) -> io::Result<()>;
    /// Called after each group of items emitted together: what was held may go out.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How the work is shared out.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub jobs: usize,
    /// Bytes of finished results that may wait for an earlier one.
    pub budget: usize,
}

/// The input and the index of the next value taken from it.
struct Feed<I> {
    values: I,
    next: usize,
}

/// The reorder buffer and the sink, under one lock: printing happens holding it.
struct Order<T, S> {
    next_out: usize,
    pending: BTreeMap<usize, (T, usize)>,
    held: usize,
    /// Workers waiting for room; only then is a wake-up worth a system call.
    waiting: usize,
    running: usize,
    /// Lookups started and not yet delivered.
    in_flight: usize,
    /// The input has ended: workers waiting for room have nothing left to take.
    exhausted: bool,
    /// Whether any result came back yet: until one does, the size of answers is
    /// unknown and at most `FIRST_IN_FLIGHT` lookups start.
    sized: bool,
    /// A running average of the weight of recent results: with it the lookups in
    /// flight count against the budget before they finish, so that `-j 32` with
    /// large answers holds no more than `-j 8` would.
    typical: usize,
    /// Taken back by `run_ordered` at the end; later results are dropped.
    sink: Option<S>,
}

struct Shared<T, S, I, W, G> {
    feed: Mutex<Feed<I>>,
    order: Mutex<Order<T, S>>,
    room: Condvar,
    finished: Condvar,
    stop: Arc<AtomicBool>,
    work: W,
    weigh: G,
    window: usize,
    budget: usize,
}

/// Runs `work` over `inputs` (with their index) on `limits.jobs` threads and hands
/// each result to `sink` in input order. When `stop` is raised (a signal, or the sink
/// failing), no new work is started; the finished results are still handed out in
/// order, and a job still running after a grace period is handed out as
/// `abandoned(index)` makes it (None: output ends before it). Returns whether every
/// input was processed, and the sink.
pub fn run_ordered<T, W, G, A, S>(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    limits: Limits,
    stop: Arc<AtomicBool>,
    work: W,
    weigh: G,
    abandoned: A,
    sink: S,
) -> (bool, S)
where
    T: Send + 'static,
    W: Fn(usize, Input) -> T + Send + Sync + 'static,
    G: Fn(&T) -> usize + Send + Sync + 'static,
    A: FnMut(usize) -> Option<T>,
    S: Sink<T>,
{
    let jobs = limits.jobs.max(1);
    let shared = Arc::new(Shared::new(
        inputs,
        jobs,
        jobs,
        stop,
        work,
        weigh,
        limits.budget,
        sink,
    ));
    for worker in 0..jobs {
        let shared = Arc::clone(&shared);
        thread::spawn(move || {
            let ending = Ending(&shared);
            shared.work_loop(worker);
            drop(ending);
        });
    }
    shared.end(abandoned)
}

/// Tells the run a thread of it ended, even by a panic (a bug outside any one
/// lookup, which the panic hook reported): then the run stops, as at a signal, and
/// the lookups under way are handed out as abandoned, instead of the run waiting
/// for ever for a thread that is gone.
struct Ending<'a, T, S: Sink<T>, I, W, G>(&'a Shared<T, S, I, W, G>);

impl<T, S: Sink<T>, I, W, G> Drop for Ending<'_, T, S, I, W, G> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop.store(true, Ordering::SeqCst);
        }
        let mut order = self.0.order();
        order.running -= 1;
        if order.running == 0 {
            self.0.finished.notify_one();
        }
    }
}

/// After a stop, jobs still running past the grace period are abandoned (the process
/// is about to end). Results are handed out in order, an abandoned job as `abandoned`
/// makes it, up to the first job that never started: the output stays a prefix of
/// the input, so a script pairing output with input lines is never misled by a gap.
fn drain_stopped<T, S: Sink<T>>(
    order: &mut Order<T, S>,
    mut sink: S,
    mut abandoned: impl FnMut(usize) -> Option<T>,
) -> S {
    let mut next = order.next_out;
    while let Some(item) = order
        .pending
        .remove(&next)
        .map(|(item, _)| item)
        .or_else(|| abandoned(next))
    {
        next += 1;
        if sink.emit(item).is_err() {
            break;
        }
    }
    let _ = sink.flush();
    sink
}

impl<T, S: Sink<T>, I, W, G> Shared<T, S, I, W, G> {
    /// `jobs` sets the window of finished results; `running` is the number of
    /// threads that will end with `running -= 1`.
    #[allow(clippy::too_many_arguments)]
    fn new(
        inputs: I,
        jobs: usize,
        running: usize,
        stop: Arc<AtomicBool>,
        work: W,
        weigh: G,
        budget: usize,
        sink: S,
    ) -> Self {
        Shared {
            feed: Mutex::new(Feed {
                values: inputs,
                next: 0,
            }),
            order: Mutex::new(Order {
                next_out: 0,
                pending: BTreeMap::new(),
                held: 0,
                waiting: 0,
                running,
                in_flight: 0,
                exhausted: false,
                sized: false,
                typical: 0,
                sink: Some(sink),
            }),
            room: Condvar::new(),
            finished: Condvar::new(),
            stop,
            work,
            weigh,
            window: jobs * WINDOW_PER_JOB,
            budget,
        }
    }

    fn order(&self) -> MutexGuard<'_, Order<T, S>> {
        self.order.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Whether the results held, plus what the lookups in flight are likely to
    /// bring, pass the byte budget (or the window is full). A lookup with none in
    /// flight always starts, so the oldest unprinted one is never held back.
    ///
    /// With large answers, only the first workers (as many as the budget holds
    /// answers of the typical size) take lookups: each thread allocates from its own
    /// malloc arena, and freed megabytes stay in every arena that served them, so
    /// 32 threads taking turns held twice the memory of 8.
    fn full(&self, order: &Order<T, S>, worker: usize) -> bool {
        let expected = order.held + order.in_flight * order.typical;
        order.pending.len() >= self.window
            || order.held > self.budget
            || (order.in_flight > 0 && expected > self.budget)
            || worker.saturating_mul(order.typical) > self.budget
            || (!order.sized && order.in_flight >= FIRST_IN_FLIGHT)
    }

    fn deliver(&self, index: usize, result: T, weight: usize) {
        let mut order = self.order();
        if self.deliver_locked(&mut order, index, result, weight) {
            self.flush(&mut order);
        }
    }

    /// Lets the sink write out what it was given.
    fn flush(&self, order: &mut Order<T, S>) {
        if order
            .sink
            .as_mut()
            .is_some_and(|sink| sink.flush().is_err())
        {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Files a result; emits it and those it held back when it is the oldest
    /// unprinted one (then true: the sink has something to flush).
    fn deliver_locked(
        &self,
        order: &mut Order<T, S>,
        index: usize,
        result: T,
        weight: usize,
    ) -> bool {
        order.in_flight -= 1;
        // Recent results weigh most: a batch's answers change size slowly, if at all.
        order.typical = match order.sized {
            true => (order.typical * 7 + weight) / 8,
            false => weight,
        };
        order.sized = true;
        let Some(sink) = order.sink.as_mut() else {
            return false;
        };
        if index != order.next_out {
            order.pending.insert(index, (result, weight));
            order.held += weight;
            if order.waiting > 0 {
                self.room.notify_all();
            }
            return false;
        }
        let mut failed = sink.emit(result).is_err();
        order.next_out += 1;
        let mut freed = false;
        while let Some((result, weight)) = order.pending.remove(&order.next_out) {
            order.next_out += 1;
            order.held -= weight;
            freed = true;
            failed = failed || sink.emit(result).is_err();
        }
        if failed {
            self.stop.store(true, Ordering::SeqCst);
        }
        if freed && order.waiting > 0 {
            self.room.notify_all();
        }
        true
    }

    /// The end of a run: whether every input was processed, and the sink, given
    /// what `drain_stopped` still hands out after a stop.
    fn end(&self, abandoned: impl FnMut(usize) -> Option<T>) -> (bool, S) {
        let mut order = self.wait_for_workers();
        let sink = order.sink.take().expect("taken only here");
        if self.stopped() {
            return (false, drain_stopped(&mut order, sink, abandoned));
        }
        (true, sink)
    }

    /// Until every worker is done or, after a stop, the grace period has passed.
    fn wait_for_workers(&self) -> MutexGuard<'_, Order<T, S>> {
        let mut order = self.order();
        let mut grace_end: Option<Instant> = None;
        while order.running > 0 {
            if self.stopped() {
                let end = *grace_end.get_or_insert_with(|| Instant::now() + STOP_GRACE);
                if Instant::now() >= end {
                    break;
                }
                // Workers waiting for room notice the stop and leave.
                self.room.notify_all();
            }
            order = self
                .finished
                .wait_timeout(order, STOP_POLL)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        order
    }
}

#[cfg(test)]
mod tests;

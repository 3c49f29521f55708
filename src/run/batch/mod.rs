//! The one engine: every lookup of a run on `-j` worker threads. A lookup is a
//! state machine (`Work::step`) whose every step is one request, after which it is
//! done or due again at a time (a retry's pause, a `--rate` turn, the next `--wait`
//! poll). Due lookups wait in one queue, so no worker sleeps holding one: `-j`
//! workers poll any number of values. The worker that finishes the oldest unprinted
//! lookup prints it and every finished one after it, so output is in input order. A
//! thread of its own reads the values, so a slow stdin holds up no worker. Results
//! held behind a slow lookup are bounded in bytes and number, and so are lookups
//! under way, except under `--wait`: every value read is watched at once, and the
//! run ends at the deadline whatever the input still holds.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::domain::budget::Budget;
use crate::domain::lock;
use crate::domain::step::Step;

pub use crate::run::input::{inputs, Input};

/// Finished results that may wait behind the oldest unprinted lookup, per job.
const WINDOW_PER_JOB: usize = 64;

/// Lookups begun and not finished, per job, when the count is bounded: room for
/// those waiting for a retry or a `--rate` turn beside those under way.
const IN_FLIGHT_PER_JOB: usize = 4;

/// Lookups begun before the first result tells how large answers are: few enough
/// that 32 jobs of 4 MiB answers do not all start at once.
const FIRST_IN_FLIGHT: usize = 8;

/// How often a waiting thread looks at the stop flag (a signal wakes no one).
const STOP_POLL: Duration = Duration::from_millis(50);
/// After a stop, how long lookups under way get to finish and be printed.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Values read ahead of the workers, per job. The reader is woken when half of them
/// are taken, so it reads many at each wake-up (woken for each value, it cost a
/// batch a third more CPU).
const READ_AHEAD_PER_JOB: usize = 8;

pub trait Work: Send + Sync + 'static {
    type Lookup: Send + 'static;
    /// What a lookup comes to, in input order to the sink.
    type Out: Send + 'static;
    /// What a stop needs of a lookup a worker is stepping (made at every step).
    type Tag: Send + 'static;
    /// The lookup of input number `index`, or what it comes to without a request.
    fn begin(
        &self,
        index: usize,
        input: Input,
        tell: Tell<'_, Self::Out>,
    ) -> Result<Self::Lookup, Self::Out>;
    /// One request of a lookup whose time has come.
    fn step(
        &self,
        index: usize,
        lookup: &mut Self::Lookup,
        tell: Tell<'_, Self::Out>,
    ) -> Step<Self::Out>;
    fn tag(&self, lookup: &Self::Lookup) -> Self::Tag;
    /// A rough count of the bytes a result holds, for the memory budget.
    fn weigh(&self, out: &Self::Out) -> usize;
    /// What to print for a lookup a stop cut short (None: output ends before it).
    fn abandoned(&self, index: usize, cut: Cut<'_, Self::Lookup, Self::Tag>) -> Option<Self::Out>;
}

/// Hands an item to the sink at once, out of order (`Sink::tell`).
pub type Tell<'a, T> = &'a dyn Fn(&T);

/// A lookup a stop cut short: waiting in the queue, or in a worker's hands when
/// the grace period ended.
pub enum Cut<'a, L, T> {
    Waiting(&'a L),
    Busy(&'a T),
}

/// Where results go, in input order, one call at a time.
pub trait Sink<T>: Send + 'static {
    fn emit(&mut self, item: T) -> io::Result<()>;
    /// An item told as it happens, before its turn (`--follow`'s lines).
    fn tell(&mut self, _item: &T) -> io::Result<()> {
        Ok(())
    }
    /// Called after each group of items emitted together.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Done,
    /// The deadline passed with the input not read to its end.
    Deadline,
    /// A signal, or the sink failing.
    Stopped,
}

#[derive(Debug, Clone)]
pub struct Limits {
    pub jobs: usize,
    /// Shared with the client: results held here and answers it reads count against it.
    pub budget: Arc<Budget>,
    /// The end of `--wait`. Under it the lookups begun are not counted: each value
    /// read is watched from the start (a waiting lookup is a small record).
    pub deadline: Option<Instant>,
}

/// Lookups waiting for their time (with their input index), earliest first, then
/// by arrival: a lookup due again goes behind those already waiting.
type Queue<L> = BTreeMap<(Instant, u64), (usize, L)>;

/// What workers take next, under one lock.
struct Room<W: Work> {
    due: Queue<W::Lookup>,
    seq: u64,
    /// Values read and not begun, in input order.
    ready: VecDeque<(usize, Input)>,
    /// Lookups begun and not finished (in the queue or in a worker's hands).
    in_flight: usize,
    exhausted: bool,
    /// Finished results waiting for an earlier one, as `Order` last counted them
    /// (their bytes are the budget's).
    parked: usize,
    /// A running average of the weight of recent results: with it the lookups under
    /// way count against the budget before they finish, so that `-j 32` with large
    /// answers holds no more than `-j 8` would. Until a result comes back, the size
    /// of answers is unknown and at most `FIRST_IN_FLIGHT` lookups begin.
    typical: Option<usize>,
    /// Workers waiting; only then is a wake-up worth a system call.
    waiting: usize,
    reader_waiting: bool,
    running: usize,
}

/// The reorder buffer and the sink.
struct Order<T, S> {
    next_out: usize,
    pending: BTreeMap<usize, (T, usize)>,
    /// Taken back by `run` at the end; later results are dropped.
    sink: Option<S>,
}

struct Shared<W: Work, S> {
    work: Arc<W>,
    room: Mutex<Room<W>>,
    /// Workers wait on it for a due lookup, a value or room.
    wake: Condvar,
    /// The reader waits on it for room in `ready`.
    more: Condvar,
    /// The run's end waits on it for the workers (apart from `wake`, so that no
    /// worker's wake-up goes to it).
    ended: Condvar,
    order: Mutex<Order<W::Out, S>>,
    /// What each worker is stepping, for a stop: a lock per worker, so that marking
    /// a step costs no turn at the room's lock.
    busy: Vec<Mutex<Busy<W::Tag>>>,
    stop: Arc<AtomicBool>,
    /// Nothing more is handed to a sink that failed.
    sink_failed: AtomicBool,
    limits: Limits,
}

type Busy<T> = Option<(usize, T)>;

enum Task<L> {
    Step(usize, L),
    Begin(usize, Input),
    Quit,
}

/// Runs every input through `work` and hands each result to `sink` in input order.
/// Once `stop` is raised, no new request is made, and the lookups under way get a
/// grace period.
pub fn run<W: Work, S: Sink<W::Out>>(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    limits: Limits,
    stop: Arc<AtomicBool>,
    work: Arc<W>,
    sink: S,
) -> (Ended, S) {
    let jobs = limits.jobs.max(1);
    let shared = Arc::new(Shared {
        work,
        room: Mutex::new(Room {
            due: BTreeMap::new(),
            seq: 0,
            ready: VecDeque::new(),
            in_flight: 0,
            exhausted: false,
            parked: 0,
            typical: None,
            waiting: 0,
            reader_waiting: false,
            running: jobs,
        }),
        wake: Condvar::new(),
        more: Condvar::new(),
        ended: Condvar::new(),
        order: Mutex::new(Order {
            next_out: 0,
            pending: BTreeMap::new(),
            sink: Some(sink),
        }),
        busy: (0..jobs).map(|_| Mutex::new(None)).collect(),
        stop,
        sink_failed: AtomicBool::new(false),
        limits: Limits { jobs, ..limits },
    });
    for worker in 0..jobs {
        let shared = Arc::clone(&shared);
        thread::spawn(move || {
            let ending = Ending(&*shared);
            shared.work_loop(worker);
            drop(ending);
        });
    }
    // Left behind when the run ends first (a stdin still open at the deadline):
    // the process is about to end, and a read cannot be called off.
    let reader = Arc::clone(&shared);
    thread::spawn(move || reader.read_all(inputs));
    shared.end()
}

/// Tells the run a worker ended, even by a panic (a bug outside any one lookup,
/// which the hook reported): then the run stops as at a signal, instead of waiting
/// for ever for a thread that is gone.
struct Ending<'a, W: Work, S>(&'a Shared<W, S>);

impl<W: Work, S> Drop for Ending<'_, W, S> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop.store(true, Ordering::SeqCst);
        }
        let mut room = lock(&self.0.room);
        room.running -= 1;
        // The others may be waiting for a lookup this one would have handed back.
        self.0.wake.notify_all();
        self.0.ended.notify_one();
    }
}

/// Waits on `on` for at most `limit`; a poisoned lock is taken as it is.
fn wait<'a, T>(on: &Condvar, guard: MutexGuard<'a, T>, limit: Duration) -> MutexGuard<'a, T> {
    on.wait_timeout(guard, limit)
        .unwrap_or_else(|e| e.into_inner())
        .0
}

impl<W: Work, S: Sink<W::Out>> Shared<W, S> {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn past_deadline(&self, now: Instant) -> bool {
        self.limits.deadline.is_some_and(|deadline| now >= deadline)
    }

    fn sink_broke(&self) {
        self.sink_failed.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Values into `ready` until the input ends, the run stops or its deadline passes.
    fn read_all(&self, mut values: impl Iterator<Item = Input>) {
        for index in 0.. {
            if self.stopped() || self.past_deadline(Instant::now()) {
                return;
            }
            let next = values.next();
            // One turn at the lock per value (workers take it for every lookup too):
            // the value goes in, then the reader waits there for room for the next.
            let mut room = lock(&self.room);
            let Some(input) = next else {
                room.exhausted = true;
                self.wake.notify_all();
                return;
            };
            room.ready.push_back((index, input));
            if room.waiting > 0 {
                self.wake.notify_one();
            }
            while room.ready.len() >= self.limits.jobs * READ_AHEAD_PER_JOB && !self.stopped() {
                room.reader_waiting = true;
                room = wait(&self.more, room, STOP_POLL);
                room.reader_waiting = false;
            }
        }
    }

    fn work_loop(&self, worker: usize) {
        let tell = |out: &W::Out| self.tell(out);
        loop {
            let (index, mut lookup) = match self.next_task(worker) {
                Task::Step(index, lookup) => (index, lookup),
                Task::Begin(index, input) => match self.work.begin(index, input, &tell) {
                    Ok(lookup) => (index, lookup),
                    Err(out) => {
                        self.deliver(index, out);
                        continue;
                    }
                },
                Task::Quit => return,
            };
            *lock(&self.busy[worker]) = Some((index, self.work.tag(&lookup)));
            let step = self.work.step(index, &mut lookup, &tell);
            *lock(&self.busy[worker]) = None;
            match step {
                Step::Done(out) => self.deliver(index, out),
                Step::At(at) => self.requeue(index, lookup, at),
            }
        }
    }

    /// The earliest due lookup, else the next value when there is room, else a wait
    /// for whichever comes first.
    fn next_task(&self, worker: usize) -> Task<W::Lookup> {
        let mut room = lock(&self.room);
        loop {
            if self.stopped() {
                return Task::Quit;
            }
            let now = Instant::now();
            let first_due = room.due.first_key_value().map(|(&(at, _), _)| at);
            let due = first_due.is_some_and(|at| at <= now);
            let ready = !room.ready.is_empty() && !self.full(&room, worker);
            // A lookup due again keeps the oldest moving; but a value never asked
            // comes before another poll of one already seen, however busy the polls.
            if due && (!ready || self.limits.deadline.is_none()) {
                let (_, (index, lookup)) = room.due.pop_first().expect("peeked");
                return Task::Step(index, lookup);
            }
            if ready {
                let (index, input) = room.ready.pop_front().expect("not empty");
                room.in_flight += 1;
                if room.reader_waiting
                    && room.ready.len() <= self.limits.jobs * READ_AHEAD_PER_JOB / 2
                {
                    self.more.notify_one();
                }
                return Task::Begin(index, input);
            }
            // At the deadline, what was not read is left unread: every lookup begun
            // ends then too, so the run does not wait for a stdin still open.
            let read_all = room.exhausted || self.past_deadline(now);
            if read_all && room.ready.is_empty() && room.in_flight == 0 {
                return Task::Quit;
            }
            let until_due = first_due.map_or(STOP_POLL, |at| at.saturating_duration_since(now));
            room.waiting += 1;
            room = wait(&self.wake, room, until_due.min(STOP_POLL));
            room.waiting -= 1;
        }
    }

    /// Whether the results held, plus what the lookups under way are likely to
    /// bring, pass the memory budget (or a count is at its bound). A lookup with none
    /// under way always begins, so the oldest unprinted one is never held back.
    /// Under `--wait` every value read begins. With large answers, only
    /// the first workers begin lookups (as many as the budget holds answers of the
    /// typical size): freed megabytes stay in every thread's malloc arena that
    /// served them, so 32 threads taking turns held twice the memory of 8.
    fn full(&self, room: &Room<W>, worker: usize) -> bool {
        if self.limits.deadline.is_some() {
            return false;
        }
        let (jobs, budget) = (self.limits.jobs, self.limits.budget.limit);
        let held = self.limits.budget.held();
        // Only lookups in a worker's hands hold an answer; those in the queue do not.
        let (reading, typical) = (room.in_flight.min(jobs), room.typical.unwrap_or(0));
        let expected = held + reading * typical;
        room.parked >= jobs * WINDOW_PER_JOB
            || held > budget
            || (room.in_flight > 0 && expected > budget)
            || worker.saturating_mul(typical) > budget
            || room.in_flight >= jobs * IN_FLIGHT_PER_JOB
            || (room.typical.is_none() && room.in_flight >= FIRST_IN_FLIGHT)
    }

    fn requeue(&self, index: usize, lookup: W::Lookup, at: Instant) {
        let mut room = lock(&self.room);
        let seq = room.seq;
        room.seq += 1;
        let earliest = room.due.first_key_value().is_none_or(|(key, _)| at < key.0);
        room.due.insert((at, seq), (index, lookup));
        if earliest && room.waiting > 0 {
            self.wake.notify_one();
        }
    }

    fn tell(&self, out: &W::Out) {
        let mut order = lock(&self.order);
        if let Some(Err(_)) = order.sink.as_mut().map(|sink| sink.tell(out)) {
            self.sink_broke();
        }
    }

    /// Files a result; emits it and those it held back if it is the oldest unprinted.
    fn deliver(&self, index: usize, out: W::Out) {
        let weight = self.work.weigh(&out);
        let mut order = lock(&self.order);
        let Order {
            next_out,
            pending,
            sink,
        } = &mut *order;
        match sink {
            None => {}
            Some(_) if index != *next_out => {
                pending.insert(index, (out, weight));
                self.limits.budget.hold(weight);
            }
            Some(sink) => {
                let mut failed = sink.emit(out).is_err();
                *next_out += 1;
                while let Some((out, weight)) = pending.remove(next_out) {
                    *next_out += 1;
                    self.limits.budget.release(weight);
                    failed = failed || sink.emit(out).is_err();
                }
                if failed || sink.flush().is_err() {
                    self.sink_broke();
                }
            }
        }
        // Under the order's lock still, so that the count copied is the latest: a
        // result parked here may be printed by another worker as soon as it is let go.
        let mut room = lock(&self.room);
        room.parked = pending.len();
        drop(order);
        room.in_flight -= 1;
        let first = room.typical.is_none();
        // Recent results weigh most: a batch's answers change size slowly, if at all.
        room.typical = Some(room.typical.map_or(weight, |t| (t * 7 + weight) / 8));
        // One fewer under way (and maybe bytes freed): room for a worker to begin one.
        // The first result ends `FIRST_IN_FLIGHT`: all may begin one (woken one by one,
        // most would sleep out `STOP_POLL`). At the end of the run, every worker leaves.
        if room.waiting > 0 {
            match first || (room.exhausted && room.in_flight == 0) {
                true => self.wake.notify_all(),
                false => self.wake.notify_one(),
            }
        }
    }

    /// Waits for the workers, then says how the run ended and gives the sink back.
    fn end(&self) -> (Ended, S) {
        self.wait_for_workers();
        // The order's lock first, as `deliver` takes them.
        let mut order = lock(&self.order);
        let room = lock(&self.room);
        let sink = order.sink.take().expect("taken only here");
        if self.stopped() {
            return (Ended::Stopped, self.drain_stopped(&room, &mut order, sink));
        }
        match room.exhausted {
            true => (Ended::Done, sink),
            false => (Ended::Deadline, sink),
        }
    }

    /// Until every worker is done or, after a stop, the grace period passed.
    fn wait_for_workers(&self) {
        let mut room = lock(&self.room);
        let mut grace_end: Option<Instant> = None;
        while room.running > 0 {
            if self.stopped() {
                let end = *grace_end.get_or_insert_with(|| Instant::now() + STOP_GRACE);
                if Instant::now() >= end {
                    break;
                }
                // Workers waiting notice the stop and leave.
                self.wake.notify_all();
            }
            room = wait(&self.ended, room, STOP_POLL);
        }
    }

    /// After a stop, results are handed out in order, a lookup still under way as
    /// `Work::abandoned` makes it, up to the first that never began: the output
    /// stays a prefix of the input, so a script pairing output with input lines is
    /// never misled by a gap. A sink that failed is handed nothing more.
    fn drain_stopped(&self, room: &Room<W>, order: &mut Order<W::Out, S>, mut sink: S) -> S {
        if self.sink_failed.load(Ordering::SeqCst) {
            return sink;
        }
        let waiting: BTreeMap<usize, &W::Lookup> =
            room.due.values().map(|(i, l)| (*i, l)).collect();
        let slots: Vec<_> = self.busy.iter().map(lock).collect();
        let busy: BTreeMap<usize, &W::Tag> = slots
            .iter()
            .filter_map(|slot| slot.as_ref().map(|(index, tag)| (*index, tag)))
            .collect();
        let mut next = order.next_out;
        while let Some(item) = order
            .pending
            .remove(&next)
            .map(|(item, _)| item)
            .or_else(|| {
                let cut = match (waiting.get(&next), busy.get(&next)) {
                    (Some(lookup), _) => Cut::Waiting(*lookup),
                    (None, Some(tag)) => Cut::Busy(*tag),
                    (None, None) => return None,
                };
                self.work.abandoned(next, cut)
            })
        {
            next += 1;
            if sink.emit(item).is_err() {
                break;
            }
        }
        let _ = sink.flush();
        sink
    }
}

#[cfg(test)]
mod tests;

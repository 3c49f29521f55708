//! A batch's lookups over the HTTP multiplexer (`http/mux.rs`), for the one-thread
//! engine (`batch::run_evented`). A lookup's first request goes through the
//! multiplexer; its answer usually settles it (a record, a service error), and the
//! rest is reading it, done on the loop thread. When it does not (a retry is due,
//! the short path is to be tried), a helper thread finishes it with the blocking
//! client, which waits as the thread engine would. `--rate` and a 429's pause
//! delay first requests here: each waits for its turn in a queue, not in a thread.

use std::collections::VecDeque;
use std::os::fd::BorrowedFd;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use super::{panicked, Worker};
use crate::domain::error::LookupError;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::preview;
use crate::http::client::First;
use crate::http::mux::Reply;
use crate::http::mux::{Finished, Mux};
use crate::run::batch::{Flights, Input, Waker};
use crate::run::by_index::ByIndex;
use crate::run::panic_hook::catching;
use crate::settings::config::Config;

/// A lookup whose first request is out.
struct Started {
    query: String,
    paths: Vec<String>,
    at: Instant,
}

/// How a lookup began.
enum Begun {
    Sent(Started),
    /// It ended before any request (a bad value, the early stop).
    Ended(Outcome),
}

/// What became of a lookup with its first answer.
enum Answered {
    Settled(Outcome),
    /// It needs more requests: a helper thread finishes it.
    Blocking(Started, First),
}

/// What a helper thread does: the rest of a lookup after its first answer.
struct Job(Started, First);

impl Worker {
    /// The multiplexer for this run's lookups, when they can go that way.
    pub(crate) fn multiplexer(&self, config: &Config) -> Option<Mux> {
        self.wait
            .is_none()
            .then(|| self.client.multiplexer(config))?
    }

    /// The lookup of `input` started: its first request's path, or its outcome
    /// when it ends before any request (a bad value, the early stop).
    fn begin(&self, index: usize, input: Input) -> Begun {
        let ready = match &input {
            Ok(query) => self.halt.refusal().is_none() && self.kind.validate(query).is_ok(),
            Err(_) => false,
        };
        let (true, Ok(query)) = (ready, &input) else {
            return Begun::Ended(self.outcome(index, input));
        };
        let paths = self.client.paths_for(self.kind, query);
        self.start_tracking(index, preview(query));
        Begun::Sent(Started {
            query: query.clone(),
            paths,
            at: Instant::now(),
        })
    }

    /// A lookup with its first answer: settled at once when the answer is all it
    /// needs. A panic (reading the answer is most of the work) fails it alone.
    fn answered(
        &self,
        index: usize,
        mut started: Started,
        reply: Result<Reply, LookupError>,
    ) -> Answered {
        let paths = std::mem::take(&mut started.paths);
        match catching(|| self.client.first_answer(paths, reply)) {
            Ok((first, true)) => Answered::Settled(self.finish(index, started, first)),
            Ok((first, false)) => Answered::Blocking(started, first),
            Err(()) => {
                let shown = preview(&started.query);
                let failed = || Outcome::new(self.kind, shown.clone(), Err(panicked()));
                let outcome = self.tracked(index, shown.clone(), started.at, failed);
                Answered::Settled(self.told(outcome))
            }
        }
    }

    /// The rest of a lookup after its first answer; blocks only when the answer
    /// does not settle it.
    fn finish(&self, index: usize, started: Started, first: First) -> Outcome {
        let Started { query, at, .. } = started;
        let outcome = self.tracked(index, preview(&query), at, || {
            let result = self.client.lookup_after(self.kind, &query, first);
            self.judged(query, result)
        });
        self.told(outcome)
    }
}

pub(crate) struct MuxFlights {
    worker: Arc<Worker>,
    mux: Mux,
    /// Lookups whose first request is out, by input index (the multiplexer's token).
    out: ByIndex<Started>,
    /// Lookups begun whose first request waits for its turn (`--rate`, a 429's
    /// pause), in the order of their turns.
    waiting: VecDeque<(Instant, usize, Started)>,
    answers: Vec<Finished>,
    helpers: Helpers,
}

impl MuxFlights {
    pub(crate) fn new(worker: Arc<Worker>, mux: Mux, waker: Waker, jobs: usize) -> MuxFlights {
        MuxFlights {
            helpers: Helpers::new(Arc::clone(&worker), waker, jobs),
            worker,
            mux,
            out: ByIndex::default(),
            waiting: VecDeque::new(),
            answers: Vec::new(),
        }
    }

    /// Sends the first request now, or queues it for its turn.
    fn send(&mut self, index: usize, started: Started) {
        match self.worker.client.turn() {
            Some(turn) => self.waiting.push_back((turn, index, started)),
            None => self.go(index, started),
        }
    }

    fn go(&mut self, index: usize, started: Started) {
        self.mux.start(index, started.paths[0].clone());
        self.out.insert(index, started);
    }

    /// Sends the requests whose turn came; a turn that a 429's pause now holds is
    /// taken again (as the blocking client's `wait_turn` does).
    fn send_due(&mut self) {
        let now = Instant::now();
        while self.waiting.front().is_some_and(|(turn, ..)| *turn <= now) {
            let (turn, index, started) = self.waiting.pop_front().expect("looked at");
            match self.worker.client.held_past(turn) {
                true => self.send(index, started),
                false => self.go(index, started),
            }
        }
    }
}

impl Flights<Outcome> for MuxFlights {
    fn start(&mut self, index: usize, input: Input) -> Option<Outcome> {
        match self.worker.begin(index, input) {
            Begun::Sent(started) => {
                self.send(index, started);
                None
            }
            Begun::Ended(outcome) => Some(outcome),
        }
    }

    fn poll(
        &mut self,
        wait: Duration,
        wake: BorrowedFd<'_>,
        done: &mut Vec<(usize, Outcome)>,
    ) -> bool {
        let wait = match self.waiting.front() {
            Some((turn, ..)) => wait.min(turn.saturating_duration_since(Instant::now())),
            None => wait,
        };
        let woken = self.mux.poll(wait, Some(wake), &mut self.answers);
        self.send_due();
        for (index, reply) in self.answers.drain(..) {
            let started = self.out.remove(&index).expect("each token answered once");
            match self.worker.answered(index, started, reply) {
                Answered::Settled(outcome) => done.push((index, outcome)),
                Answered::Blocking(started, first) => self.helpers.run(index, Job(started, first)),
            }
        }
        self.helpers.collect(done);
        woken
    }

    fn under_way(&self) -> usize {
        self.mux.under_way() + self.waiting.len() + self.helpers.under_way
    }
}

/// Threads for the lookups that must block, started as needed, at most one per job
/// (there are never more lookups under way).
struct Helpers {
    worker: Arc<Worker>,
    shared: Arc<HelperShared>,
    waker: Waker,
    threads: usize,
    max: usize,
    under_way: usize,
}

#[derive(Default)]
struct HelperShared {
    jobs: Mutex<(VecDeque<(usize, Job)>, usize)>,
    more: Condvar,
    results: Mutex<Vec<(usize, Outcome)>>,
}

impl Helpers {
    fn new(worker: Arc<Worker>, waker: Waker, jobs: usize) -> Helpers {
        Helpers {
            worker,
            shared: Arc::default(),
            waker,
            threads: 0,
            max: jobs.max(1),
            under_way: 0,
        }
    }

    fn run(&mut self, index: usize, job: Job) {
        self.under_way += 1;
        let mut queue = lock(&self.shared.jobs);
        queue.0.push_back((index, job));
        let idle = queue.1;
        drop(queue);
        if idle > 0 || self.threads >= self.max {
            self.shared.more.notify_one();
            return;
        }
        self.threads += 1;
        let (worker, shared, waker) = (
            Arc::clone(&self.worker),
            Arc::clone(&self.shared),
            self.waker.clone(),
        );
        thread::spawn(move || loop {
            let (index, job) = {
                let mut queue = lock(&shared.jobs);
                loop {
                    if let Some(job) = queue.0.pop_front() {
                        break job;
                    }
                    queue.1 += 1;
                    queue = shared.more.wait(queue).unwrap_or_else(|e| e.into_inner());
                    queue.1 -= 1;
                }
            };
            let Job(started, first) = job;
            let outcome = worker.finish(index, started, first);
            lock(&shared.results).push((index, outcome));
            waker.wake();
        });
    }

    fn collect(&mut self, done: &mut Vec<(usize, Outcome)>) {
        if self.under_way == 0 {
            return;
        }
        let mut results = lock(&self.shared.results);
        self.under_way -= results.len();
        done.append(&mut results);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

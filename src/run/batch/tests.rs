//! Tests of the batch engine: order, the bounds on what waits, stops, and lookups
//! that wait in the queue instead of holding a worker.

use super::*;
use crate::domain::budget::MEMORY_BUDGET;
use std::sync::atomic::AtomicUsize;

fn values(n: usize) -> Vec<String> {
    (0..n).map(|i| i.to_string()).collect()
}

/// Work done in one step by `work`, weighed by `weigh`; `abandoned` after a stop.
struct Once<F, G, A> {
    work: F,
    weigh: G,
    abandoned: A,
}

impl<T, F, G, A> Work for Once<F, G, A>
where
    T: Send + 'static,
    F: Fn(usize, Input) -> T + Send + Sync + 'static,
    G: Fn(&T) -> usize + Send + Sync + 'static,
    A: Fn(usize) -> Option<T> + Send + Sync + 'static,
{
    type Lookup = Option<Input>;
    type Out = T;
    type Tag = ();

    fn begin(&self, _: usize, input: Input, _: Tell<'_, T>) -> Result<Option<Input>, T> {
        Ok(Some(input))
    }

    fn step(&self, index: usize, input: &mut Option<Input>, _: Tell<'_, T>) -> Step<T> {
        Step::Done((self.work)(index, input.take().expect("one step")))
    }

    fn tag(&self, _: &Option<Input>) {}

    fn weigh(&self, out: &T) -> usize {
        (self.weigh)(out)
    }

    fn abandoned(&self, index: usize, _: Cut<'_, Option<Input>, ()>) -> Option<T> {
        (self.abandoned)(index)
    }
}

/// `run` with the work as closures, as the tests write it.
fn run_ordered<T, F, G, A, S>(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    limits: Limits,
    stop: Arc<AtomicBool>,
    work: F,
    weigh: G,
    abandoned: A,
    sink: S,
) -> (Ended, S)
where
    T: Send + 'static,
    F: Fn(usize, Input) -> T + Send + Sync + 'static,
    G: Fn(&T) -> usize + Send + Sync + 'static,
    A: Fn(usize) -> Option<T> + Send + Sync + 'static,
    S: Sink<T>,
{
    let work = Arc::new(Once {
        work,
        weigh,
        abandoned,
    });
    run(inputs, limits, stop, work, sink)
}

/// Collects what it is given; fails on item number `fail_at` (1-based) if set.
struct Collect<T> {
    seen: Vec<T>,
    fail_at: Option<usize>,
}

impl<T: Send + 'static> Sink<T> for Collect<T> {
    fn emit(&mut self, item: T) -> io::Result<()> {
        self.seen.push(item);
        if Some(self.seen.len()) == self.fail_at {
            return Err(io::Error::from(io::ErrorKind::BrokenPipe));
        }
        Ok(())
    }
}

fn collect<T>() -> Collect<T> {
    Collect {
        seen: Vec::new(),
        fail_at: None,
    }
}

fn limits(jobs: usize) -> Limits {
    Limits {
        jobs,
        budget: Arc::new(Budget::new(MEMORY_BUDGET)),
        deadline: None,
    }
}

fn running() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn results_come_out_in_input_order() {
    let (ended, sink) = run_ordered(
        inputs(values(500)),
        limits(8),
        running(),
        |_, input| {
            let n: u64 = input.unwrap().parse().unwrap();
            // Later inputs finish first often: a real test of the reordering.
            thread::sleep(Duration::from_micros((500 - n) % 7 * 100));
            n
        },
        |_| 8,
        |_| None,
        collect(),
    );
    assert_eq!(ended, Ended::Done);
    assert_eq!(sink.seen, (0..500).collect::<Vec<u64>>());
}

/// The first lookup is slow; while it runs, the values read (`read`) and the
/// bytes held stay within the bounds. `check` sees how many values were read.
fn slow_head(
    jobs: usize,
    total: usize,
    weight: usize,
    budget: Arc<Budget>,
    settled: impl Fn(usize) -> bool + Send + Sync + 'static,
    check: impl Fn(usize) + Send + Sync + 'static,
) -> (usize, usize) {
    let read = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&read);
    let inputs = (0..total).map(move |i| {
        counted.fetch_add(1, Ordering::SeqCst);
        Ok(i.to_string())
    });
    let observed = Arc::clone(&read);
    let (_, sink) = run_ordered(
        inputs,
        Limits {
            jobs,
            budget,
            deadline: None,
        },
        running(),
        move |index, _| {
            if index == 0 {
                let deadline = Instant::now() + Duration::from_secs(10);
                while !settled(observed.load(Ordering::SeqCst)) {
                    assert!(Instant::now() < deadline, "workers stalled");
                    thread::yield_now();
                }
                for _ in 0..50 {
                    check(observed.load(Ordering::SeqCst));
                    thread::sleep(Duration::from_millis(2));
                }
            }
            index
        },
        move |_| weight,
        |_| None,
        collect(),
    );
    (sink.seen.len(), read.load(Ordering::SeqCst))
}

#[test]
fn the_reorder_window_bounds_how_far_input_is_read_ahead() {
    let (jobs, total) = (2, 10_000);
    let limit = jobs * WINDOW_PER_JOB;
    let (emitted, read) = slow_head(
        jobs,
        total,
        1,
        Arc::new(Budget::new(MEMORY_BUDGET)),
        move |read| read >= limit,
        move |ahead| {
            assert!(
                // The reader keeps a few values ready beside those begun.
                ahead <= limit + jobs + 2 + jobs * READ_AHEAD_PER_JOB,
                "read {ahead} ahead of a window of {limit}"
            )
        },
    );
    assert_eq!((emitted, read), (total, total));
}

#[test]
fn the_byte_budget_bounds_what_waits_behind_a_slow_lookup() {
    // 1 MiB results, 8 MiB budget: at most 9 held (one crosses the line) plus
    // one per worker under way. The budget, which the client shares, is told.
    let (jobs, total, mib) = (4, 200, 1024 * 1024);
    let budget = Arc::new(Budget::new(8 * mib));
    let (told, checked) = (Arc::clone(&budget), Arc::clone(&budget));
    let (emitted, read) = slow_head(
        jobs,
        total,
        mib,
        Arc::clone(&budget),
        move |read| read >= 9 && told.held() >= 8 * mib,
        move |ahead| {
            let ready = jobs * READ_AHEAD_PER_JOB;
            assert!(ahead <= 9 + jobs + 1 + ready, "read {ahead} ahead");
            assert!(checked.held() <= 9 * mib, "{} bytes held", checked.held());
        },
    );
    assert_eq!((emitted, read), (total, total));
    assert_eq!(budget.held(), 0);
}

#[test]
fn a_failing_sink_stops_the_run() {
    let (ended, sink) = run_ordered(
        inputs(values(10_000)),
        limits(4),
        running(),
        |_, input| input,
        |_| 8,
        |_| None,
        Collect {
            seen: Vec::new(),
            fail_at: Some(3),
        },
    );
    assert_eq!(ended, Ended::Stopped);
    assert!(sink.seen.len() < 10_000);
}

#[test]
fn a_stop_hands_out_abandoned_jobs_in_order_and_ends_at_the_first_unstarted() {
    let stop = running();
    let raise = Arc::clone(&stop);
    let (ended, sink) = run_ordered(
        inputs(values(100)),
        limits(2),
        stop,
        move |index, _| {
            if index == 1 {
                raise.store(true, Ordering::SeqCst);
                // Hung past the grace period: handed out as abandoned.
                thread::sleep(Duration::from_secs(5));
            }
            Some(index)
        },
        |_| 8,
        |index| (index == 1).then_some(None),
        collect(),
    );
    assert_eq!(ended, Ended::Stopped);
    let seen = &sink.seen;
    assert_eq!(seen[0], Some(0));
    assert_eq!(seen[1], None, "{seen:?}");
    // Whatever finished behind the hung job follows it, with no gap.
    for (index, item) in seen.iter().enumerate().skip(2) {
        assert_eq!(*item, Some(index), "{seen:?}");
    }
}

#[test]
fn with_large_results_only_the_first_workers_take_lookups_and_the_run_ends() {
    use std::collections::HashSet;
    let threads = Arc::new(Mutex::new(HashSet::new()));
    let seen = Arc::clone(&threads);
    let budget = 1000;
    let (tx, rx) = std::sync::mpsc::channel();
    // In a thread of its own: a run that never ends fails the test, not the suite.
    thread::spawn(move || {
        let result = run_ordered(
            inputs(values(300)),
            Limits {
                jobs: 32,
                budget: Arc::new(Budget::new(budget)),
                deadline: None,
            },
            running(),
            move |index, _| {
                if index >= FIRST_IN_FLIGHT {
                    seen.lock().unwrap().insert(thread::current().id());
                }
                index
            },
            // A quarter of the budget each: four answers fill it.
            move |_| budget / 4,
            |_| None,
            collect(),
        );
        let _ = tx.send(result.1.seen.len());
    });
    let printed = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the run ended");
    assert_eq!(printed, 300);
    // Once a size is known, only workers 0 to 4 fit the budget (the first lookups,
    // started before, are not counted).
    let used = threads.lock().unwrap().len();
    assert!(used <= 5, "{used} threads took large lookups");
}

#[test]
fn a_panic_outside_any_lookup_stops_the_run_instead_of_hanging_it() {
    let (ended, sink) = run_ordered(
        inputs(values(200)),
        limits(4),
        running(),
        |index, input| {
            assert!(index != 50, "a bug in the engine's own work");
            input.unwrap()
        },
        |_| 8,
        |_| None,
        collect(),
    );
    assert_eq!(ended, Ended::Stopped);
    assert!(sink.seen.len() <= 50, "{}", sink.seen.len());
    assert_eq!(sink.seen, values(sink.seen.len()));
}

/// Steps a lookup over `polls` requests, each due again at `again(index, poll)`;
/// `begun` counts lookups begun, `on_begin` sees the count.
struct Polled<F, B> {
    polls: usize,
    again: F,
    on_begin: B,
    begun: AtomicUsize,
}

impl<F, B> Work for Polled<F, B>
where
    F: Fn(usize, usize) -> Instant + Send + Sync + 'static,
    B: Fn(usize) + Send + Sync + 'static,
{
    type Lookup = usize;
    type Out = (usize, &'static str);
    type Tag = ();

    fn begin(&self, _: usize, _: Input, _: Tell<'_, Self::Out>) -> Result<usize, Self::Out> {
        (self.on_begin)(self.begun.fetch_add(1, Ordering::SeqCst) + 1);
        Ok(0)
    }

    fn step(&self, index: usize, polls: &mut usize, _: Tell<'_, Self::Out>) -> Step<Self::Out> {
        *polls += 1;
        match *polls >= self.polls {
            true => Step::Done((index, "done")),
            false => Step::At((self.again)(index, *polls)),
        }
    }

    fn weigh(&self, _: &Self::Out) -> usize {
        8
    }

    fn tag(&self, _: &usize) {}

    /// Every lookup cut short comes out; output ends before the first never begun.
    fn abandoned(&self, index: usize, _: Cut<'_, usize, ()>) -> Option<Self::Out> {
        Some((index, "abandoned"))
    }
}

#[test]
fn a_lookup_waiting_for_its_time_holds_no_worker() {
    let stop = running();
    let raise = Arc::clone(&stop);
    let far = Instant::now() + Duration::from_secs(3600);
    // One worker: value 0 is due again in an hour, the others at once. The worker
    // finishes values 1 to 3 meanwhile; beginning value 4 raises the stop, so 0 and
    // 4 come out abandoned, in input order.
    let (ended, sink) = run(
        inputs(values(5)),
        limits(1),
        stop,
        Arc::new(Polled {
            polls: 2,
            again: move |index: usize, _: usize| if index == 0 { far } else { Instant::now() },
            on_begin: move |begun| {
                if begun == 5 {
                    raise.store(true, Ordering::SeqCst);
                }
            },
            begun: AtomicUsize::new(0),
        }),
        collect(),
    );
    assert_eq!(ended, Ended::Stopped);
    let expected = [
        (0, "abandoned"),
        (1, "done"),
        (2, "done"),
        (3, "done"),
        (4, "abandoned"),
    ];
    assert_eq!(sink.seen, expected);
}

#[test]
fn under_wait_every_value_is_begun_though_none_finishes() {
    let stop = running();
    let raise = Arc::clone(&stop);
    let far = Instant::now() + Duration::from_secs(3600);
    let (ended, sink) = run(
        inputs(values(40)),
        Limits {
            jobs: 4,
            budget: Arc::new(Budget::new(MEMORY_BUDGET)),
            deadline: Some(far),
        },
        stop,
        Arc::new(Polled {
            polls: 3,
            again: move |_: usize, _: usize| far,
            // Every value begun: the run is stopped, each comes out abandoned.
            on_begin: move |begun| {
                if begun == 40 {
                    raise.store(true, Ordering::SeqCst);
                }
            },
            begun: AtomicUsize::new(0),
        }),
        collect(),
    );
    assert_eq!(ended, Ended::Stopped);
    let expected: Vec<_> = (0..40).map(|i| (i, "abandoned")).collect();
    assert_eq!(sink.seen, expected);
}

#[test]
fn polls_due_at_once_go_behind_those_already_waiting() {
    let mut queue = Queue::new();
    let now = Instant::now();
    for (seq, (at, index)) in [
        (now, 0),
        (now, 1),
        (now - Duration::from_secs(1), 2),
        (now, 3),
    ]
    .into_iter()
    .enumerate()
    {
        queue.insert((at, seq as u64), (index, ()));
    }
    let order: Vec<usize> =
        std::iter::from_fn(|| queue.pop_first().map(|(_, (index, _))| index)).collect();
    assert_eq!(order, [2, 0, 1, 3], "the oldest due first, then first come");
}

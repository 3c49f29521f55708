//! Tests of the batch engine: order, the bounds on what waits, stops.

use super::*;
use std::sync::atomic::AtomicUsize;

fn values(n: usize) -> Vec<String> {
    (0..n).map(|i| i.to_string()).collect()
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
        budget: BYTE_BUDGET,
    }
}

fn running() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn results_come_out_in_input_order() {
    let (done, sink) = run_ordered(
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
    assert!(done);
    assert_eq!(sink.seen, (0..500).collect::<Vec<u64>>());
}

/// The first lookup is slow; while it runs, the values read (`read`) and the
/// bytes held stay within the bounds. `check` sees how many values were read.
fn slow_head(
    jobs: usize,
    total: usize,
    weight: usize,
    budget: usize,
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
        Limits { jobs, budget },
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
        BYTE_BUDGET,
        move |read| read >= limit,
        move |ahead| {
            assert!(
                ahead <= limit + jobs + 2,
                "read {ahead} ahead of a window of {limit}"
            )
        },
    );
    assert_eq!((emitted, read), (total, total));
}

#[test]
fn the_byte_budget_bounds_what_waits_behind_a_slow_lookup() {
    // 1 MiB results, 8 MiB budget: at most 9 held (one crosses the line) plus
    // one per worker under way.
    let (jobs, total, mib) = (4, 200, 1024 * 1024);
    let (emitted, read) = slow_head(
        jobs,
        total,
        mib,
        8 * mib,
        |read| read >= 9,
        move |ahead| assert!(ahead <= 9 + jobs + 1, "read {ahead} ahead"),
    );
    assert_eq!((emitted, read), (total, total));
}

#[test]
fn a_failing_sink_stops_the_run() {
    let (done, sink) = run_ordered(
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
    assert!(!done);
    assert!(sink.seen.len() < 10_000);
}

#[test]
fn a_stop_hands_out_abandoned_jobs_in_order_and_ends_at_the_first_unstarted() {
    let stop = running();
    let raise = Arc::clone(&stop);
    let (done, sink) = run_ordered(
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
    assert!(!done);
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
            Limits { jobs: 32, budget },
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
    let (done, sink) = run_ordered(
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
    assert!(!done);
    assert!(sink.seen.len() <= 50, "{}", sink.seen.len());
    assert_eq!(sink.seen, values(sink.seen.len()));
}

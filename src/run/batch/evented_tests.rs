//! Tests of the one-thread engine with a `Flights` that answers from memory: input
//! order, at most `jobs` under way, stops, and values streamed in one at a time.

use std::io;
use std::os::fd::BorrowedFd;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use rustix::event::{poll, PollFd, PollFlags};

use super::*;
use crate::run::batch::{inputs, Limits, Sink, BYTE_BUDGET};

/// Finishes the most recently started lookup first, one per poll: later inputs
/// come back before earlier ones.
struct Backwards {
    jobs: usize,
    under_way: Vec<(usize, String)>,
}

impl Flights<String> for Backwards {
    fn start(&mut self, index: usize, input: Input) -> Option<String> {
        assert!(self.under_way.len() < self.jobs, "more than -j under way");
        match input {
            Ok(value) if value == "refused" => Some(format!("{index}: refused")),
            Ok(value) => {
                self.under_way.push((index, value));
                None
            }
            Err(bad) => Some(bad.reason),
        }
    }

    fn poll(
        &mut self,
        wait: Duration,
        wake: BorrowedFd<'_>,
        done: &mut Vec<(usize, String)>,
    ) -> bool {
        if let Some((index, value)) = self.under_way.pop() {
            done.push((index, format!("{index}: {value}")));
            return false;
        }
        let mut fds = [PollFd::from_borrowed_fd(wake, PollFlags::IN)];
        let spec = crate::http::socket::timespec(wait);
        matches!(poll(&mut fds, Some(&spec)), Ok(n) if n > 0)
    }

    fn under_way(&self) -> usize {
        self.under_way.len()
    }
}

struct Collect {
    seen: Vec<String>,
    fail_at: Option<usize>,
    told: Option<mpsc::Sender<usize>>,
}

impl Sink<String> for Collect {
    fn emit(&mut self, item: String) -> io::Result<()> {
        self.seen.push(item);
        if let Some(told) = &self.told {
            let _ = told.send(self.seen.len());
        }
        match Some(self.seen.len()) == self.fail_at {
            true => Err(io::ErrorKind::BrokenPipe.into()),
            false => Ok(()),
        }
    }
}

fn collect() -> Collect {
    Collect {
        seen: Vec::new(),
        fail_at: None,
        told: None,
    }
}

fn run(
    values: impl Iterator<Item = Input> + Send + 'static,
    jobs: usize,
    sink: Collect,
) -> (bool, Collect) {
    let limits = Limits {
        jobs,
        budget: BYTE_BUDGET,
    };
    let flights = Backwards {
        jobs,
        under_way: Vec::new(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let wake = Wake::new().unwrap();
    run_evented(
        values,
        limits,
        stop,
        wake,
        flights,
        |s: &String| s.len(),
        |_| None,
        sink,
    )
}

#[test]
fn results_come_out_in_input_order() {
    let values: Vec<String> = (0..1000)
        .map(|i| {
            if i % 7 == 3 {
                "refused".into()
            } else {
                i.to_string()
            }
        })
        .collect();
    let (done, sink) = run(inputs(values.clone()), 8, collect());
    assert!(done);
    let expected: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| match v.as_str() {
            "refused" => format!("{i}: refused"),
            v => format!("{i}: {v}"),
        })
        .collect();
    assert_eq!(sink.seen, expected);
}

#[test]
fn a_failing_sink_stops_the_run_with_a_prefix_printed() {
    let values: Vec<String> = (0..10_000).map(|i| i.to_string()).collect();
    let sink = Collect {
        fail_at: Some(5),
        ..collect()
    };
    let (done, sink) = run(inputs(values), 4, sink);
    assert!(!done);
    assert!(
        sink.seen.len() >= 5 && sink.seen.len() < 10_000,
        "{}",
        sink.seen.len()
    );
    let prefix: Vec<String> = (0..sink.seen.len()).map(|i| format!("{i}: {i}")).collect();
    assert_eq!(sink.seen, prefix);
}

#[test]
fn values_streamed_one_at_a_time_are_looked_up_before_the_input_ends() {
    let (values_tx, values_rx) = mpsc::channel::<Input>();
    let (told_tx, told_rx) = mpsc::channel();
    let feeder = std::thread::spawn(move || {
        for i in 0..20 {
            values_tx.send(Ok(i.to_string())).unwrap();
            // The next value only once this one is printed: an engine waiting for
            // the end of the input would never print it.
            match told_rx.recv_timeout(Duration::from_secs(20)) {
                Ok(printed) => assert_eq!(printed, i + 1),
                Err(_) => return false,
            }
        }
        true
    });
    let sink = Collect {
        told: Some(told_tx),
        ..collect()
    };
    let (done, sink) = run(values_rx.into_iter(), 8, sink);
    assert!(feeder.join().unwrap(), "a value waited for the next one");
    assert!(done);
    assert_eq!(sink.seen.len(), 20);
}

/// Panics when it starts input number 50: a bug outside any one lookup.
struct Buggy(Backwards);

impl Flights<String> for Buggy {
    fn start(&mut self, index: usize, input: Input) -> Option<String> {
        assert!(index != 50, "a bug in the loop");
        self.0.start(index, input)
    }

    fn poll(
        &mut self,
        wait: Duration,
        wake: BorrowedFd<'_>,
        done: &mut Vec<(usize, String)>,
    ) -> bool {
        self.0.poll(wait, wake, done)
    }

    fn under_way(&self) -> usize {
        self.0.under_way()
    }
}

#[test]
fn a_panic_in_the_loop_stops_the_run_instead_of_hanging_it() {
    let values: Vec<String> = (0..200).map(|i| i.to_string()).collect();
    let limits = Limits {
        jobs: 4,
        budget: BYTE_BUDGET,
    };
    let flights = Buggy(Backwards {
        jobs: 4,
        under_way: Vec::new(),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let (done, sink) = run_evented(
        inputs(values),
        limits,
        stop,
        Wake::new().unwrap(),
        flights,
        |s: &String| s.len(),
        |_| None,
        collect(),
    );
    assert!(!done);
    assert!(sink.seen.len() <= 50, "{}", sink.seen.len());
    let prefix: Vec<String> = (0..sink.seen.len()).map(|i| format!("{i}: {i}")).collect();
    assert_eq!(sink.seen, prefix);
}

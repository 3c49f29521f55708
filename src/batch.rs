//! Many lookups at once: values from arguments and stdin (streamed), a fixed pool of
//! workers, and results handed out in input order through a bounded reorder window,
//! so memory stays flat whatever the input size.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// One value to look up, or a line of stdin that could not be read as one.
pub type Input = Result<String, String>;

/// How far ahead of the oldest unprinted lookup the workers may run: enough to keep
/// every worker busy behind one slow lookup, small enough to bound memory.
const WINDOW_PER_JOB: usize = 64;

/// How often the collector looks at the stop flag while waiting for results.
const STOP_POLL: Duration = Duration::from_millis(50);
/// After a stop, how long lookups under way get to finish and be printed.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// The values of the command line, `-` standing for stdin's lines (trimmed; blank
/// lines and `#` comments skipped). Stdin is read lazily, as lookups proceed.
pub fn inputs(values: Vec<String>) -> impl Iterator<Item = Input> + Send + 'static {
    values
        .into_iter()
        .flat_map(|value| -> Box<dyn Iterator<Item = Input> + Send> {
            if value == "-" {
                Box::new(stdin_values())
            } else {
                Box::new(std::iter::once(Ok(value)))
            }
        })
}

fn stdin_values() -> impl Iterator<Item = Input> + Send {
    let mut reader = io::BufReader::new(io::stdin());
    let mut line = Vec::new();
    std::iter::from_fn(move || loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(err) => return Some(Err(format!("cannot read stdin: {err}"))),
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            return Some(Err(format!(
                "stdin line is not UTF-8: {}",
                String::from_utf8_lossy(&line).trim()
            )));
        };
        let text = text.trim();
        if !text.is_empty() && !text.starts_with('#') {
            return Some(Ok(text.to_string()));
        }
    })
}

/// Shared between the feeder and the collector: the index of the next outcome to
/// hand out, and whether to stop.
struct Window {
    next_out: Mutex<usize>,
    moved: Condvar,
}

/// Runs `work` over `inputs` on `jobs` threads and calls `emit` with each result in
/// input order. When `stop` is raised (Ctrl-C, or `emit` failing), no new work is
/// started and the finished results are still handed out in order. Returns whether
/// every input was processed.
pub fn run_ordered<T, W, E>(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    jobs: usize,
    stop: Arc<AtomicBool>,
    work: W,
    mut emit: E,
) -> bool
where
    T: Send + 'static,
    W: Fn(Input) -> T + Send + Sync + 'static,
    E: FnMut(T) -> io::Result<()>,
{
    let window = Arc::new(Window {
        next_out: Mutex::new(0),
        moved: Condvar::new(),
    });
    let limit = jobs * WINDOW_PER_JOB;
    let (task_tx, task_rx) = mpsc::sync_channel::<(usize, Input)>(jobs);
    let (done_tx, done_rx) = mpsc::channel::<(usize, T)>();

    spawn_feeder(
        inputs,
        limit,
        task_tx,
        Arc::clone(&window),
        Arc::clone(&stop),
    );
    let task_rx = Arc::new(Mutex::new(task_rx));
    let work = Arc::new(work);
    for _ in 0..jobs {
        let (task_rx, done_tx, work, stop) = (
            Arc::clone(&task_rx),
            done_tx.clone(),
            Arc::clone(&work),
            Arc::clone(&stop),
        );
        thread::spawn(move || loop {
            let next = task_rx.lock().map(|rx| rx.recv());
            let Ok(Ok((index, input))) = next else { return };
            if stop.load(Ordering::SeqCst) {
                return;
            }
            if done_tx.send((index, work(input))).is_err() {
                return;
            }
        });
    }
    drop(done_tx);

    let mut pending = BTreeMap::new();
    let mut next = 0;
    let mut grace_end: Option<Instant> = None;
    loop {
        if grace_end.is_none() && stop.load(Ordering::SeqCst) {
            grace_end = Some(Instant::now() + STOP_GRACE);
        }
        match done_rx.recv_timeout(STOP_POLL) {
            Ok((index, result)) => {
                pending.insert(index, result);
            }
            Err(RecvTimeoutError::Timeout)
                if grace_end.is_some_and(|end| Instant::now() >= end) =>
            {
                break
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        }
        while let Some(result) = pending.remove(&next) {
            next += 1;
            if emit(result).is_err() {
                stop.store(true, Ordering::SeqCst);
            }
        }
        *window.next_out.lock().unwrap_or_else(|e| e.into_inner()) = next;
        window.moved.notify_all();
    }
    if !stop.load(Ordering::SeqCst) {
        return true;
    }
    // Stopped: lookups still running after the grace period are abandoned (the
    // process is about to end); the finished ones are handed out in order.
    window.moved.notify_all();
    while let Ok((index, result)) = done_rx.try_recv() {
        pending.insert(index, result);
    }
    for (_, result) in pending {
        if emit(result).is_err() {
            break;
        }
    }
    false
}

fn spawn_feeder(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    limit: usize,
    task_tx: mpsc::SyncSender<(usize, Input)>,
    window: Arc<Window>,
    stop: Arc<AtomicBool>,
) {
    thread::spawn(move || {
        for (index, input) in inputs.enumerate() {
            let mut next_out = window.next_out.lock().unwrap_or_else(|e| e.into_inner());
            while index >= *next_out + limit && !stop.load(Ordering::SeqCst) {
                next_out = window
                    .moved
                    .wait_timeout(next_out, STOP_POLL)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
            drop(next_out);
            if stop.load(Ordering::SeqCst) || task_tx.send((index, input)).is_err() {
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    #[test]
    fn results_come_out_in_input_order() {
        let mut seen = Vec::new();
        let done = run_ordered(
            inputs(values(500)),
            8,
            Arc::new(AtomicBool::new(false)),
            |input| {
                let n: u64 = input.unwrap().parse().unwrap();
                // Later inputs finish first often: a real test of the reordering.
                thread::sleep(Duration::from_micros((500 - n) % 7 * 100));
                n
            },
            |n| {
                seen.push(n);
                Ok(())
            },
        );
        assert!(done);
        assert_eq!(seen, (0..500).collect::<Vec<u64>>());
    }

    #[test]
    fn a_failing_sink_stops_the_run() {
        let mut count = 0;
        let done = run_ordered(
            inputs(values(10_000)),
            4,
            Arc::new(AtomicBool::new(false)),
            |input| input,
            |_| {
                count += 1;
                if count == 3 {
                    Err(io::Error::from(io::ErrorKind::BrokenPipe))
                } else {
                    Ok(())
                }
            },
        );
        assert!(!done);
        assert!(count < 10_000);
    }
}

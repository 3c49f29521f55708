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
pub type Input = Result<String, BadInput>;

/// A stdin line that is not a usable value: how to show it, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadInput {
    pub shown: String,
    pub reason: String,
}

/// Longest stdin line read into memory; the rest of a longer line is skipped, so a
/// runaway input cannot grow memory (values over 1 KiB are refused anyway).
const MAX_LINE: usize = 4 * 1024;

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
        let truncated = match read_line_bounded(&mut reader, &mut line, MAX_LINE) {
            Ok(None) => return None,
            Ok(Some(truncated)) => truncated,
            Err(err) => {
                let reason = format!("cannot read stdin: {err}");
                return Some(Err(BadInput {
                    shown: "-".into(),
                    reason,
                }));
            }
        };
        let shown = || crate::domain::sanitize::preview(String::from_utf8_lossy(&line).trim());
        if truncated {
            let reason = format!("stdin line longer than {MAX_LINE} bytes");
            return Some(Err(BadInput {
                shown: shown(),
                reason,
            }));
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            let reason = "stdin line is not UTF-8".to_string();
            return Some(Err(BadInput {
                shown: shown(),
                reason,
            }));
        };
        let text = text.trim();
        if !text.is_empty() && !text.starts_with('#') {
            return Some(Ok(text.to_string()));
        }
    })
}

/// Reads one line (newline included) into `line`, keeping at most `max` bytes and
/// skipping the rest. `None` at the end of input, else whether the line was cut.
fn read_line_bounded(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    let mut read_any = false;
    let mut truncated = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(read_any.then_some(truncated));
        }
        read_any = true;
        let end = buffer.iter().position(|&b| b == b'\n');
        let chunk = &buffer[..end.map_or(buffer.len(), |i| i + 1)];
        let room = max.saturating_sub(line.len());
        truncated |= chunk.len() > room;
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        reader.consume(used);
        if end.is_some() {
            return Ok(Some(truncated));
        }
    }
}

/// Shared between the feeder and the collector: the index of the next outcome to
/// hand out, which bounds how far ahead the feeder may read.
struct Window {
    next_out: Mutex<usize>,
    moved: Condvar,
}

/// Runs `work` over `inputs` (with their index) on `jobs` threads and calls `emit`
/// with each result in input order. When `stop` is raised (Ctrl-C, or `emit`
/// failing), no new work is started; the finished results are still handed out in
/// order, and a job still running after a grace period is handed out as
/// `abandoned(index)` makes it (None: output ends before it). Returns whether every
/// input was processed.
pub fn run_ordered<T, W, A, E>(
    inputs: impl Iterator<Item = Input> + Send + 'static,
    jobs: usize,
    stop: Arc<AtomicBool>,
    work: W,
    mut abandoned: A,
    mut emit: E,
) -> bool
where
    T: Send + 'static,
    W: Fn(usize, Input) -> T + Send + Sync + 'static,
    A: FnMut(usize) -> Option<T>,
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
            if done_tx.send((index, work(index, input))).is_err() {
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
    // Stopped: jobs still running after the grace period are abandoned (the process
    // is about to end). Results are handed out in order, an abandoned job as
    // `abandoned` makes it, up to the first job that never started: the output stays
    // a prefix of the input, so a script pairing output with input lines is never
    // misled by a gap.
    window.moved.notify_all();
    while let Ok((index, result)) = done_rx.try_recv() {
        pending.insert(index, result);
    }
    while let Some(result) = pending.remove(&next).or_else(|| abandoned(next)) {
        next += 1;
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
            |_, input| {
                let n: u64 = input.unwrap().parse().unwrap();
                // Later inputs finish first often: a real test of the reordering.
                thread::sleep(Duration::from_micros((500 - n) % 7 * 100));
                n
            },
            |_| None,
            |n| {
                seen.push(n);
                Ok(())
            },
        );
        assert!(done);
        assert_eq!(seen, (0..500).collect::<Vec<u64>>());
    }

    #[test]
    fn the_reorder_window_bounds_how_far_input_is_read_ahead() {
        use std::sync::atomic::AtomicUsize;
        let (jobs, total) = (2, 10_000);
        let limit = jobs * WINDOW_PER_JOB;
        let read = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&read);
        let inputs = (0..total).map(move |i| {
            counted.fetch_add(1, Ordering::SeqCst);
            Ok(i.to_string())
        });
        let observed = Arc::clone(&read);
        let mut emitted = 0;
        run_ordered(
            inputs,
            jobs,
            Arc::new(AtomicBool::new(false)),
            move |index, _| {
                if index == 0 {
                    // The first lookup is slow: everything behind it waits in the window.
                    let deadline = std::time::Instant::now() + Duration::from_secs(10);
                    while observed.load(Ordering::SeqCst) < limit {
                        assert!(std::time::Instant::now() < deadline, "feeder stalled");
                        thread::yield_now();
                    }
                    for _ in 0..100 {
                        let ahead = observed.load(Ordering::SeqCst);
                        assert!(
                            ahead <= limit + jobs + 2,
                            "read {ahead} ahead of a window of {limit}"
                        );
                        thread::sleep(Duration::from_millis(2));
                    }
                }
                index
            },
            |_| None,
            |_| {
                emitted += 1;
                Ok(())
            },
        );
        assert_eq!(emitted, total);
        assert_eq!(read.load(Ordering::SeqCst), total);
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_skipped() {
        let mut input = io::Cursor::new(format!("{}\nnext\nlast", "x".repeat(100)));
        let mut line = Vec::new();
        assert_eq!(
            read_line_bounded(&mut input, &mut line, 10).unwrap(),
            Some(true)
        );
        assert_eq!(line, b"xxxxxxxxxx");
        line.clear();
        assert_eq!(
            read_line_bounded(&mut input, &mut line, 10).unwrap(),
            Some(false)
        );
        assert_eq!(line, b"next\n");
        line.clear();
        assert_eq!(
            read_line_bounded(&mut input, &mut line, 10).unwrap(),
            Some(false)
        );
        assert_eq!(line, b"last");
        line.clear();
        assert_eq!(read_line_bounded(&mut input, &mut line, 10).unwrap(), None);
    }

    #[test]
    fn a_failing_sink_stops_the_run() {
        let mut count = 0;
        let done = run_ordered(
            inputs(values(10_000)),
            4,
            Arc::new(AtomicBool::new(false)),
            |_, input| input,
            |_| None,
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

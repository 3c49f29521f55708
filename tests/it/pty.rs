//! The progress bar, the live view, Ctrl-C and typed values on a real terminal (a
//! pseudo-terminal): what a person sees, byte for byte and as the screen shows it.

use std::collections::HashSet;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::answers::value_of;
use crate::common::process::command;
use crate::common::pty::{OnTerminal, Wiring, COLS};
use crate::common::screen::Screen;
use crate::common::{Canned, Gate, TestServer};

const HINT: &str = "smsstat: reading values from stdin, one per line; Ctrl-D to end";

/// `slow` answers after a bit over a second (the bar is drawn only for batches that
/// take a second: the product's own threshold, not a synchronisation), `hang` only
/// once `hung` is opened, `pending...` says enroute, the rest delivered.
fn server(hung: &Gate) -> TestServer {
    let hung = hung.clone();
    TestServer::start(move |url| {
        let id = value_of(url);
        match id.as_str() {
            "slow" => std::thread::sleep(Duration::from_millis(1200)),
            "hang" => {
                hung.wait();
            }
            _ => {}
        }
        let status = if id.starts_with("pending") {
            "enroute"
        } else {
            "delivered"
        };
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"{status}"}}"#))
    })
}

/// The lines the terminal shows at the end.
fn screen_lines(terminal: &[u8]) -> Vec<String> {
    Screen::after(terminal, usize::from(COLS)).lines()
}

#[test]
fn the_screen_follows_wraps_moves_and_erasures() {
    let screen = Screen::after(b"abcd^C\r\n\x1b[1Axy\x1b[2K\r12\nz", 4);
    assert_eq!(screen.lines(), ["abcd", "12", "  z"]);
}

#[test]
fn the_progress_bar_shows_a_whole_rate_and_one_lookup() {
    let server = server(&Gate::new());
    let mut cmd = command(&server.base, &["--json", "sms-ref", "-"]);
    cmd.stdin(Stdio::piped());
    let wiring = Wiring {
        stdin: false,
        stdout: false,
        controlling: false,
    };
    let mut run = OnTerminal::spawn(cmd, wiring);
    run.write_stdin("slow\n");
    run.wait_for_terminal(|shown| {
        shown
            .split_once("lookup")
            .is_some_and(|(_, rest)| rest.contains("/s") || rest.contains("/min"))
    });
    run.close_stdin();
    let shown = run.finish();
    assert_eq!(shown.code, Some(0));
    let text = String::from_utf8_lossy(&shown.terminal);
    for (before, after) in text.split("lookup").zip(text.split("lookup").skip(1)) {
        assert!(before.ends_with(" 1 "), "{text:?}");
        // The rate ends the line: a space or an escape sequence comes next.
        let rate = after
            .strip_prefix(", ")
            .and_then(|r| r.split(|c: char| c.is_whitespace() || c == '\x1b').next())
            .unwrap_or_else(|| panic!("{text:?}"));
        let (number, unit) = rate.split_once('/').unwrap_or_else(|| panic!("{text:?}"));
        assert!(number.parse::<u64>().is_ok(), "{rate} in {text:?}");
        assert!(unit == "s" || unit == "min", "{rate} in {text:?}");
    }
}

#[test]
fn ctrl_c_leaves_no_bar_and_the_summary_last() {
    // Two workers: the second `hang` starts only once `slow` is done (the bar is
    // drawn when a lookup ends after the first second: that one), so two requests for
    // /hang mean one lookup done, two under way and two not started.
    let args = ["-j", "2", "sms-ref", "slow", "hang", "hang", "c", "d"];
    ctrl_c_leaves_only_the_summary(
        &args,
        |server| {
            server.wait_for_urls(2, |url| url.ends_with("/hang"));
        },
        // The bar on one row of its own: 30 cells, then the count.
        |shown| {
            let lines = screen_lines(shown.as_bytes());
            lines.len() == 1 && {
                let (bar, count) =
                    lines[0].split_at(lines[0].char_indices().nth(30).unwrap_or_default().0);
                bar.chars().count() == 30
                    && !bar.contains(' ')
                    && count.starts_with(" 1/5 lookups, ")
            }
        },
        "lookups",
        "smsstat: interrupted: 1 done, 2 interrupted, 2 not started",
    );
}

#[test]
fn ctrl_c_clears_the_live_view() {
    let args = [
        "--wait",
        "--interval",
        "100ms",
        "sms-ref",
        "pending-1",
        "pending-2",
    ];
    ctrl_c_leaves_only_the_summary(
        &args,
        |server| {
            // Both lookups under way, each having polled once at least.
            for id in ["/pending-1", "/pending-2"] {
                server.wait_for_urls(1, |url| url.ends_with(id));
            }
        },
        |shown| shown.matches("poll").count() >= 2,
        "poll",
        "smsstat: interrupted: 0 done, 2 interrupted, 0 not started",
    );
}

/// Ctrl-C typed once the server has seen what `started` waits for and then `drawn`
/// sees the drawing: exit 130, the summary on the last line, and no line left with
/// `drawing_word` in it or a bare `^C`.
fn ctrl_c_leaves_only_the_summary(
    args: &[&str],
    started: impl Fn(&TestServer),
    drawn: impl Fn(&str) -> bool,
    drawing_word: &str,
    summary: &str,
) {
    let hung = Gate::new();
    let server = server(&hung);
    let wiring = Wiring {
        stdin: false,
        stdout: false,
        controlling: true,
    };
    let mut run = OnTerminal::spawn(command(&server.base, args), wiring);
    started(&server);
    // Both have happened when Ctrl-C comes: the lookups are where the summary says,
    // and there is a drawing to clear.
    run.wait_for_terminal(drawn);
    run.type_in(b"\x03");
    let shown = run.finish();
    hung.open();
    assert_eq!(shown.code, Some(130));
    let lines = screen_lines(&shown.terminal);
    assert_eq!(
        lines.last().map(String::as_str),
        Some(summary),
        "{lines:#?}"
    );
    assert!(
        lines.iter().all(|l| !l.contains(drawing_word) && l != "^C"),
        "{lines:#?}"
    );
}

#[test]
fn typed_values_get_a_hint_and_no_spinner_over_them() {
    let server = server(&Gate::new());
    let wiring = Wiring {
        stdin: true,
        stdout: false,
        controlling: false,
    };
    let mut run = OnTerminal::spawn(command(&server.base, &["--json", "sms-ref", "-"]), wiring);
    run.wait_for_terminal(|shown| shown.contains(HINT));
    // The second value is done after the first second, when a bar would be drawn.
    run.type_in(b"slow\n");
    run.wait_for_stdout(|line| line.contains("\"slow\""));
    run.type_in(b"x\n");
    run.wait_for_stdout(|line| line.contains("\"x\""));
    run.type_in(b"\x04");
    let shown = run.finish();
    assert_eq!(shown.code, Some(0));
    let text = String::from_utf8_lossy(&shown.terminal);
    assert_eq!(text.matches(HINT).count(), 1, "{text:?}");
    assert!(!text.contains("lookup"), "{text:?}");
    assert_eq!(shown.stdout.lines().count(), 2, "{}", shown.stdout);
}

/// Whether `c` is a spinner glyph (braille).
fn is_spinner(c: char) -> bool {
    ('\u{2800}'..='\u{28ff}').contains(&c)
}

/// Whether `row` starts with a spinner glyph and a space.
fn starts_with_spinner(row: &str) -> bool {
    let mut chars = row.chars();
    chars.next().is_some_and(is_spinner) && chars.next() == Some(' ')
}

/// The live view's lines on `rows`: a line is a row that starts with the spinner and
/// the rows after it (the rest of a line wider than the terminal).
fn live_lines(rows: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for row in rows {
        match lines.last_mut() {
            Some(line) if !starts_with_spinner(row) => line.push_str(row),
            _ => lines.push(row.clone()),
        }
    }
    lines
}

/// Whether `lines` are those of `sms 1`, `sms 2` and `sms 3`, in that order, each
/// polled: the spinner, the label, the status and the count of polls.
fn three_polled(lines: &[String]) -> bool {
    lines.len() == 3
        && lines.iter().enumerate().all(|(i, line)| {
            let label = format!("sms {} status enroute · ", i + 1);
            line.chars()
                .skip(2)
                .collect::<String>()
                .strip_prefix(&label)
                .is_some_and(|rest| rest.contains(" poll"))
                && starts_with_spinner(line)
        })
}

/// `--wait` on three pending values on a terminal of `cols` columns: once each is
/// polled, each has its line, on `rows_each` rows of its own, every row leaving room
/// for the `^C` echo; after Ctrl-C, only each lookup's last state and the summary.
fn three_watched_values_on(cols: u16, rows_each: usize) {
    let server = TestServer::start(|url| {
        let id = value_of(url);
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"enroute"}}"#))
    });
    let args = ["--wait", "--interval", "100ms", "sms", "1", "2", "3"];
    let wiring = Wiring {
        stdin: false,
        stdout: false,
        controlling: true,
    };
    let mut run = OnTerminal::spawn_sized(command(&server.base, &args), wiring, cols);
    let screen = |shown: &[u8]| Screen::after(shown, usize::from(cols)).lines();
    // Until each value's line shows a poll, or a row shows two lines run together.
    run.wait_for_terminal(|shown| {
        let rows = screen(shown.as_bytes());
        let run_together = rows
            .iter()
            .any(|row| row.chars().filter(|c| is_spinner(*c)).count() > 1);
        three_polled(&live_lines(&rows)) || run_together
    });
    let rows = run.screen();
    assert!(
        three_polled(&live_lines(&rows))
            && rows.len() == 3 * rows_each
            && rows
                .iter()
                .all(|row| row.chars().count() <= usize::from(cols) - 2),
        "{rows:#?}"
    );
    run.type_in(b"\x03");
    let shown = run.finish();
    assert_eq!(shown.code, Some(130));
    // Nothing left of the live view, no `^C`: only these lines, as the terminal
    // wraps them (spaces aside: a wrap may leave one at a row's end).
    let rows = screen(&shown.terminal);
    let expected = [
        "smsstat: error: sms 1: interrupted; last seen: status enroute",
        "smsstat: error: sms 2: interrupted; last seen: status enroute",
        "smsstat: error: sms 3: interrupted; last seen: status enroute",
        "smsstat: interrupted: 0 done, 3 interrupted, 0 not started",
    ];
    let unspaced = |text: String| text.replace(' ', "");
    assert_eq!(
        unspaced(rows.concat()),
        unspaced(expected.concat()),
        "{rows:#?}"
    );
}

#[test]
fn each_watched_value_keeps_its_own_line() {
    three_watched_values_on(COLS, 1);
}

/// At 30 columns a line (`⠁ sms 1 status enroute · 3 polls (0s)`) takes two rows.
#[test]
fn a_line_wider_than_the_terminal_keeps_its_own_rows() {
    three_watched_values_on(30, 2);
}

/// `--wait` on values whose first answer is pending and the next final once `final`
/// is opened, stdout and stderr on one terminal, as a person runs a CI gate: once
/// the live view was drawn, the final answers come, and the screen is only the
/// record's table, from its first row and column.
fn clean_screen_after_waiting_on(args: &[&str], values: usize) {
    let answered = Arc::new(Mutex::new(HashSet::new()));
    let last = Gate::new();
    let opened = last.clone();
    let server = TestServer::start(move |url| {
        let id = value_of(url);
        let status = match answered.lock().unwrap().insert(id.clone()) {
            true => "enroute",
            false => {
                opened.wait();
                "delivered"
            }
        };
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"{status}"}}"#))
    });
    let mut all = vec!["--wait", "--interval", "100ms"];
    all.extend(args);
    let wiring = Wiring {
        stdin: false,
        stdout: true,
        controlling: false,
    };
    let mut run = OnTerminal::spawn(command(&server.base, &all), wiring);
    run.wait_for_terminal(|shown| {
        let rows = screen_lines(shown.as_bytes());
        rows.iter()
            .filter(|row| row.contains("status enroute · "))
            .count()
            == values
    });
    last.open();
    let shown = run.finish();
    assert_eq!(shown.code, Some(0));
    let rows = screen_lines(&shown.terminal);
    assert!(rows[0].starts_with('┌'), "{args:?}: {rows:#?}");
    assert!(
        rows.iter()
            .all(|row| !row.contains("poll") && !row.contains("looking up")),
        "{args:?}: {rows:#?}"
    );
    let delivered = rows.iter().filter(|row| row.contains("delivered")).count();
    assert_eq!(delivered, values, "{args:?}: {rows:#?}");
}

#[test]
fn a_single_watched_record_is_printed_on_a_clean_screen() {
    clean_screen_after_waiting_on(&["sms", "1"], 1);
    clean_screen_after_waiting_on(&["--expect", "delivered", "sms", "2"], 1);
}

#[test]
fn many_watched_records_are_printed_on_a_clean_screen() {
    clean_screen_after_waiting_on(&["sms", "1", "2", "3"], 3);
}

/// The terminal's bytes up to each redraw (each starts with `\r`).
fn frames(terminal: &[u8]) -> impl Iterator<Item = &[u8]> {
    let starts = terminal.iter().enumerate().filter(|(_, b)| **b == b'\r');
    starts.map(|(at, _)| &terminal[..at])
}

/// A batch of `values` values (each 5 bytes, and a newline on stdin) whose first
/// takes a second and a bit (the bar is drawn only for batches that take a second)
/// and whose last is answered only once the terminal shows `drawn`; the terminal's
/// bytes. `stdin`: the values are the lines of a regular file on stdin.
fn a_bar_drawn(cols: u16, values: usize, stdin: bool, drawn: impl Fn(&str) -> bool) -> Vec<u8> {
    let hung = Gate::new();
    let server = server(&hung);
    let mut ids = vec!["slow".to_string()];
    ids.extend((2..values).map(|i| format!("{i:05}")));
    ids.push("hang".into());
    let mut args = vec![
        "--json".to_string(),
        "-j".into(),
        "2".into(),
        "sms-ref".into(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = match stdin {
        true => {
            let path = dir.path().join("ids.txt");
            // The same length per line, whatever the id: the total is estimated
            // from the bytes read.
            let lines: String = ids.iter().map(|id| format!("{id:<5}\n")).collect();
            std::fs::write(&path, lines).unwrap();
            args.push("-".into());
            let mut cmd = command(
                &server.base,
                &args.iter().map(String::as_str).collect::<Vec<_>>(),
            );
            cmd.stdin(std::fs::File::open(&path).unwrap());
            cmd
        }
        false => {
            args.extend(ids);
            command(
                &server.base,
                &args.iter().map(String::as_str).collect::<Vec<_>>(),
            )
        }
    };
    cmd.env("LANG", "C.UTF-8");
    let wiring = Wiring {
        stdin: false,
        stdout: false,
        controlling: false,
    };
    let mut run = OnTerminal::spawn_sized(cmd, wiring, cols);
    run.wait_for_terminal(drawn);
    hung.open();
    let shown = run.finish();
    assert_eq!(shown.code, Some(0));
    shown.terminal
}

#[test]
fn the_progress_bar_fits_a_narrow_terminal_on_every_frame() {
    let cols = 40;
    // The count with every lookup but the last done: the longest the line gets.
    let terminal = a_bar_drawn(cols, 1000, false, |shown| shown.contains("999/1000"));
    let mut counted = 0;
    for frame in frames(&terminal) {
        let rows = Screen::after(frame, usize::from(cols)).lines();
        // One row, never at the last columns, and the count whole on it.
        assert!(rows.len() <= 1, "{rows:#?}");
        let Some(row) = rows.first() else { continue };
        assert!(row.chars().count() <= usize::from(cols) - 2, "{rows:#?}");
        if let Some(count) = row.split(' ').find(|word| word.contains('/')) {
            let (done, total) = count.trim_end_matches(',').split_once('/').unwrap();
            assert!(done.parse::<u64>().is_ok() && total == "1000", "{rows:#?}");
            counted += 1;
        }
    }
    assert!(counted > 0, "{:?}", String::from_utf8_lossy(&terminal));
}

#[test]
fn a_batch_from_a_file_on_stdin_shows_a_total_and_an_eta() {
    let terminal = a_bar_drawn(COLS, 300, true, |shown| {
        shown.contains("/300 lookups") || shown.contains("/~300 lookups")
    });
    let text = String::from_utf8_lossy(&terminal);
    let with_total = text
        .split('\r')
        .find(|frame| frame.contains("300 lookups"))
        .unwrap();
    assert!(with_total.contains(", eta "), "{text:?}");
}

/// The threads of process `pid` now.
fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("Threads:")).unwrap();
    line["Threads:".len()..].trim().parse().unwrap()
}

#[test]
fn thousands_of_watched_values_keep_the_deadline_and_a_few_threads() {
    let server = TestServer::start(|url| {
        let id = value_of(url);
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"enroute"}}"#))
    });
    let values: Vec<String> = (1..=4000).map(|i| i.to_string()).collect();
    let deadline = Duration::from_secs(3);
    let mut args = vec!["--wait", "--wait-timeout", "3s", "--interval", "1s", "sms"];
    args.extend(values.iter().map(String::as_str));
    let wiring = Wiring {
        stdin: false,
        stdout: false,
        controlling: false,
    };
    let started = std::time::Instant::now();
    let mut run = OnTerminal::spawn(command(&server.base, &args), wiring);
    // Under way, the live view drawn: what fits the screen and the count of the rest.
    run.wait_for_terminal(|shown| shown.contains(" more: "));
    server.wait_for_requests(1000);
    let threads = threads_of(run.pid());
    let shown = run.finish();
    let took = started.elapsed();
    assert_eq!(shown.code, Some(81));
    // The 8 workers, the live view's and a few of the run's own, not one per value.
    assert!(threads <= 16, "{threads} threads");
    assert!(took < deadline * 2, "{took:?}");
    let rows = screen_lines(&shown.terminal);
    assert!(rows
        .iter()
        .all(|row| !row.contains("poll") && !row.contains(" more: ")));
}

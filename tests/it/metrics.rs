//! `-o prometheus` and `--metrics PATH` against the simulator, and the side files
//! (`--junit`, `--metrics`) that never destroy what is at their path. A module of
//! the report_forms binary: one test binary less to link.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::sim::{sim, Sim};
use crate::common::{json_lines, run_batch, smsstat_at};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

/// One sample of the exposition: its name, labels and value.
#[derive(Debug)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// The samples of a text exposition (comments skipped), label values unescaped.
fn samples(text: &str) -> Vec<Sample> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let (series, value) = line.rsplit_once(' ').unwrap();
            let value = value.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            let Some((name, labels)) = series.split_once('{') else {
                let (name, labels) = (series.to_string(), BTreeMap::new());
                return Sample {
                    name,
                    labels,
                    value,
                };
            };
            Sample {
                name: name.to_string(),
                labels: labels_of(labels.strip_suffix('}').unwrap()),
                value,
            }
        })
        .collect()
}

fn labels_of(mut text: &str) -> BTreeMap<String, String> {
    let mut labels = BTreeMap::new();
    while let Some((name, rest)) = text.split_once("=\"") {
        let mut value = String::new();
        let mut chars = rest.char_indices();
        let end = loop {
            match chars.next().unwrap() {
                (_, '\\') => match chars.next().unwrap().1 {
                    'n' => value.push('\n'),
                    c => value.push(c),
                },
                (i, '"') => break i,
                (_, c) => value.push(c),
            }
        };
        labels.insert(name.trim_start_matches(',').to_string(), value);
        text = &rest[end + 1..];
    }
    labels
}

fn value_of(samples: &[Sample], name: &str) -> f64 {
    let mut found = samples.iter().filter(|s| s.name == name);
    let sample = found.next().unwrap_or_else(|| panic!("no {name}"));
    sample.value
}

fn settled() -> Sim {
    sim(|_| {})
}

fn base(sim: &Sim) -> String {
    sim.server.base_url()
}

/// stdout of a batch of `ids` read from stdin, with its exit code.
fn batch(base: &str, args: &[&str], ids: &[u64]) -> (String, Option<i32>) {
    let mut all = args.to_vec();
    all.push("-");
    let (out, _) = run_batch(base, &all, ids, LIMIT);
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

/// Some IDs of records and two that are not found (`0`, `1000000`).
fn mixed_ids() -> Vec<u64> {
    let mut ids: Vec<u64> = (1..=60).collect();
    ids.extend([0, 1_000_000]);
    ids
}

#[test]
fn lookups_by_status_are_what_json_shows_for_the_same_ids() {
    let sim = settled();
    let ids = mixed_ids();
    let (json, json_code) = batch(&base(&sim), &["--json", "sms"], &ids);
    let (text, code) = batch(&base(&sim), &["-o", "prometheus", "sms"], &ids);
    assert_eq!(code, json_code);
    let mut shown: BTreeMap<String, f64> = BTreeMap::new();
    let mut not_found = 0.0;
    for line in json_lines(&json) {
        let status = match line.get("status").and_then(Value::as_str) {
            Some(status) => status.to_string(),
            None => {
                not_found += 1.0;
                "error".to_string()
            }
        };
        *shown.entry(status).or_default() += 1.0;
    }
    let samples = samples(&text);
    let counted: BTreeMap<String, f64> = samples
        .iter()
        .filter(|s| s.name == "smsstat_lookups_total")
        .map(|s| {
            assert_eq!(s.labels["kind"], "sms");
            (s.labels["status"].clone(), s.value)
        })
        .collect();
    assert_eq!(counted, shown);
    let failed: Vec<_> = samples
        .iter()
        .filter(|s| s.name == "smsstat_lookups_failed_total")
        .map(|s| (s.labels["exit_code"].as_str(), s.value))
        .collect();
    assert_eq!(failed, [("20", not_found)]);
    assert!(text.ends_with('\n'));
}

#[test]
fn the_latency_histogram_counts_and_sums_the_latencies_of_normalize() {
    let sim = settled();
    let ids = mixed_ids();
    let (json, _) = batch(&base(&sim), &["--json", "--normalize", "sms"], &ids);
    let latencies: Vec<f64> = json_lines(&json)
        .iter()
        .filter_map(|line| line.get("delivery_latency").and_then(Value::as_f64))
        .collect();
    assert!(latencies.len() > 10, "the simulator delivers most: {json}");
    let (text, _) = batch(&base(&sim), &["-o", "prometheus", "sms"], &ids);
    let samples = samples(&text);
    let name = "smsstat_sms_delivery_latency_seconds";
    assert_eq!(
        value_of(&samples, &format!("{name}_count")),
        latencies.len() as f64
    );
    assert_eq!(
        value_of(&samples, &format!("{name}_sum")),
        latencies.iter().sum::<f64>()
    );
    // Buckets are cumulative, up to the count.
    let buckets: Vec<(&str, f64)> = samples
        .iter()
        .filter(|s| s.name == format!("{name}_bucket"))
        .map(|s| (s.labels["le"].as_str(), s.value))
        .collect();
    assert!(buckets.windows(2).all(|w| w[0].1 <= w[1].1));
    assert_eq!(buckets.last().unwrap(), &("+Inf", latencies.len() as f64));
    let within_a_minute = latencies.iter().filter(|&&l| l <= 60.0).count();
    assert!(buckets.contains(&("60", within_a_minute as f64)));
}

#[test]
fn a_large_batch_makes_few_series_and_no_id_number_or_key_among_labels() {
    let sim = settled();
    let ids: Vec<u64> = (100_001..=100_500).collect();
    let key = "metrics-test-key-7f3a";
    let (json, _) = batch(&base(&sim), &["--api-key", key, "--json", "sms"], &ids);
    let mut secret: Vec<String> = ids.iter().map(u64::to_string).collect();
    secret.push(key.into());
    for line in json_lines(&json) {
        for field in ["msisdn", "reference", "id"] {
            if let Some(text) = line.get(field).and_then(Value::as_str) {
                secret.push(text.to_string());
            }
        }
    }
    let args = ["--api-key", key, "-o", "prometheus", "sms"];
    let (text, _) = batch(&base(&sim), &args, &ids);
    let samples = samples(&text);
    assert!(samples.len() < 200, "{} samples:\n{text}", samples.len());
    for sample in &samples {
        for value in sample.labels.values() {
            assert!(!secret.contains(value), "{value} is a label:\n{text}");
        }
    }
    let lookups: f64 = samples
        .iter()
        .filter(|s| s.name == "smsstat_lookups_total")
        .map(|s| s.value)
        .sum();
    assert_eq!(lookups, 500.0);
}

#[test]
fn a_task_has_its_delivered_ratio_and_the_run_its_duration_and_end() {
    let sim = settled();
    let out = smsstat_at(&base(&sim))
        .args(["-o", "prometheus", "task", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let samples = samples(&text);
    let ratio = samples
        .iter()
        .find(|s| s.name == "smsstat_task_delivered_ratio")
        .unwrap();
    assert_eq!(ratio.labels["task"], "5");
    assert!((0.0..=1.0).contains(&ratio.value));
    assert!(value_of(&samples, "smsstat_run_duration_seconds") >= 0.0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    let finished = value_of(&samples, "smsstat_run_finished_timestamp_seconds");
    assert!(finished <= now && finished > now - 600.0);
}

#[test]
fn options_that_shape_records_are_refused_with_prometheus() {
    for option in ["--fields=status", "--no-headers", "--normalize"] {
        let out = smsstat_at(crate::common::refused_base().as_str())
            .args(["-o", "prometheus", option, "sms", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(64), "{option}");
    }
}

/// `promtool check metrics` and prometheus_client's parser read the document; each
/// is run where installed (CI installs both), and said to be missing where not.
#[test]
fn promtool_and_prometheus_client_read_the_document() {
    let sim = settled();
    let (sms, _) = batch(&base(&sim), &["-o", "prometheus", "sms"], &mixed_ids());
    let (tasks, _) = batch(&base(&sim), &["-o", "prometheus", "task"], &[5, 6, 5, 0]);
    for text in [sms, tasks] {
        match checked_by(&["promtool", "check", "metrics"], &text) {
            None => eprintln!("promtool is not installed: not checked"),
            Some((true, said)) => assert_eq!(said.trim(), "", "promtool: {said}\n{text}"),
            Some((false, said)) => panic!("promtool: {said}\n{text}"),
        }
        let parse = "import sys\n\
            from prometheus_client.parser import text_string_to_metric_families as parse\n\
            print(len(list(parse(sys.stdin.read()))))";
        let has_client = checked_by(&["python3", "-c", "import prometheus_client"], "");
        if !matches!(has_client, Some((true, _))) {
            eprintln!("python3 with prometheus_client is not installed: not checked");
            continue;
        }
        match checked_by(&["python3", "-c", parse], &text) {
            Some((true, said)) => assert_eq!(said.trim(), "6", "{text}"),
            other => panic!("prometheus_client: {other:?}\n{text}"),
        }
    }
}

/// Runs `command` with `input` on stdin: None when it is not installed, else
/// whether it succeeded and what it said (stdout and stderr).
fn checked_by(command: &[&str], input: &str) -> Option<(bool, String)> {
    use std::io::Write;
    let mut child = std::process::Command::new(command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    Some((out.status.success(), said.into_owned()))
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn inode(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).unwrap().ino()
}

#[test]
fn metrics_beside_json_leave_only_their_file_and_a_second_run_replaces_it() {
    let sim = settled();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("smsstat.prom");
    let path_text = path.to_str().unwrap();
    let (json, _) = batch(
        &base(&sim),
        &["--json", "--metrics", path_text, "sms"],
        &[1, 2, 3],
    );
    assert_eq!(json_lines(&json).len(), 3, "stdout keeps its format");
    assert_eq!(names_in(dir.path()), ["smsstat.prom"]);
    let first = std::fs::read_to_string(&path).unwrap();
    let first_inode = inode(&path);
    assert!(first.ends_with('\n'));
    let total = |text: &str| -> f64 {
        samples(text)
            .iter()
            .filter(|s| s.name == "smsstat_lookups_total")
            .map(|s| s.value)
            .sum()
    };
    assert_eq!(total(&first), 3.0);
    batch(
        &base(&sim),
        &["--metrics", path_text, "sms"],
        &[4, 5, 6, 7, 8],
    );
    let second = std::fs::read_to_string(&path).unwrap();
    assert_eq!(total(&second), 5.0);
    assert_eq!(names_in(dir.path()), ["smsstat.prom"]);
    // Renamed into place, not rewritten: a reader never sees half a document.
    assert_ne!(inode(&path), first_inode);
}

#[test]
fn side_files_through_a_symlink_write_its_target_and_leave_the_link() {
    let sim = settled();
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    std::fs::write(real.join("junit.xml"), "old").unwrap();
    // One link to a file, one to a file not made yet; both relative.
    let junit = dir.path().join("junit-link.xml");
    let metrics = dir.path().join("metrics-link.prom");
    std::os::unix::fs::symlink("real/junit.xml", &junit).unwrap();
    std::os::unix::fs::symlink("real/metrics.prom", &metrics).unwrap();
    let out = smsstat_at(&base(&sim))
        .args(["--junit", junit.to_str().unwrap()])
        .args(["--metrics", metrics.to_str().unwrap(), "sms", "1", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for link in [&junit, &metrics] {
        assert!(std::fs::symlink_metadata(link).unwrap().is_symlink());
    }
    let xml = std::fs::read_to_string(real.join("junit.xml")).unwrap();
    assert!(
        xml.contains("<testsuite") && xml.contains("tests=\"2\""),
        "{xml}"
    );
    let prom = std::fs::read_to_string(real.join("metrics.prom")).unwrap();
    assert!(
        prom.contains("smsstat_lookups_total{kind=\"sms\""),
        "{prom}"
    );
    assert_eq!(names_in(&real), ["junit.xml", "metrics.prom"]);
    assert_eq!(
        names_in(dir.path()),
        ["junit-link.xml", "metrics-link.prom", "real"]
    );
}

#[test]
fn side_files_to_a_fifo_are_written_in_place_for_its_reader() {
    use std::sync::mpsc;
    let sim = settled();
    let dir = tempfile::tempdir().unwrap();
    let mut readers = Vec::new();
    for name in ["junit.fifo", "metrics.fifo"] {
        let path = dir.path().join(name);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let (tx, rx) = mpsc::channel();
        let reading = path.clone();
        // Opening a FIFO to read waits for its writer: the document is the event.
        std::thread::spawn(move || {
            let _ = tx.send(std::fs::read_to_string(reading).unwrap());
        });
        readers.push((path, rx));
    }
    let out = smsstat_at(&base(&sim))
        .args(["--junit", readers[0].0.to_str().unwrap()])
        .args(["--metrics", readers[1].0.to_str().unwrap(), "sms", "1", "2"])
        .timeout(LIMIT)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let documents: Vec<String> = readers
        .iter()
        .map(|(path, rx)| {
            use std::os::unix::fs::FileTypeExt;
            let kind = std::fs::symlink_metadata(path).unwrap().file_type();
            assert!(kind.is_fifo(), "{} is still a FIFO", path.display());
            // A bound, not a wait: the writer has exited, so the reader has its
            // document already unless nothing was written to the FIFO.
            rx.recv_timeout(LIMIT).expect("the reader gets a document")
        })
        .collect();
    assert!(documents[0].contains("<testsuite"), "{}", documents[0]);
    assert!(documents[1].contains("# TYPE smsstat_lookups_total counter"));
    assert_eq!(names_in(dir.path()), ["junit.fifo", "metrics.fifo"]);
}

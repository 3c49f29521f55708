//! The simulator's variants against the survey (docs/variants.md), over real HTTP:
//! `--variant spec|v1`, `--codes spec|vendor`, `--numbers mixed|integers|strings`,
//! the `/rest` and `/v1.0` prefixes, the task short form, the 429 body; and smsstat
//! reading every mode right, `--paths short` included.

use std::time::Duration;

use crate::common::process::Running;
use crate::common::sim::{
    FINAL_HLR_STATUSES, FINAL_SMS_STATUSES, FINAL_V1_HLR_STATUSES, FINAL_V1_SMS_STATUSES,
    PENDING_SMS_STATUSES, PENDING_V1_SMS_STATUSES,
};
use crate::common::{json_line, json_lines, smsstat, smsstat_at};
use httpcore::HttpServer;
use serde_json::{Map, Value};
use smsstat::testkit::{start_sim, Codes, Oddity, SimOptions, Variant};

fn start(options: SimOptions) -> HttpServer {
    start_sim(options).expect("simulator starts")
}

fn v1(configure: impl FnOnce(&mut SimOptions)) -> HttpServer {
    let mut options = SimOptions::default().with_variant(Variant::V1);
    configure(&mut options);
    start(options)
}

struct Reply {
    status: u16,
    body: Value,
}

fn get(base: &str, path: &str) -> Reply {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into();
    let mut response = agent.get(format!("{base}{path}")).call().unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    Reply {
        status: response.status().as_u16(),
        // A missing route of the spec's variant is plain text: null here.
        body: serde_json::from_str(&text).unwrap_or(Value::Null),
    }
}

/// Every mode the simulator has, as (name, options).
fn every_mode() -> Vec<(String, SimOptions)> {
    let mut modes = Vec::new();
    for variant in [Variant::Spec, Variant::V1] {
        for codes in [Codes::Spec, Codes::Vendor] {
            for numbers in [Oddity::Mixed, Oddity::Never, Oddity::Always] {
                let mut options = SimOptions::default().with_variant(variant);
                options.codes = codes;
                options.string_numbers = numbers;
                modes.push((format!("{variant:?}/{codes:?}/{numbers:?}"), options));
            }
        }
    }
    modes
}

/// The five lookups of one ID, by every path style, against one simulator: each
/// answers its own kind of record with exit 0.
#[test]
fn smsstat_reads_every_mode_by_every_path_style() {
    for (mode, options) in every_mode() {
        let server = start(options);
        let base = server.base_url();
        for paths in ["explicit", "short", "auto"] {
            let lookups: [(&str, &str, &str); 5] = [
                ("sms", "42", "sms"),
                ("sms-ref", "ref-42", "sms"),
                ("task", "2000006", "task"),
                ("hlr", "42", "hlr"),
                ("hlr-ref", "ref-42", "hlr"),
            ];
            for (command, value, kind) in lookups {
                let out = smsstat_at(&base)
                    .args(["--paths", paths, "--json", "--normalize", command, value])
                    .output()
                    .unwrap();
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{mode} --paths {paths} {command} {value}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let line = json_line(&out.stdout);
                assert_eq!(line["kind"], kind, "{mode} {paths} {command}: {line}");
            }
        }
        // The explicit task route takes every task ID, the short form the task-only.
        smsstat_at(&base)
            .args(["--paths", "explicit", "task", "6"])
            .assert()
            .success();
    }
}

#[test]
fn both_prefixes_are_served() {
    for variant in [Variant::Spec, Variant::V1] {
        let server = start(SimOptions::default().with_variant(variant));
        for prefix in ["/rest", "/v1.0"] {
            let base = format!("{}{prefix}", server.base_url());
            for (command, value) in [("sms", "7"), ("task", "7"), ("hlr-ref", "ref-7")] {
                smsstat_at(&base).args([command, value]).assert().success();
            }
            assert_eq!(get(&base, "/sms/7").status, 200);
        }
        assert_eq!(get(&server.base_url(), "/v2/sms/7").status, 404);
    }
}

/// Statuses drawn over many records: only those the variant documents.
#[test]
fn statuses_are_drawn_only_from_documented_values() {
    let cases = [
        (
            Variant::Spec,
            &*FINAL_SMS_STATUSES,
            &*PENDING_SMS_STATUSES,
            &*FINAL_HLR_STATUSES,
        ),
        (
            Variant::V1,
            &*FINAL_V1_SMS_STATUSES,
            &*PENDING_V1_SMS_STATUSES,
            &*FINAL_V1_HLR_STATUSES,
        ),
    ];
    for (variant, finals, pendings, hlr_finals) in cases {
        let settled = start(SimOptions::default().with_variant(variant));
        let mut pending_options = SimOptions::default().with_variant(variant);
        pending_options.settle = Duration::from_secs(3600);
        let pending = start(pending_options);
        let ids: Vec<String> = (1..=120).map(|id| id.to_string()).collect();
        let statuses = |server: &HttpServer, command: &str| -> Vec<String> {
            let out = smsstat_at(&server.base_url())
                .args(["--json", command])
                .args(&ids)
                .output()
                .unwrap();
            json_lines(&out.stdout)
                .iter()
                .map(|l| l["status"].as_str().unwrap().to_string())
                .collect()
        };
        for status in statuses(&settled, "sms") {
            assert!(finals.contains(&status.as_str()), "{variant:?} {status}");
        }
        for status in statuses(&pending, "sms") {
            assert!(pendings.contains(&status.as_str()), "{variant:?} {status}");
            assert_ne!(status, "pending");
        }
        for status in statuses(&settled, "hlr") {
            assert!(
                hlr_finals.contains(&status.as_str()),
                "{variant:?} {status}"
            );
        }
        if variant == Variant::V1 {
            // v1 documents no pending HLR status: final from the start.
            for status in statuses(&pending, "hlr") {
                assert!(hlr_finals.contains(&status.as_str()), "{status}");
            }
        }
    }
}

#[test]
fn v1_pending_sms_are_waited_for_and_gated() {
    let server = v1(|o| o.settle = Duration::from_secs(3600));
    let out = smsstat_at(&server.base_url())
        .args(["--json", "--expect", "delivered", "sms", "42"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(81));
    let line = json_line(&out.stdout);
    let status = line["status"].as_str().unwrap();
    assert!(
        ["new", "waiting", "sent"].contains(&status),
        "{status} is v1 pending"
    );
    // Settled: --wait ends, and --expect takes the final status's verdict.
    let settled = v1(|_| {});
    let out = smsstat_at(&settled.base_url())
        .args(["--wait", "--json", "sms", "42"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let status = json_line(&out.stdout)["status"]
        .as_str()
        .unwrap()
        .to_string();
    let code = if status == "delivered" { 0 } else { 80 };
    smsstat_at(&settled.base_url())
        .args(["--expect", "delivered", "sms", "42"])
        .assert()
        .code(code);
}

#[test]
fn not_found_codes_spec_and_vendor() {
    let spec = start(SimOptions::default());
    for (args, code) in [
        (&["hlr", "1000000"][..], 10),
        (&["hlr-ref", "nope"], 10),
        (&["sms", "1000000"], 20),
        (&["task", "1000000"], 30),
    ] {
        smsstat_at(&spec.base_url()).args(args).assert().code(code);
    }
    let vendor = v1(|_| {});
    for (args, code) in [
        (&["hlr", "1000000"][..], 60),
        (&["hlr-ref", "order-7"], 60),
        // 65 is beyond the pass-through range: exit 79 with the code shown.
        (&["hlr-ref", "--", "-=__"], 79),
        (&["sms", "1000000"], 20),
        (&["task", "1000000"], 30),
        (&["task", "wrong status"], 29),
    ] {
        smsstat_at(&vendor.base_url())
            .args(args)
            .assert()
            .code(code);
    }
    // v1 answers service errors with HTTP 200, as its document says.
    let missing = get(&vendor.base_url(), "/hlr/1000000");
    assert_eq!(missing.status, 200);
    assert_eq!(missing.body["error"], 60);
    assert_eq!(
        get(&vendor.base_url(), "/hlr/reference/-=__").body["error"],
        65
    );
    assert_eq!(get(&vendor.base_url(), "/sms/task/abc").body["error"], 29);
    // The spec's variant with the vendor's codes.
    let mixed = start(SimOptions {
        codes: Codes::Vendor,
        string_numbers: Oddity::Never,
        ..SimOptions::default()
    });
    let reply = get(&mixed.base_url(), "/hlr/0");
    assert_eq!(
        (reply.status, reply.body["error"].clone()),
        (404, 60.into())
    );
}

#[test]
fn v1_http_errors_have_code_and_message() {
    let keyed = v1(|o| o.api_key = Some("k".into()));
    let refused = get(&keyed.base_url(), "/sms/1");
    assert_eq!(refused.status, 401);
    assert_eq!(refused.body["code"], 401);
    assert!(refused.body["message"].is_string());
    smsstat_at(&keyed.base_url())
        .args(["sms", "1"])
        .assert()
        .code(77);
    let open = v1(|_| {});
    let no_route = get(&open.base_url(), "/mms/1");
    assert_eq!(
        (no_route.status, no_route.body["code"].clone()),
        (404, 404.into())
    );
}

#[test]
fn the_429_body_has_a_code_in_every_variant() {
    for variant in [Variant::Spec, Variant::V1] {
        let mut options = SimOptions::default().with_variant(variant);
        options.rate_limit = Some(1);
        let server = start(options);
        let refused = (0..50)
            .map(|_| get(&server.base_url(), "/sms/1"))
            .find(|r| r.status == 429)
            .expect("a 429 among 50 quick requests");
        assert_eq!(refused.body["code"], 429, "{variant:?}");
        assert!(refused.body["message"].is_string());
    }
}

/// Every number of a record: prices, counters, codes and detail flags.
fn numbers(record: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let numeric = [
        "error",
        "price",
        "validity",
        "sent",
        "total",
        "queued",
        "accepted",
        "enroute",
        "delivered",
        "undeliverable",
        "expired",
        "unknown",
        "totalprice",
    ];
    let mut found: Vec<(&str, &Value)> = record
        .iter()
        .filter(|(k, _)| numeric.contains(&k.as_str()))
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    if let Some(Value::Object(details)) = record.get("details") {
        found.extend(
            details
                .iter()
                .filter(|(k, _)| ["ported", "roaming"].contains(&k.as_str()))
                .map(|(k, v)| (k.as_str(), v)),
        );
    }
    found
}

#[test]
fn numbers_integers_strings_and_mixed() {
    for variant in [Variant::Spec, Variant::V1] {
        for (numbers_mode, want) in [(Oddity::Never, "number"), (Oddity::Always, "string")] {
            let mut options = SimOptions::default().with_variant(variant);
            options.string_numbers = numbers_mode;
            let server = start(options);
            for path in ["/sms/5", "/sms/task/5", "/hlr/5", "/sms/77", "/hlr/77"] {
                let reply = get(&server.base_url(), path);
                let record = reply.body.as_object().unwrap();
                for (name, value) in numbers(record) {
                    let is = if value.is_number() {
                        "number"
                    } else {
                        "string"
                    };
                    // The spec's `details` flags are the strings "1"/"0" it documents.
                    let spec_flag =
                        variant == Variant::Spec && ["ported", "roaming"].contains(&name);
                    if !spec_flag {
                        assert_eq!(is, want, "{variant:?} {path} {name}: {value}");
                    }
                }
            }
        }
    }
    // v1 defaults to numbers; the spec's default mixes them.
    let server = v1(|_| {});
    let task = get(&server.base_url(), "/sms/task/9").body;
    assert!(numbers(task.as_object().unwrap())
        .iter()
        .all(|(_, v)| v.is_number()));
}

/// The v1 document's fields, per record kind: with `--extra-fields never` a v1
/// record has no other (its Go client refuses unknown fields).
#[test]
fn v1_records_carry_only_the_documents_fields() {
    let schema = |kind: &str| -> &[&str] {
        match kind {
            "sms" => &[
                "error",
                "errorDescription",
                "id",
                "msisdn",
                "reference",
                "time_in",
                "time_sent",
                "time_dr",
                "status",
                "price",
                "currency",
            ],
            "task" => &[
                "error",
                "errorDescription",
                "originator",
                "body",
                "validity",
                "totalprice",
                "currency",
                "sent",
                "total",
                "queued",
                "accepted",
                "enroute",
                "delivered",
                "expired",
                "undeliverable",
                "unknown",
            ],
            _ => &[
                "error",
                "errorDescription",
                "id",
                "msisdn",
                "reference",
                "country_name",
                "brand",
                "brand_name",
                "network",
                "status",
                "details",
                "createdDatetime",
                "statusDatetime",
            ],
        }
    };
    let server = v1(|o| o.extra_fields = Oddity::Never);
    for id in 1..=40 {
        for (kind, path) in [
            ("sms", format!("/rest/sms/{id}")),
            ("task", format!("/rest/sms/task/{id}")),
            ("hlr", format!("/rest/hlr/{id}")),
        ] {
            let record = get(&server.base_url(), &path).body;
            for key in record.as_object().unwrap().keys() {
                assert!(schema(kind).contains(&key.as_str()), "{kind} {id}: {key}");
            }
            assert!(record["error"] == 0 && record["errorDescription"] == "No errors");
        }
    }
}

#[test]
fn the_task_short_form_reads_task_only_ids() {
    let server = start(SimOptions::default());
    let base = server.base_url();
    let out = smsstat_at(&base)
        .args(["--paths", "short", "--json", "task", "2000006"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(json_line(&out.stdout)["sent"].is_number());
    // A task ID that is an SMS ID too answers the SMS: smsstat says so.
    smsstat_at(&base)
        .args(["--paths", "short", "task", "6"])
        .assert()
        .code(65);
    // The explicit route has the task-only IDs as well.
    smsstat_at(&base)
        .args(["--paths", "explicit", "task", "2999999"])
        .assert()
        .success();
}

#[test]
fn sim_flags_choose_the_variant_and_its_defaults() {
    smsstat()
        .args(["sim", "--numbers", "integers", "--string-numbers", "always"])
        .assert()
        .code(64);
    smsstat().args(["sim", "--variant", "v2"]).assert().code(64);
    let help = smsstat().args(["sim", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for flag in ["--variant", "--codes", "--numbers", "--task-counters"] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    assert!(
        !help.contains("--string-numbers"),
        "the older spelling is hidden"
    );
}

#[test]
fn the_sim_subcommand_takes_the_variant_and_overrides_its_defaults() {
    let mut v1 = Running::start(&["--variant", "v1", "--extra-fields", "never"], &[]);
    let base = v1.base_url();
    let hlr = get(&base, "/v1.0/hlr/3").body;
    assert!(FINAL_V1_HLR_STATUSES.contains(&hlr["status"].as_str().unwrap()));
    assert!(hlr.get("country_name").is_some() || hlr["network"].is_null());
    let missing = get(&base, "/hlr/0");
    assert_eq!(
        (missing.status, missing.body["error"].clone()),
        (200, 60.into())
    );
    let task = get(&base, "/sms/task/3").body;
    assert!(task["total"].is_number() && task["errorDescription"] == "No errors");

    let mut mixed = Running::start(
        &[
            "--variant",
            "v1",
            "--codes",
            "spec",
            "--numbers",
            "strings",
            "--task-counters",
            "spec",
        ],
        &[],
    );
    let base = mixed.base_url();
    assert_eq!(get(&base, "/hlr/0").body["error"], "10");
    let task = get(&base, "/sms/task/3").body;
    assert!(task.get("total").is_none(), "{task}");
    assert!(task["sent"].is_string(), "{task}");

    let mut spec = Running::start(&["--codes", "vendor", "--numbers", "integers"], &[]);
    let base = spec.base_url();
    let missing = get(&base, "/rest/sms/task/abc");
    assert_eq!(
        (missing.status, missing.body["error"].clone()),
        (404, 29.into())
    );
    let hlr = get(&base, "/hlr/3").body;
    assert!(FINAL_HLR_STATUSES.contains(&hlr["status"].as_str().unwrap()));
}

//! The man page documents what an operator looks for: every environment variable
//! smsstat reads, the simulator's options, FILES and EXIT STATUS.

use std::path::Path;

use crate::common::smsstat;
use clap::CommandFactory;

fn man_page() -> String {
    let out = smsstat().arg("man").assert().success();
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

/// The text of one `.SH` section (without its heading line).
fn section<'a>(page: &'a str, heading: &str) -> &'a str {
    let start = page
        .find(&format!(".SH {heading}\n"))
        .unwrap_or_else(|| panic!("no section {heading}"));
    let body = &page[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body.find("\n.SH ").map_or(body, |end| &body[..end])
}

/// Every `SMSSTAT_*` name written in the sources.
fn variables_in_sources(dir: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            variables_in_sources(&path, found);
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (at, _) in text.match_indices("SMSSTAT_") {
            let name: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                .collect();
            if !found.contains(&name) {
                found.push(name);
            }
        }
    }
}

#[test]
fn every_environment_variable_is_in_the_man_page() {
    let page = man_page();
    let environment = section(&page, "ENVIRONMENT");
    let mut variables = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    variables_in_sources(&root.join("src"), &mut variables);
    // A setting's variable is made from its key: every key `config show` lists.
    variables.retain(|name| !name.ends_with('_'));
    let out = smsstat()
        .args(["--demo", "config", "show", "--json"])
        .output();
    let shown: serde_json::Value = serde_json::from_slice(&out.unwrap().stdout).unwrap();
    for key in shown["settings"].as_object().unwrap().keys() {
        let name = format!("SMSSTAT_{}", key.to_uppercase());
        if !variables.contains(&name) {
            variables.push(name);
        }
    }
    // Developers' switches, deliberately left out of the man page: the panic-hook
    // tests' and the benchmark's (docs/speed.md documents the latter).
    variables.retain(|name| name != "SMSSTAT_DEBUG_PANIC" && name != "SMSSTAT_BENCH_WITHOUT");
    assert!(variables.len() >= 10, "{variables:?}");
    let proxies = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"];
    let others = [
        "all_proxy",
        "ALL_PROXY",
        "no_proxy",
        "NO_PROXY",
        "NO_COLOR",
        "COLUMNS",
    ];
    for name in variables
        .iter()
        .map(String::as_str)
        .chain(proxies)
        .chain(others)
    {
        assert!(environment.contains(name), "{name} is not in ENVIRONMENT");
    }
}

#[test]
fn the_simulator_options_have_their_own_section() {
    let page = man_page();
    let simulator = section(&page, "\"SIMULATOR OPTIONS\"");
    let cli = smsstat::testkit::Cli::command();
    let sim = cli.find_subcommand("sim").unwrap();
    let flags: Vec<&str> = sim.get_arguments().filter_map(|a| a.get_long()).collect();
    assert!(flags.len() >= 10, "{flags:?}");
    for flag in flags {
        let roff = format!("\\fB\\-\\-{}\\fR", flag.replace('-', "\\-"));
        assert!(
            simulator.contains(&roff),
            "--{flag} is not in SIMULATOR OPTIONS"
        );
    }
    assert!(
        simulator.contains("[default: 127.0.0.1:8765]"),
        "{simulator}"
    );
}

#[test]
fn files_and_exit_status_are_there() {
    let page = man_page();
    assert!(section(&page, "FILES").contains("smsstat/config.toml"));
    let exit = section(&page, "\"EXIT STATUS\"");
    for code in [
        "64     usage error",
        "78     configuration error",
        "130    interrupted",
    ] {
        assert!(exit.contains(code), "{code}: {exit}");
    }
}

/// SYNOPSIS names every option with its argument (`[--base-url URL]`), and a plain
/// flag alone (`[--demo]`).
#[test]
fn the_synopsis_names_each_option_with_its_argument() {
    let page = man_page();
    let synopsis = section(&page, "SYNOPSIS");
    let mut cli = smsstat::testkit::Cli::command();
    cli.build();
    let mut seen = 0;
    for arg in cli.get_arguments().filter(|a| !a.is_hide_set()) {
        let Some(long) = arg.get_long() else { continue };
        let flag = format!("\\fB\\-\\-{}\\fR", long.replace('-', "\\-"));
        let shown = match arg.get_action().takes_values() {
            true => {
                let name = arg.get_value_names().unwrap()[0].as_str();
                format!("{flag} \\fI{}\\fR]", name.replace('-', "\\-"))
            }
            false => format!("{flag}]"),
        };
        assert!(synopsis.contains(&shown), "{shown} not in {synopsis}");
        seen += 1;
    }
    assert!(seen >= 30, "{seen} options");
    assert!(synopsis.contains("[\\fB\\-\\-base\\-url\\fR \\fIURL\\fR]"));
}

/// `.TH` has the date of the page's last change, from the committed date file (not
/// the build's clock, so builds are reproducible).
#[test]
fn the_title_has_the_pages_date() {
    let page = man_page();
    let date = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("completions/smsstat.1.date"),
    )
    .unwrap();
    let date = date.trim();
    let digits = date.chars().filter(char::is_ascii_digit).count();
    assert!(date.len() == 10 && digits == 8, "{date:?}");
    let version = env!("CARGO_PKG_VERSION");
    let title = format!(".TH smsstat 1 {date} \"smsstat {version}\"");
    assert!(page.contains(&title), "{title} in:\n{}", &page[..200]);
}

/// A plain flag is shown as a flag (not `--errors-with-200 ERRORS_WITH_200` with
/// true/false as its values); no Markdown backtick reaches the page.
#[test]
fn plain_flags_are_flags_and_no_markdown_is_left() {
    let page = man_page();
    assert!(
        page.contains("\n\\fB\\-\\-errors\\-with\\-200\\fR\n"),
        "{}",
        section(&page, "\"SIMULATOR OPTIONS\"")
    );
    assert!(!page.contains("ERRORS_WITH_200"));
    assert!(!page.contains("[possible values: true, false]"));
    assert!(!page.contains('`'), "a backtick left");
    assert!(page.contains("\\fBspec\\fR (10 HLR, 20 SMS, 30 task)"));
}

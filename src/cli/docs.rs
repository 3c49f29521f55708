//! `smsstat completions SHELL` and `smsstat man`: generated from the clap definition,
//! so they can never disagree with the real flags. The committed copies in
//! `completions/` are checked against these by `tests/it/ergonomics.rs`.

use std::io;

use clap_complete::Shell;

use crate::cli::{SimArgs, EXIT_CODES_HELP};
use crate::settings::file::file_keys;
use crate::settings::given::variables;
use clap::Args;

/// The registration script for `shell`: at each TAB it hands the words typed to
/// `COMPLETE=SHELL smsstat -- WORDS` (`run::complete`).
pub fn completion_script(shell: Shell) -> Vec<u8> {
    let mut script = Vec::new();
    let builtins = clap_complete::env::Shells::builtins();
    // A Shell without a registration would print nothing: the committed copies' test.
    if let Some(registration) = builtins.completer(&shell.to_string()) {
        // By name, found on PATH: the script is the same wherever the binary lives.
        let name = "smsstat";
        let _ = registration.write_registration("COMPLETE", name, name, name, &mut script);
    }
    if shell == Shell::Zsh {
        return zsh_autoloadable(script);
    }
    script
}

/// zsh loads `_smsstat` from `$fpath` (`~/.zfunc`, the Debian package's
/// vendor-completions) at the first TAB and runs the file as that function; clap's
/// registration only binds its completer then, so the first TAB offered nothing.
/// Run as `_smsstat` it now completes at once; sourced, it registers as before.
fn zsh_autoloadable(script: Vec<u8>) -> Vec<u8> {
    const REGISTER: &str = "compdef _clap_dynamic_completer_smsstat smsstat\n";
    let text = String::from_utf8_lossy(&script);
    match text.strip_suffix(REGISTER) {
        Some(body) => format!(
            "{body}if [ \"$funcstack[1]\" = \"_smsstat\" ]; then\n    \
             _clap_dynamic_completer_smsstat \"$@\"\nelse\n    {REGISTER}fi\n"
        )
        .into_bytes(),
        None => script,
    }
}

/// The man page: clap's sections, then the exit status, environment and files.
pub fn man_page() -> io::Result<Vec<u8>> {
    // The plain version: the page is committed (completions/smsstat.1) and must not
    // change with each commit that `--version` names.
    let command = super::command().version(super::build::VERSION);
    let synopsis = synopsis_section(&command);
    let man = clap_mangen::Man::new(command).date(MAN_DATE.trim());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    page.extend_from_slice(synopsis.as_bytes());
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    // One page for all: the subcommands are described here, with their examples,
    // rather than pointing at smsstat-sms(1) pages that are not installed.
    page.extend_from_slice(commands_section().as_bytes());
    page.extend_from_slice(simulator_section()?.as_bytes());
    page.extend_from_slice(extra_sections().as_bytes());
    man.render_version_section(&mut page)?;
    let page = without_repeated_preamble(&String::from_utf8_lossy(&page));
    Ok(code_in_bold(&page).into_bytes())
}

/// The day the page's text last changed (`completions/generate.sh` keeps it), so a
/// build is reproducible and the committed page stays the binary's.
const MAN_DATE: &str = include_str!("../../completions/smsstat.1.date");

/// Every option with its argument (`[--base-url URL]`), then the command: clap's
/// synopsis names the options alone (`[--base-url]`).
fn synopsis_section(command: &clap::Command) -> String {
    let mut line = String::from("\\fBsmsstat\\fR");
    let shown = command.get_arguments().filter(|a| !a.is_hide_set());
    for (arg, long) in shown.filter_map(|a| Some((a, a.get_long()?))) {
        let short = arg.get_short().map(|c| format!("\\fB\\-{c}\\fR|"));
        let short = short.unwrap_or_default();
        let flag = format!("{short}\\fB\\-\\-{}\\fR", escape_roff(long));
        let value = match arg.get_value_names() {
            Some([name, ..]) if arg.get_action().takes_values() => {
                format!(" \\fI{}\\fR", escape_roff(name))
            }
            _ => String::new(),
        };
        let repeated = matches!(arg.get_action(), clap::ArgAction::Count).then_some("...");
        line.push_str(&format!(" [{flag}{value}]{}", repeated.unwrap_or_default()));
    }
    line.push_str(" \\fICOMMAND\\fR [\\fIARGS\\fR]");
    format!(".SH SYNOPSIS\n{line}\n")
}

/// The help texts' `code` spans in bold; a lone backtick and requests stay.
fn code_in_bold(page: &str) -> String {
    let bold = |line: &str| {
        let spans: Vec<&str> = line.split('`').collect();
        if line.starts_with('.') || spans.len().is_multiple_of(2) {
            return line.to_string();
        }
        let span = |(i, span): (usize, &str)| match i % 2 {
            1 => format!("\\fB{span}\\fR"),
            _ => span.to_string(),
        };
        spans.into_iter().enumerate().map(span).collect()
    };
    page.split_inclusive('\n').map(bold).collect()
}

/// Roff's apostrophe definition once, not at each section rendered on its own.
fn without_repeated_preamble(page: &str) -> String {
    const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    match page.split_once(PREAMBLE) {
        Some((before, after)) => format!("{before}{PREAMBLE}{}", after.replace(PREAMBLE, "")),
        None => page.to_string(),
    }
}

/// Environment variables that are not settings of the table, with what each does.
const OTHER_ENVIRONMENT: &[(&str, &str)] = &[
    ("NO_COLOR", "When non-empty, no colour in auto mode."),
    ("CLICOLOR", "When 0, no colour in auto mode."),
    ("TERM", "When dumb, no colour in auto mode."),
    ("CLICOLOR_FORCE", "When set and not 0, colour in auto mode even when stdout is not a terminal."),
    ("https_proxy, HTTPS_PROXY", "The proxy for https:// base URLs (http:// or https:// proxy, user:password@ allowed)."),
    ("http_proxy, HTTP_PROXY", "The proxy for http:// base URLs."),
    ("all_proxy, ALL_PROXY", "The proxy for either scheme, when the scheme's own variable is unset."),
    ("no_proxy, NO_PROXY", "Hosts, domains, IP addresses and CIDR ranges reached directly; * for all. Loopback and --demo are never proxied."),
    ("COLUMNS", "The width tables are fitted to, instead of the terminal's (at least 20)."),
    ("LC_ALL, LC_CTYPE, LANG", "The first one set decides whether the terminal is UTF-8 (box drawing and block characters) or ASCII."),
];

fn commands_section() -> String {
    let mut roff = String::from(".SH COMMANDS\n");
    let command = super::command();
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let about = sub.get_long_about().or(sub.get_about());
        let about = about.map(|a| a.to_string()).unwrap_or_default();
        roff.push_str(&paragraph(&format!("smsstat {}", sub.get_name()), &about));
        if let Some(examples) = sub.get_after_help() {
            let examples = escaped_lines(&examples.to_string());
            roff.push_str(&format!(".RS\n.nf\n{examples}.fi\n.RE\n"));
        }
    }
    roff
}

/// `smsstat sim`'s own options (OPTIONS are the lookups'), the older spelling too.
fn simulator_section() -> io::Result<String> {
    let sim = SimArgs::augment_args(clap::Command::new("sim").disable_help_flag(true))
        .mut_arg("string_numbers", |arg| arg.hide(false));
    let mut roff = Vec::new();
    clap_mangen::Man::new(sim).render_options_section(&mut roff)?;
    let heading =
        ".SH \"SIMULATOR OPTIONS\"\nOptions of \\fBsmsstat sim\\fR, given after the subcommand:\n";
    Ok(String::from_utf8_lossy(&roff).replace(".SH SIMULATOR\n", heading))
}

fn extra_sections() -> String {
    let (_, codes) = EXIT_CODES_HELP.split_once('\n').unwrap_or_default();
    let codes = escaped_lines(codes);
    let mut roff = format!(".SH \"EXIT STATUS\"\n.nf\n{codes}.fi\n.SH ENVIRONMENT\n");
    let settings = variables().into_iter().map(|(n, m)| paragraph(&n, &m));
    let others = OTHER_ENVIRONMENT.iter().map(|(n, m)| paragraph(n, m));
    roff.extend(settings.chain(others));
    let keys: Vec<&str> = file_keys().collect();
    roff.push_str(&format!(
        ".SH FILES\n.TP\n\\fI$XDG_CONFIG_HOME/smsstat/config.toml\\fR\n\
         The config file (~/.config/smsstat/config.toml when XDG_CONFIG_HOME is unset): \n\
         top\\-level keys {} are defaults; [profiles.NAME] tables override them. \n\
         Precedence: flag, environment, profile, top level, built\\-in default. \n\
         \\fBsmsstat config show\\fR shows where each setting came from.\n",
        escape_roff(&keys.join(", "))
    ));
    roff
}

/// A `.TP` paragraph: its tag in bold, then its text.
fn paragraph(tag: &str, text: &str) -> String {
    format!(".TP\n\\fB{}\\fR\n{}\n", escape_roff(tag), escape_roff(text))
}

fn escaped_lines(text: &str) -> String {
    text.lines().map(|line| escape_roff(line) + "\n").collect()
}

/// Backslashes and hyphens as roff wants them, and a leading dot or quote guarded.
fn escape_roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

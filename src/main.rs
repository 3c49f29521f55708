use std::process::ExitCode;

fn main() -> ExitCode {
    smsstat::hygiene::install_panic_hook();
    let code = match smsstat::parse::parse_args(std::env::args_os()) {
        Ok((cli, facts)) => smsstat::app::run(cli, facts),
        Err(code) => code,
    };
    ExitCode::from(code)
}

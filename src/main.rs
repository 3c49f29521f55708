fn main() -> std::process::ExitCode {
    smsstat::main()
}

#!/bin/sh
# Regenerates the committed completion scripts and man page from the clap definition.
# Run after changing any flag or subcommand; tests/ergonomics.rs fails until you do.
set -eu
cd "$(dirname "$0")/.."
run() { cargo run --quiet --bin smsstat -- "$@"; }
run completions bash > completions/smsstat.bash
run completions zsh > completions/_smsstat
run completions fish > completions/smsstat.fish
run completions powershell > completions/_smsstat.ps1
run completions elvish > completions/smsstat.elv
run man > completions/smsstat.1
echo "regenerated completions/ (bash, zsh, fish, powershell, elvish, man page)"

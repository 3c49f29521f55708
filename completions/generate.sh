#!/usr/bin/env bash
# Regenerates the committed completion scripts and man page from the clap definition.
# Run after changing any flag or subcommand; tests/ergonomics.rs fails until you do.
set -euo pipefail
cd "$(dirname "$0")/.."
run() { cargo run --quiet --bin smsstat -- "$@"; }
run completions bash > completions/smsstat.bash
run completions zsh > completions/_smsstat
run completions fish > completions/smsstat.fish
run completions powershell > completions/_smsstat.ps1
run completions elvish > completions/smsstat.elv
# The man page's date is the day its text last changed (completions/smsstat.1.date,
# compiled in): a new text gets today's date (UTC; SOURCE_DATE_EPOCH's when set),
# then the page is rendered again with it.
run man > completions/smsstat.1.new
if ! sed 1,3d completions/smsstat.1.new | cmp -s - <(sed 1,3d completions/smsstat.1 2>/dev/null); then
  date -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"} +%F > completions/smsstat.1.date
  run man > completions/smsstat.1.new
fi
mv completions/smsstat.1.new completions/smsstat.1
echo "regenerated completions/ (bash, zsh, fish, powershell, elvish, man page)"

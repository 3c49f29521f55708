#!/usr/bin/env bash
# Benchmarks smsstat against curl on the same local server (the built-in simulator)
# and prints ratios. Not part of CI: timings need a quiet machine.
#
#   bench/run.sh            # all benchmarks
#   N_BATCH=2000 N_STREAM=100000 bench/run.sh
#
# Needs: curl, GNU time (/usr/bin/time); wrk for the simulator's own throughput
# (installed with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."

N_SINGLE=${N_SINGLE:-200}      # whole-process runs of one lookup
N_BATCH=${N_BATCH:-2000}       # lookups in the batch comparison
N_STREAM=${N_STREAM:-100000}   # lookups in the streaming memory check
PORT=${PORT:-18765}
BASE="http://127.0.0.1:$PORT"

cargo build --release --quiet
BIN=target/release/smsstat
WORK=$(mktemp -d)
cleanup() { kill "$SIM_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

"$BIN" sim --listen "127.0.0.1:$PORT" --settle 0 >"$WORK/sim.log" &
SIM_PID=$!
for _ in $(seq 50); do grep -q listening "$WORK/sim.log" 2>/dev/null && break; sleep 0.1; done

now_ns() { date +%s%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "== one lookup, whole process, $N_SINGLE runs each"
start=$(now_ns)
for _ in $(seq "$N_SINGLE"); do "$BIN" --base-url "$BASE" --json sms 42 >/dev/null; done
smsstat_ns=$(( $(now_ns) - start ))
start=$(now_ns)
for _ in $(seq "$N_SINGLE"); do curl -s "$BASE/sms/42" >/dev/null; done
curl_ns=$(( $(now_ns) - start ))
printf "smsstat %.2f ms/run, curl %.2f ms/run, smsstat/curl = %s (goal <= 1)\n" \
  "$(ratio "$smsstat_ns" "$((N_SINGLE * 1000000))")" "$(ratio "$curl_ns" "$((N_SINGLE * 1000000))")" \
  "$(ratio "$smsstat_ns" "$curl_ns")"

echo "== $N_BATCH lookups: smsstat --json sms - vs curl -s -Z --parallel-max 8"
seq 1 "$N_BATCH" >"$WORK/ids"
sed "s|.*|url = \"$BASE/sms/&\"|" "$WORK/ids" >"$WORK/curl.cfg"
start=$(now_ns)
"$BIN" --base-url "$BASE" --json sms - <"$WORK/ids" >"$WORK/smsstat.out"
smsstat_ns=$(( $(now_ns) - start ))
start=$(now_ns)
curl -s --no-progress-meter -Z --parallel-max 8 -K "$WORK/curl.cfg" >"$WORK/curl.out"
curl_ns=$(( $(now_ns) - start ))
lines=$(wc -l <"$WORK/smsstat.out")
printf "smsstat %d ms (%d lines), curl %d ms, smsstat/curl = %s (goal <= 1)\n" \
  $((smsstat_ns / 1000000)) "$lines" $((curl_ns / 1000000)) "$(ratio "$smsstat_ns" "$curl_ns")"

echo "== $N_STREAM lookups streamed: peak memory"
seq 1 "$N_STREAM" | /usr/bin/time -f "%M" -o "$WORK/rss" "$BIN" --base-url "$BASE" --json sms - | wc -l >"$WORK/count"
rss_kib=$(tail -1 "$WORK/rss")
printf "%d lines, peak RSS %.1f MiB (goal <= 20 MiB)\n" "$(cat "$WORK/count")" "$(ratio "$rss_kib" 1024)"

echo "== simulator throughput (wrk, 2 threads, 16 keep-alive connections, 5 s)"
if ! command -v wrk >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get install -y -qq wrk >/dev/null 2>&1 || true
fi
if command -v wrk >/dev/null; then
  wrk -t2 -c16 -d5s "$BASE/sms/42" | grep -E "Requests/sec|Non-2xx" || true
else
  echo "wrk not available: skipped"
fi

#!/usr/bin/env bash
# Benchmarks smsstat against curl side by side on local servers: nginx (a static JSON
# record), the built-in simulator (`smsstat sim`), and the simulator one round trip
# away (`smsstat sim --latency 50ms`), and prints ratios with PASS/MISS against the
# targets. Not part of CI: timings need a quiet machine.
#
#   bench/run.sh                         # everything, full sizes (a few minutes)
#   QUICK=1 bench/run.sh                 # smoke run with small sizes
#   BENCH_MD=/tmp/bench.md bench/run.sh  # also write the results as a markdown table
#   SMSSTAT_BIN=path/to/smsstat bench/run.sh   # use that binary, do not build
#
# What it measures (smsstat vs curl, against nginx and against the simulator):
#   1. one lookup, whole process: median wall of N_SINGLE runs, interleaved
#      (`smsstat --json sms 42` vs `curl -s URL`)                 target <= 0.5x curl
#   2. N_BATCH lookups on loopback: `smsstat -j 8 --json sms - < ids` vs
#      `curl -Z --parallel-max 8 -K urls`: wall, best of REPS runs
#      (interleaved)                                            target <= 0.85x curl
#   3. CPU per lookup in (2): (user + sys) / lookups, best of REPS  target <= 1x curl
#   2b. the same batch over https (nginx with a private CA made by openssl),
#      smsstat --ca-cert vs curl --cacert: wall and CPU, for information
#   2c. a server one round trip away: the simulator with `--latency LATENCY` (every
#      answer after 50 ms; one thread per connection, so LATENCY_JOBS connections
#      wait at once), N_LATENCY lookups, `smsstat -j 64 --json sms - < ids` vs
#      `curl -Z --parallel-max 64 -K urls`: wall and CPU (user + sys), best of REPS
#      runs (interleaved)             target wall <= 1x curl, CPU <= 0.7x curl
#   4. the server's ceiling: `wrk -t2 -c16` on /sms/42 (what (2) could reach), and
#      `wrk -t2 -c LATENCY_JOBS` on the simulator of (2c): LATENCY_JOBS / LATENCY
#      when it serves every connection at once (what (2c) could reach)
#   5. N_STREAM small lookups streamed: peak RSS (GNU time %M), every line printed;
#      the same lookups with -o report-json: peak RSS, every lookup counted
#                                                               target <= 16 MiB
#   6. stalled head (nginx only): N_STALL lookups where /sms/1 is slow (nginx
#      limit_rate drips its answer for about STALL_SECS seconds) while every other
#      ID answers a ~STALL_MIB MiB JSON record at once; smsstat must print in input
#      order, so the answers behind the head have to wait somewhere. At -j 8, -j 32
#      and -j 128 (STALL_JOBS): peak RSS and the number of lines printed.
#                                          target <= 256 MiB, N_STALL lines printed
#   7. N_WATCH values watched at once (`--wait`) on nginx, whose record (about 200
#      bytes) stays pending: WATCH_SECS of polls every WATCH_INTERVAL at -j 8; peak
#      RSS, and CPU per poll (nginx's access log counts the polls)   target <= 64 MiB
#   8. what each piece of speed machinery buys: the batches of (2) on nginx and of
#      (2c) at 50 ms, with each piece turned off in turn (SMSSTAT_BENCH_WITHOUT=
#      resolver: ureq's resolver on every new connection; agents: one agent for
#      every worker; transport: ureq probes a pooled connection twice per request
#      and sets its socket timeouts on every request) against all pieces on, best of REPS interleaved runs: wall and
#      CPU, off/on. A piece that buys under 5 % (a ratio under 1.05 on every row)
#      does not earn its place.
#
# Sizes (environment): N_SINGLE (200), N_BATCH (20000), REPS (3), N_LATENCY (3000),
# LATENCY (50ms), LATENCY_JOBS (64), N_STREAM (100000), N_STALL (3000), STALL_MIB (4),
# STALL_SECS (4), STALL_JOBS ("8 32 128"), N_WATCH (20000), WATCH_SECS (10),
# WATCH_INTERVAL (2s), WRK_SECS (5), STALL_RSS_CAP_MIB (4096: a
# stalled-head run whose RSS passes this is killed and counted as a MISS, so a runaway
# cannot take the machine down), PORT (18765; the script uses PORT to PORT+4 on
# 127.0.0.1). BENCH_STRICT=1 exits 1 when a target is missed. The load average is
# printed before each timed section and in the summary (before and after the run).
#
# Needs curl, GNU time (/usr/bin/time), nginx, wrk and openssl: installed with apt-get when
# missing and running as root. Only loopback is used; the servers it starts are
# stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH=$PATH:/usr/sbin:/sbin  # nginx lives there, outside a normal user's PATH

if [ "${QUICK:-0}" = 1 ]; then
  : "${N_SINGLE:=20}" "${N_BATCH:=2000}" "${REPS:=1}" "${N_STREAM:=5000}" "${N_STALL:=300}"
  : "${N_LATENCY:=640}" "${N_WATCH:=2000}" "${WATCH_SECS:=4}"
  : "${STALL_SECS:=2}" "${WRK_SECS:=1}"
fi
N_SINGLE=${N_SINGLE:-200}          # whole-process runs of one lookup, per tool and server
N_BATCH=${N_BATCH:-20000}          # lookups in the batch comparison
REPS=${REPS:-3}                    # batch runs per tool and server; the best counts
N_LATENCY=${N_LATENCY:-3000}       # lookups in the batch one round trip away
LATENCY=${LATENCY:-50ms}           # the simulator's delay before every answer there
LATENCY_JOBS=${LATENCY_JOBS:-64}   # -j and --parallel-max there
N_STREAM=${N_STREAM:-100000}       # lookups in the streaming memory check
N_STALL=${N_STALL:-3000}           # lookups in the stalled-head check
STALL_MIB=${STALL_MIB:-4}          # size of each answer behind the stalled head
STALL_SECS=${STALL_SECS:-4}        # how long the head lookup takes
STALL_JOBS=${STALL_JOBS:-"8 32 128"}  # -j values of the stalled-head check
STALL_RSS_CAP_MIB=${STALL_RSS_CAP_MIB:-4096}
STALL_TIME_LIMIT=${STALL_TIME_LIMIT:-600}  # seconds; a stalled-head run is killed after it
N_WATCH=${N_WATCH:-20000}          # values watched at once in section 7
WATCH_SECS=${WATCH_SECS:-10}       # their --wait-timeout, in seconds
WATCH_INTERVAL=${WATCH_INTERVAL:-2s}
WRK_SECS=${WRK_SECS:-5}
JOBS=8
PORT=${PORT:-18765}
SIM_PORT=$PORT NGINX_PORT=$((PORT + 1)) STALL_PORT=$((PORT + 2)) TLS_PORT=$((PORT + 3))
LAT_PORT=$((PORT + 4))
SIM_BASE="http://127.0.0.1:$SIM_PORT"
NGINX_BASE="http://127.0.0.1:$NGINX_PORT"
STALL_BASE="http://127.0.0.1:$STALL_PORT"
TLS_BASE="https://127.0.0.1:$TLS_PORT"
LAT_BASE="http://127.0.0.1:$LAT_PORT"

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 1; }

# ---------------------------------------------------------------- tools
apt_updated=0
apt_install() { # package...
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1; then
    [ "$apt_updated" = 1 ] && return 1
    apt_updated=1
    apt-get update -qq >/dev/null 2>&1 || return 1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 || return 1
  fi
}
need() { # command package...
  local cmd=$1; shift
  [ -x "$cmd" ] || command -v "$cmd" >/dev/null && return 0
  local pkg
  for pkg in "$@"; do
    say "installing $pkg (for $cmd)"
    apt_install "$pkg" && { [ -x "$cmd" ] || command -v "$cmd" >/dev/null; } && return 0
  done
  die "$cmd is missing (install ${*:-it}; as root this script does it with apt-get)"
}
need curl curl
need /usr/bin/time time
need wrk wrk
need nginx nginx-light nginx
need openssl openssl
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -n "${SMSSTAT_BIN:-}" ]; then
  BIN=$SMSSTAT_BIN
else
  cargo build --release --locked --quiet
  BIN=target/release/smsstat
fi
[ -x "$BIN" ] || die "no smsstat binary at $BIN"

# Nothing from the caller's configuration may change what is measured.
unset "${!SMSSTAT_@}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/smsstat-bench.XXXXXX")
chmod 755 "$WORK"  # nginx workers may run as another user and must read www/
export XDG_CONFIG_HOME=$WORK/xdg HOME=$WORK/home
mkdir -p "$XDG_CONFIG_HOME" "$HOME" "$WORK/www" "$WORK/nginx"

PIDS=()     # the servers
RUNNING=()  # a stalled-head run in progress
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  local pid
  for pid in "${RUNNING[@]}" "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${RUNNING[@]}" "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- servers
for p in "$SIM_PORT" "$NGINX_PORT" "$STALL_PORT" "$TLS_PORT" "$LAT_PORT"; do
  if (: <"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    die "port $p on 127.0.0.1 is in use (set PORT to another base)"
  fi
done

RECORD='"error":0,"msisdn":"380501234567","reference":"r42","time_in":"2024-01-01 00:00:00","time_sent":"2024-01-01 00:00:01","time_dr":"2024-01-01 00:00:05","status":"delivered","price":0.23,"currency":"EUR"'
printf '{%s,"id":42}\n' "$RECORD" >"$WORK/www/small.json"
printf '{%s,"id":42}\n' "${RECORD/delivered/queued}" >"$WORK/www/pending.json"
# The stalled head's answer: a small record padded so that it takes about
# STALL_SECS seconds at 1 KiB/s (nginx sends the first second's worth at once).
{ printf '{%s,"id":1,"body":"' "$RECORD"
  head -c $((STALL_SECS * 1024)) /dev/zero | tr '\0' 's'
  printf '"}\n'; } >"$WORK/www/slow.json"
# Every other ID in the stalled-head check: a valid record of STALL_MIB MiB.
{ printf '{%s,"id":2,"body":"' "$RECORD"
  head -c $((STALL_MIB * 1048576 - 512)) /dev/zero | tr '\0' 'b'
  printf '"}\n'; } >"$WORK/www/big.json"
chmod 644 "$WORK"/www/*.json

# A private CA and the server's certificate for 127.0.0.1 (the https batch).
mkdir -p "$WORK/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=smsstat bench CA" \
  -keyout "$WORK/tls/ca.key" -out "$WORK/tls/ca.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$WORK/tls/server.key" -out "$WORK/tls/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >"$WORK/tls/ext.cnf"
openssl x509 -req -days 2 -in "$WORK/tls/server.csr" -CA "$WORK/tls/ca.pem" \
  -CAkey "$WORK/tls/ca.key" -CAcreateserial -extfile "$WORK/tls/ext.cnf" \
  -out "$WORK/tls/server.pem" 2>/dev/null
chmod 755 "$WORK/tls" && chmod 644 "$WORK"/tls/*

cat >"$WORK/nginx/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000;
  keepalive_timeout 60s;
  types { }
  default_type application/json;
  etag off;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/www;
    location ~ ^/sms/ { rewrite ^ /small.json break; }
    # Section 7: a record that stays pending, every poll counted in the log.
    location ~ ^/pending/sms/ {
      access_log $WORK/nginx/pending.log;
      rewrite ^ /pending.json break;
    }
    location / { return 404; }
  }
  server {
    listen 127.0.0.1:$STALL_PORT;
    root $WORK/www;
    location = /sms/1 {
      limit_rate_after 0;
      limit_rate 1024;
      rewrite ^ /slow.json break;
    }
    location ~ ^/sms/ { rewrite ^ /big.json break; }
    location / { return 404; }
  }
  server {
    listen 127.0.0.1:$TLS_PORT ssl;
    ssl_certificate $WORK/tls/server.pem;
    ssl_certificate_key $WORK/tls/server.key;
    root $WORK/www;
    location ~ ^/sms/ { rewrite ^ /small.json break; }
    location / { return 404; }
  }
}
EOF
"$NGINX" -p "$WORK/nginx/" -e "$WORK/nginx/error.log" -c "$WORK/nginx/nginx.conf" \
  >"$WORK/nginx/stdout.log" 2>&1 &
PIDS+=($!)
"$BIN" sim --listen "127.0.0.1:$SIM_PORT" --settle 0 >"$WORK/sim.log" 2>&1 &
PIDS+=($!)
# One round trip away: the simulator serves each connection on its own thread and
# sleeps LATENCY there, so LATENCY_JOBS connections wait at once (section 4 checks it).
"$BIN" sim --listen "127.0.0.1:$LAT_PORT" --settle 0 --latency "$LATENCY" >"$WORK/sim-latency.log" 2>&1 &
PIDS+=($!)

wait_up() { # url name [curl option...]
  local url=$1 name=$2 _
  shift 2
  for _ in $(seq 100); do
    curl -q -sf -o /dev/null --max-time 1 "$@" "$url" && return 0
    sleep 0.1
  done
  say "$name did not come up on $url:"
  cat "$WORK/nginx/error.log" "$WORK/sim.log" "$WORK/sim-latency.log" >&2 2>/dev/null || true
  exit 1
}
wait_up "$NGINX_BASE/sms/42" nginx
wait_up "$STALL_BASE/sms/2" "nginx (stall server)"
wait_up "$SIM_BASE/sms/42" "the simulator"
wait_up "$TLS_BASE/sms/42" "nginx (https)" --cacert "$WORK/tls/ca.pem"
wait_up "$LAT_BASE/sms/42" "the simulator with --latency $LATENCY"

# ---------------------------------------------------------------- helpers
# stamp VAR: microseconds since the epoch into VAR, without forking (EPOCHREALTIME)
stamp() { local t=$EPOCHREALTIME; printf -v "$1" '%d' "$((10#${t/[.,]/}))"; }
fmt() { awk -v x="$1" -v d="${2:-2}" 'BEGIN { printf "%.*f", d, x }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
# shellcheck disable=SC2317  # called through verdict
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
# le_ratio a b limit: a / b <= limit, unrounded
# shellcheck disable=SC2317  # called through verdict
le_ratio() { awk -v a="$1" -v b="$2" -v l="$3" 'BEGIN { exit !(b > 0 && a / b <= l) }'; }
thousands() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }
verdict() { if "$@"; then echo PASS; else echo MISS; fi; }

# measure cmd...: runs it under GNU time; sets M_WALL_US, M_CPU_S (user + sys),
# M_RSS_KIB and M_RC. Redirections on the call apply to the command.
measure() {
  local start end user sys rss
  stamp start
  M_RC=0
  /usr/bin/time -f '%U %S %M' -o "$WORK/time.out" "$@" || M_RC=$?
  stamp end
  read -r user sys rss < <(tail -n 1 "$WORK/time.out")
  M_WALL_US=$((end - start))
  M_CPU_S=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
  M_RSS_KIB=$rss
}

ROWS=()   # benchmark|server|smsstat|curl|ratio|target|result
MISSES=0
row() {
  ROWS+=("$1|$2|$3|$4|$5|$6|$7")
  [ "$7" != MISS ] || MISSES=$((MISSES + 1))
  printf '  %-8s %-24s %-20s %-22s %-22s %s\n' "$2" "$3" "$4" "$5" "$6" "$7" >&2
}

seq 1 "$N_BATCH" >"$WORK/ids.batch"
seq 1 "$N_STREAM" >"$WORK/ids.stream"
seq 1 "$N_STALL" >"$WORK/ids.stall"
seq 1 "$N_LATENCY" >"$WORK/ids.latency"
seq 1 "$N_WATCH" >"$WORK/ids.watch"
curl_cfg() { # base ids > config
  sed "s|.*|url = \"$1/sms/&\"|" "$2"
}

declare -A BATCH_RATE_SMSSTAT BATCH_RATE_CURL

load_now() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0; }
load=$(load_now)
if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n / 4) }'; then
  say "note: load average $load on $(nproc) cores before the run: timings will be noisy"
fi

# ---------------------------------------------------------------- 1. one lookup
say "== one lookup, whole process: median of $N_SINGLE runs each, interleaved (load $(load_now))"
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for server in nginx sim; do
  [ "$server" = nginx ] && base=$NGINX_BASE || base=$SIM_BASE
  "$BIN" --base-url "$base" --json sms 42 >/dev/null    # warm the page cache
  curl -q -s "$base/sms/42" >/dev/null
  s_runs=() c_runs=() t0=0 t1=0 t2=0
  for _ in $(seq "$N_SINGLE"); do
    stamp t0; "$BIN" --base-url "$base" --json sms 42 >/dev/null
    stamp t1; curl -q -s "$base/sms/42" >/dev/null
    stamp t2
    s_runs+=($((t1 - t0))) c_runs+=($((t2 - t1)))
  done
  s_us=$(printf '%s\n' "${s_runs[@]}" | median)
  c_us=$(printf '%s\n' "${c_runs[@]}" | median)
  row "one lookup, whole process (median of $N_SINGLE runs)" "$server" \
    "$(fmt "$(ratio "$s_us" 1000)") ms" "$(fmt "$(ratio "$c_us" 1000)") ms" \
    "$(ratio "$s_us" "$c_us")" "<= 0.5" "$(verdict le_ratio "$s_us" "$c_us" 0.5)"
done

# ---------------------------------------------------------------- 2./3. batch
say "== $N_BATCH lookups: smsstat -j $JOBS --json sms - vs curl -Z --parallel-max $JOBS, best of $REPS (load $(load_now))"
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }
per_lookup() { awk -v c="$1" -v n="${2:-$N_BATCH}" 'BEGIN { printf "%.1f", c * 1e6 / n }'; }
# batch_best base jobs ids [smsstat option...] -- [curl option...]: REPS interleaved
# runs of each over the IDs in the file ids at -j jobs / --parallel-max jobs; sets
# s_wall, s_cpu, c_wall, c_cpu (the best of each) and note (what went wrong, if a
# run did not print every lookup or failed).
batch_best() {
  local base=$1 jobs=$2 ids=$3 n s_opts=() c_opts=()
  shift 3
  while [ $# -gt 0 ] && [ "$1" != -- ]; do s_opts+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  c_opts=("$@")
  n=$(wc -l <"$ids")
  curl_cfg "$base" "$ids" >"$WORK/curl.cfg"
  s_wall="" s_cpu="" c_wall="" c_cpu="" note=""
  for _ in $(seq "$REPS"); do
    measure "$BIN" --base-url "$base" ${s_opts[@]+"${s_opts[@]}"} -j "$jobs" --json sms - \
      <"$ids" >"$WORK/batch.smsstat"
    s_wall=$(min "$M_WALL_US" "$s_wall") s_cpu=$(min "$M_CPU_S" "$s_cpu") s_rc=$M_RC
    measure curl -q -s --no-progress-meter ${c_opts[@]+"${c_opts[@]}"} -Z --parallel-max "$jobs" \
      -K "$WORK/curl.cfg" >"$WORK/batch.curl"
    c_wall=$(min "$M_WALL_US" "$c_wall") c_cpu=$(min "$M_CPU_S" "$c_cpu") c_rc=$M_RC
    s_lines=$(wc -l <"$WORK/batch.smsstat")
    c_answers=$(grep -o '"status"' "$WORK/batch.curl" | wc -l)
    [ "$s_lines" = "$n" ] && [ "$s_rc" = 0 ] || note=" (smsstat: $s_lines lines, exit $s_rc)"
    [ "$c_answers" = "$n" ] && [ "$c_rc" = 0 ] || note="$note (curl: $c_answers answers, exit $c_rc)"
  done
}
for server in nginx sim; do
  [ "$server" = nginx ] && base=$NGINX_BASE || base=$SIM_BASE
  batch_best "$base" "$JOBS" "$WORK/ids.batch"
  r=$(ratio "$s_wall" "$c_wall")
  res=$(verdict le_ratio "$s_wall" "$c_wall" 0.85); [ -z "$note" ] || res=MISS
  row "$(thousands "$N_BATCH") lookups at -j $JOBS: wall (best of $REPS)$note" "$server" \
    "$(thousands $((s_wall / 1000))) ms" "$(thousands $((c_wall / 1000))) ms" "$r" "<= 0.85" "$res"
  s_per=$(per_lookup "$s_cpu") c_per=$(per_lookup "$c_cpu")
  row "CPU per lookup (user + sys) in $(thousands "$N_BATCH") lookups (best of $REPS)" "$server" \
    "$s_per µs" "$c_per µs" "$(ratio "$s_per" "$c_per")" "<= 1" "$(verdict le_ratio "$s_cpu" "$c_cpu" 1)"
  BATCH_RATE_SMSSTAT[$server]=$((N_BATCH * 1000000 / s_wall))
  BATCH_RATE_CURL[$server]=$((N_BATCH * 1000000 / c_wall))
done

# ---------------------------------------------------------------- 2b. https
say "== $N_BATCH lookups over https (nginx, a private CA), best of $REPS: information, no target (load $(load_now))"
batch_best "$TLS_BASE" "$JOBS" "$WORK/ids.batch" --ca-cert "$WORK/tls/ca.pem" -- --cacert "$WORK/tls/ca.pem"
row "$(thousands "$N_BATCH") lookups over https at -j $JOBS: wall (best of $REPS)$note" "nginx" \
  "$(thousands $((s_wall / 1000))) ms" "$(thousands $((c_wall / 1000))) ms" \
  "$(ratio "$s_wall" "$c_wall")" "info" "-"
row "CPU per lookup (user + sys) over https (best of $REPS)" "nginx" \
  "$(per_lookup "$s_cpu") µs" "$(per_lookup "$c_cpu") µs" "$(ratio "$s_cpu" "$c_cpu")" "info" "-"

# ---------------------------------------------------------------- 2c. one round trip away
say "== $N_LATENCY lookups, every answer after $LATENCY: smsstat -j $LATENCY_JOBS vs curl -Z --parallel-max $LATENCY_JOBS, best of $REPS (load $(load_now))"
batch_best "$LAT_BASE" "$LATENCY_JOBS" "$WORK/ids.latency"
res=$(verdict le_ratio "$s_wall" "$c_wall" 1); [ -z "$note" ] || res=MISS
row "$(thousands "$N_LATENCY") lookups $LATENCY away at -j $LATENCY_JOBS: wall (best of $REPS)$note" "sim+$LATENCY" \
  "$(thousands $((s_wall / 1000))) ms" "$(thousands $((c_wall / 1000))) ms" \
  "$(ratio "$s_wall" "$c_wall")" "<= 1" "$res"
res=$(verdict le_ratio "$s_cpu" "$c_cpu" 0.7); [ -z "$note" ] || res=MISS
row "CPU (user + sys) of $(thousands "$N_LATENCY") lookups $LATENCY away at -j $LATENCY_JOBS (best of $REPS)" "sim+$LATENCY" \
  "$(fmt "$s_cpu") s" "$(fmt "$c_cpu") s" "$(ratio "$s_cpu" "$c_cpu")" "<= 0.7" "$res"
LAT_RATE_SMSSTAT=$((N_LATENCY * 1000000 / s_wall))
LAT_RATE_CURL=$((N_LATENCY * 1000000 / c_wall))

# ---------------------------------------------------------------- 4. ceiling
say "== the server's ceiling: wrk -t2 -c16 -d${WRK_SECS}s on /sms/42 (load $(load_now))"
for server in nginx sim; do
  [ "$server" = nginx ] && base=$NGINX_BASE || base=$SIM_BASE
  rps=$(wrk -t2 -c16 -d"${WRK_SECS}s" "$base/sms/42" | awk '/Requests\/sec/ { printf "%d", $2 }')
  [[ "$rps" =~ ^[1-9][0-9]*$ ]] || die "wrk gave no rate for $base"
  row "server ceiling (wrk -t2 -c16 -d${WRK_SECS}s); batch rates as a share of it" "$server" \
    "$(thousands "${BATCH_RATE_SMSSTAT[$server]}")/s ($(ratio "${BATCH_RATE_SMSSTAT[$server]}" "$rps"))" \
    "$(thousands "${BATCH_RATE_CURL[$server]}")/s ($(ratio "${BATCH_RATE_CURL[$server]}" "$rps"))" \
    "ceiling $(thousands "$rps")/s" "info" "-"
done
# The simulator one round trip away: with LATENCY_JOBS connections waiting at once it
# reaches LATENCY_JOBS / LATENCY; well below that, the server would be the bottleneck
# of (2c).
rps=$(wrk -t2 -c"$LATENCY_JOBS" -d"${WRK_SECS}s" "$LAT_BASE/sms/42" | awk '/Requests\/sec/ { printf "%d", $2 }')
[[ "$rps" =~ ^[1-9][0-9]*$ ]] || die "wrk gave no rate for $LAT_BASE"
limit=$(awk -v j="$LATENCY_JOBS" -v l="$LATENCY" 'BEGIN {
  s = l + 0; if (l ~ /ms$/) s /= 1000; else if (l ~ /us$|µs$/) s /= 1e6
  printf "%d", j / s }')
row "server ceiling (wrk -t2 -c$LATENCY_JOBS -d${WRK_SECS}s; at most $(thousands "$limit")/s = $LATENCY_JOBS / $LATENCY); batch rates as a share of it" "sim+$LATENCY" \
  "$(thousands "$LAT_RATE_SMSSTAT")/s ($(ratio "$LAT_RATE_SMSSTAT" "$rps"))" \
  "$(thousands "$LAT_RATE_CURL")/s ($(ratio "$LAT_RATE_CURL" "$rps"))" \
  "ceiling $(thousands "$rps")/s" "info" "-"

# ---------------------------------------------------------------- 5. streaming
say "== $N_STREAM small lookups streamed: peak RSS (load $(load_now))"
for server in nginx sim; do
  [ "$server" = nginx ] && base=$NGINX_BASE || base=$SIM_BASE
  measure "$BIN" --base-url "$base" -j "$JOBS" --json sms - <"$WORK/ids.stream" >"$WORK/stream.smsstat"
  s_rss=$M_RSS_KIB s_rc=$M_RC
  s_lines=$(wc -l <"$WORK/stream.smsstat")
  rm -f "$WORK/stream.smsstat"
  curl_cfg "$base" "$WORK/ids.stream" >"$WORK/curl.cfg"
  measure curl -q -s --no-progress-meter -Z --parallel-max "$JOBS" -K "$WORK/curl.cfg" >/dev/null
  c_rss=$M_RSS_KIB
  res=$(verdict le "$s_rss" $((16 * 1024)))
  [ "$s_lines" = "$N_STREAM" ] && [ "$s_rc" = 0 ] || res=MISS
  row "$(thousands "$N_STREAM") lookups streamed at -j $JOBS: peak RSS (lines printed)" "$server" \
    "$(fmt "$(ratio "$s_rss" 1024)" 1) MiB ($(thousands "$s_lines"))" "$(fmt "$(ratio "$c_rss" 1024)" 1) MiB" \
    "$(ratio "$s_rss" "$c_rss")" "<= 16 MiB, all lines" "$res"
done

# The aggregate report over the same lookups: folded in as they finish, so memory
# stays as flat as streaming (curl has no counterpart: no ratio).
say "== $N_STREAM lookups with -o report-json: peak RSS"
for server in nginx sim; do
  [ "$server" = nginx ] && base=$NGINX_BASE || base=$SIM_BASE
  measure "$BIN" --base-url "$base" -j "$JOBS" -o report-json sms - <"$WORK/ids.stream" >"$WORK/report.json"
  r_rss=$M_RSS_KIB
  r_lookups=$(awk -F': ' '/"lookups"/ { gsub(/,/, "", $2); print $2; exit }' "$WORK/report.json")
  res=$(verdict le "$r_rss" $((16 * 1024)))
  [ "$r_lookups" = "$N_STREAM" ] || res=MISS
  row "$(thousands "$N_STREAM") lookups, -o report-json: peak RSS (lookups counted)" "$server" \
    "$(fmt "$(ratio "$r_rss" 1024)" 1) MiB ($(thousands "${r_lookups:-0}"))" "-" "-" "<= 16 MiB, all counted" "$res"
done

# ---------------------------------------------------------------- 6. stalled head
head_us=$(curl -q -s -o /dev/null -w '%{time_total}' "$STALL_BASE/sms/1" | awk '{ printf "%d", $1 * 1e6 }')
say "== stalled head: $N_STALL lookups, /sms/1 takes $(fmt "$(ratio "$head_us" 1000000)" 1) s, the others answer $STALL_MIB MiB each (load $(load_now))"
mkfifo "$WORK/stall.fifo"
for jobs in $STALL_JOBS; do
  wc -l <"$WORK/stall.fifo" >"$WORK/stall.count" &
  wc_pid=$!
  stamp start
  /usr/bin/time -f '%M' -o "$WORK/time.out" "$BIN" --base-url "$STALL_BASE" -j "$jobs" \
    --max-body 8388608 --timeout 60s --json sms - <"$WORK/ids.stall" >"$WORK/stall.fifo" &
  time_pid=$!
  RUNNING=("$time_pid" "$wc_pid")
  # Watchdog: sample the RSS, and stop a run that passes the cap or the time limit.
  killed="" max_seen=0 child=""
  for _ in $(seq $((STALL_TIME_LIMIT * 20))); do
    kill -0 "$time_pid" 2>/dev/null || break
    # ps exits 1 while time has no child yet (or no more): not a failure of the script.
    [ -n "$child" ] || child=$(ps -o pid= --ppid "$time_pid" | tr -d ' ' | head -n 1 || true)
    if [ -n "$child" ]; then
      rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$child/status" 2>/dev/null || true)
      if [ -n "$rss" ] && [ "$rss" -gt "$max_seen" ]; then max_seen=$rss; fi
      if [ -n "$rss" ] && [ "$rss" -gt $((STALL_RSS_CAP_MIB * 1024)) ]; then
        killed="killed above $STALL_RSS_CAP_MIB MiB"; kill -9 "$child" 2>/dev/null || true; break
      fi
    fi
    sleep 0.05
  done
  if [ -z "$killed" ] && kill -0 "$time_pid" 2>/dev/null; then
    killed="killed after ${STALL_TIME_LIMIT}s"; [ -z "$child" ] || kill -9 "$child" 2>/dev/null || true
  fi
  rc=0; wait "$time_pid" || rc=$?
  wait "$wc_pid" || true
  RUNNING=()
  stamp end
  wall_us=$((end - start))
  rss=$(tail -n 1 "$WORK/time.out")
  [[ "$rss" =~ ^[0-9]+$ ]] || rss=$max_seen
  [ "$rss" -ge "$max_seen" ] || rss=$max_seen
  lines=$(tr -d ' ' <"$WORK/stall.count")
  res=$(verdict le "$rss" $((256 * 1024)))
  [ "$lines" = "$N_STALL" ] && [ "$rc" = 0 ] && [ -z "$killed" ] || res=MISS
  detail="$(thousands "$lines")/$(thousands "$N_STALL") lines, $(fmt "$(ratio "$wall_us" 1000000)" 1) s"
  [ "$rc" = 0 ] || detail="$detail, exit $rc"
  [ -z "$killed" ] || detail="$detail, $killed"
  peak="$(fmt "$(ratio "$rss" 1024)" 0) MiB"
  [ -z "$killed" ] || peak=">= $peak"
  row "stalled head, $(thousands "$N_STALL") x $STALL_MIB MiB answers at -j $jobs: peak RSS ($detail)" nginx \
    "$peak" "" "" "<= 256 MiB, all lines" "$res"
done

# ---------------------------------------------------------------- 7. watched values
say "== $N_WATCH values watched at once for ${WATCH_SECS}s, a poll every $WATCH_INTERVAL (load $(load_now))"
: >"$WORK/nginx/pending.log"
measure "$BIN" --base-url "$NGINX_BASE/pending" -j "$JOBS" --wait --wait-timeout "${WATCH_SECS}s" \
  --interval "$WATCH_INTERVAL" --json sms - <"$WORK/ids.watch" >"$WORK/watch.smsstat" 2>/dev/null
w_lines=$(wc -l <"$WORK/watch.smsstat")
w_polls=$(wc -l <"$WORK/nginx/pending.log")
res=$(verdict le "$M_RSS_KIB" $((64 * 1024)))
# Every value still pending at the end: exit 81, a line each.
[ "$w_lines" = "$N_WATCH" ] && [ "$M_RC" = 81 ] || res=MISS
row "$(thousands "$N_WATCH") values watched for ${WATCH_SECS}s at -j $JOBS: peak RSS ($(thousands "$w_polls") polls, exit $M_RC)" nginx \
  "$(fmt "$(ratio "$M_RSS_KIB" 1024)" 1) MiB" "" "" "<= 64 MiB, all lines" "$res"
row "CPU per poll (user + sys) of $(thousands "$N_WATCH") watched values" nginx \
  "$(per_lookup "$M_CPU_S" "$w_polls") µs" "" "" "info" "-"

# ---------------------------------------------------------------- 8. speed machinery A/B
# ab_best base jobs ids piece: REPS interleaved runs with every piece and without
# `piece`; sets on_wall, on_cpu, off_wall, off_cpu (the best of each).
ab_best() {
  local base=$1 jobs=$2 ids=$3 piece=$4
  on_wall="" on_cpu="" off_wall="" off_cpu=""
  for _ in $(seq "$REPS"); do
    measure "$BIN" --base-url "$base" -j "$jobs" --json sms - <"$ids" >/dev/null
    on_wall=$(min "$M_WALL_US" "$on_wall") on_cpu=$(min "$M_CPU_S" "$on_cpu")
    measure env SMSSTAT_BENCH_WITHOUT="$piece" "$BIN" --base-url "$base" -j "$jobs" --json sms - \
      <"$ids" >/dev/null
    off_wall=$(min "$M_WALL_US" "$off_wall") off_cpu=$(min "$M_CPU_S" "$off_cpu")
  done
}
say "== speed machinery: each piece off in turn, best of $REPS (load $(load_now))"
for piece in resolver agents transport; do
  for server in nginx sim+50ms; do
    if [ "$server" = nginx ]; then
      ab_best "$NGINX_BASE" "$JOBS" "$WORK/ids.batch" "$piece"
    else
      ab_best "$LAT_BASE" "$LATENCY_JOBS" "$WORK/ids.latency" "$piece"
    fi
    row "without the $piece piece: wall, off/on (best of $REPS)" "$server" \
      "$(thousands $((off_wall / 1000))) ms" "on: $(thousands $((on_wall / 1000))) ms" \
      "$(ratio "$off_wall" "$on_wall")" "info" "-"
    row "without the $piece piece: CPU (user + sys), off/on (best of $REPS)" "$server" \
      "$(fmt "$off_cpu") s" "on: $(fmt "$on_cpu") s" "$(ratio "$off_cpu" "$on_cpu")" "info" "-"
  done
done

# ---------------------------------------------------------------- report
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
version=$("$BIN" --version 2>/dev/null || echo smsstat)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
sizes="N_SINGLE=$N_SINGLE N_BATCH=$N_BATCH REPS=$REPS N_LATENCY=$N_LATENCY LATENCY=$LATENCY LATENCY_JOBS=$LATENCY_JOBS N_STREAM=$N_STREAM N_STALL=$N_STALL STALL_MIB=$STALL_MIB STALL_SECS=$STALL_SECS STALL_JOBS=\"$STALL_JOBS\" N_WATCH=$N_WATCH WATCH_SECS=$WATCH_SECS"
load_after=$(load_now)
say ""
say "$version (commit $commit), $(date -u +%Y-%m-%d), $(nproc) cores${cpu:+, $cpu}, load $load before the run, $load_after after; $sizes"
printf '%-78s %-8s %-22s %-20s %-22s %-22s %s\n' benchmark server smsstat curl smsstat/curl target result
for r in "${ROWS[@]}"; do
  IFS='|' read -r b s x c q t v <<<"$r"
  printf '%-78s %-8s %-22s %-20s %-22s %-22s %s\n' "$b" "$s" "$x" "$c" "$q" "$t" "$v"
done
say "$MISSES target(s) missed"

if [ -n "${BENCH_MD:-}" ]; then
  {
    echo "Figures from \`bench/run.sh\` ($sizes), $version at commit $commit,"
    echo "$(date -u +%Y-%m-%d), $(nproc) cores${cpu:+ ($cpu)}, load average $load before the run, $load_after after:"
    echo
    echo "| benchmark | server | smsstat | curl | smsstat/curl | target | result |"
    echo "|---|---|---|---|---|---|---|"
    for r in "${ROWS[@]}"; do
      IFS='|' read -r b s x c q t v <<<"$r"
      echo "| $b | $s | $x | $c | $q | ${t//<=/≤} | $v |"
    done
  } >"$BENCH_MD"
  say "markdown table written to $BENCH_MD"
fi

[ "${BENCH_STRICT:-0}" = 1 ] && [ "$MISSES" -gt 0 ] && exit 1
exit 0

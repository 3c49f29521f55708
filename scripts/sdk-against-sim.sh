#!/bin/sh
# Points the vendor's SDK that installs from a registry (the npm package
# `bsg-nodejs`, the classic Node.js client) at `smsstat sim` in each mode and prints
# which of its read calls succeed: a table for docs/variants.md.
#
# The client's base URL is fixed (`https://app.bsg.hk` in the published 1.0.13,
# `https://api.bsg.world` in its repository), so the driver below wraps the
# `request` module it calls and sends every request to the simulator instead (same
# path, http, loopback); nothing of the SDK is changed or built.
#
# Usage: sh scripts/sdk-against-sim.sh   (needs node and npm, the npm registry, and
#        a built smsstat: cargo build; SMSSTAT_BIN overrides the binary's path)
set -eu
cd "$(dirname "$0")/.."
BIN=${SMSSTAT_BIN:-${CARGO_TARGET_DIR:-target}/debug/smsstat}
[ -x "$BIN" ] || { echo "no smsstat at $BIN: cargo build first" >&2; exit 1; }
PACKAGE=bsg-nodejs@1.0.13

WORK=$(mktemp -d)
SIM_PID=
cleanup() {
    [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

(cd "$WORK" && npm install --silent --no-audit --no-fund --ignore-scripts "$PACKAGE" >/dev/null)

cat > "$WORK/driver.js" <<'EOF'
// Every read call of the SDK, against the simulator at process.argv[2].
const Module = require('module');
const sim = process.argv[2];
const realRequire = Module.prototype.require;
Module.prototype.require = function (name) {
  const loaded = realRequire.apply(this, arguments);
  if (name !== 'request') return loaded;
  return (params, done) =>
    loaded({ ...params, url: params.url.replace(/^https:\/\/[^/]+/, sim) }, done);
};
const bsg = require('bsg-nodejs')('any-key');
const calls = [
  ['getSMS({id: 42})', () => bsg.getSMS({ id: 42 })],
  ["getSMS({id: '42'})", () => bsg.getSMS({ id: '42' })],
  ["getSMS({reference: 'ref-42'})", () => bsg.getSMS({ reference: 'ref-42' })],
  ['getSMS({task_id: 6})', () => bsg.getSMS({ task_id: 6 })],
  ['getHLR({id: 42})', () => bsg.getHLR({ id: 42 })],
  ["getHLR({reference: 'ref-42'})", () => bsg.getHLR({ reference: 'ref-42' })],
  ["getHLR({reference: 'nope'})", () => bsg.getHLR({ reference: 'nope' })],
];
// The published client throws a ReferenceError from its callback on any answer that
// is not JSON (`${e}`, `${r}` of nothing): that ends the call, not the run.
let crashed = null;
process.on('uncaughtException', (e) => { if (crashed) crashed(e); });
(async () => {
  for (const [name, call] of calls) {
    let result;
    try {
      const body = await Promise.race([
        call(),
        new Promise((_, fail) => { crashed = (e) => fail(`crashes: ${e}`); }),
      ]);
      result = body && body.error ? `error ${body.error} (${body.errorDescription})`
        : body && body.code ? `HTTP error body ${body.code} (${body.message})`
        : `ok: ${body.status !== undefined ? 'status ' + body.status : 'task, delivered ' + body.delivered}`;
    } catch (e) {
      result = `throws: ${String(e).slice(0, 90)}`;
    }
    console.log(`| ${process.argv[3]} | \`${name}\` | ${result} |`);
  }
})();
EOF

echo "| simulator mode | SDK call | result |"
echo "|---|---|---|"
for mode in "--variant spec" "--variant spec --extra-fields always --numbers integers" "--variant v1" "--variant v1 --extra-fields never"; do
    # shellcheck disable=SC2086 # the mode is several words on purpose
    "$BIN" sim --listen 127.0.0.1:0 --settle 0 $mode > "$WORK/sim.log" &
    SIM_PID=$!
    until grep -q listening "$WORK/sim.log" 2>/dev/null; do sleep 0.1; done
    base=$(head -1 "$WORK/sim.log" | sed 's/.* on //')
    (cd "$WORK" && node driver.js "$base" "\`$mode\`")
    kill "$SIM_PID"
    wait "$SIM_PID" 2>/dev/null || true
    SIM_PID=
done

#!/usr/bin/env bash
# The webhook sink's signatures, verified by the official Standard Webhooks library (npm standardwebhooks, pinned in
# e2e/package.json), for both forms of notifications.webhook.secret that mcp-tasks accepts:
#   - whsec_<base64>: the library takes the same string;
#   - plain text (at least 24 bytes): the library takes "whsec_" + base64 of the text's UTF-8 bytes.
# Each run: the reference server, a `serve` worker with the webhook configured, one task submitted; the receiver
# must verify its delivery. Usage: e2e/webhook-verify.sh   (needs Java 17, Node 20+ and the npm registry on first use)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-webhook.XXXXXX")"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [[ -n "${KEEP_E2E:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT
say() { echo "[webhook-verify] $*"; }
fail() { echo "[webhook-verify] FAIL: $*" >&2; for f in "$work"/*.log; do echo "--- $f" >&2; tail -n 20 "$f" >&2; done; exit 1; }

command -v node >/dev/null && command -v npm >/dev/null || fail "node/npm are not installed"
deps="$root/e2e"
if [[ ! -d "$deps/node_modules/standardwebhooks" ]]; then
  if [[ ! -w "$deps" ]]; then
    deps="${TMPDIR:-/tmp}/mcp-tasks-e2e-webhook"; mkdir -p "$deps"
    cp "$root/e2e/package.json" "$root/e2e/package-lock.json" "$deps/"
  fi
  (cd "$deps" && npm ci --no-audit --no-fund --silent) || fail "npm ci of the pinned packages failed"
fi
cp "$root/e2e/webhook-receiver.mjs" "$deps/" 2>/dev/null || true

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
wait_port() {
  for _ in $(seq 1 600); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

"$root/bin/mcp-tasks" --version >/dev/null   # builds the jar once
ref_port=$(free_port)
"$root/bin/mcp-tasks" reference-server --http "$ref_port" >"$work/reference.log" 2>&1 &
pids+=($!)
wait_port "$ref_port" || fail "the reference server did not start"

# $1: a name; $2: the configured secret; $3: the same secret as the library takes it
run() {
  local name="$1" configured="$2" library="$3" hook_port
  hook_port=$(free_port)
  node "$deps/webhook-receiver.mjs" "$hook_port" "$library" >"$work/receiver-$name.log" 2>&1 &
  pids+=($!)
  wait_port "$hook_port" || fail "the receiver did not start"
  cat >"$work/$name.json" <<JSON
{ "database": { "url": "jdbc:sqlite:$work/$name.db" },
  "runtime": { "tickMillis": 200 },
  "mcpServers": { "ref": { "url": "http://127.0.0.1:$ref_port/mcp" } },
  "notifications": { "webhook": { "url": "http://127.0.0.1:$hook_port/hook", "secret": "$configured" } } }
JSON
  "$root/bin/mcp-tasks" --config "$work/$name.json" serve >"$work/serve-$name.log" 2>&1 &
  pids+=($!)
  "$root/bin/mcp-tasks" --config "$work/$name.json" submit ref echo --args '{"text":"signed"}' >/dev/null \
    || fail "submit failed ($name)"
  for _ in $(seq 1 300); do
    grep -q '^VERIFIED' "$work/receiver-$name.log" && break
    grep -q '^REJECTED' "$work/receiver-$name.log" && fail "the library rejected the $name delivery: $(grep REJECTED "$work/receiver-$name.log" | head -1)"
    sleep 0.1
  done
  grep -q '^VERIFIED' "$work/receiver-$name.log" || fail "no delivery verified within 30 s ($name)"
  say "$name secret: $(grep -m1 '^VERIFIED' "$work/receiver-$name.log")"
}

plain="a plain-text webhook secret of 40 bytes"
run plain "$plain" "whsec_$(printf '%s' "$plain" | base64 -w0)"
encoded="whsec_$(head -c 32 /dev/urandom | base64 -w0)"
run whsec "$encoded" "$encoded"
say "both secret forms verified by the official Standard Webhooks library"

#!/usr/bin/env bash
# End-to-end run of two gateway replicas serving one session alike:
#   - PostgreSQL (MCP_TASKS_TEST_PG_URL when set, a jdbc:postgresql: url; else a throwaway cluster made with the
#     local initdb/pg_ctl), the reference server, and two `mcp-tasks gateway` processes (each with its worker) on
#     that one database;
#   - a round-robin TCP proxy with no affinity in front of them (e2e/round-robin-proxy.mjs): every new connection
#     goes to the next gateway;
#   - the unmodified TypeScript SDK 1.32.2 client, through the proxy, with a fetch that opens a new connection per
#     request (e2e/gateway-replicas-client.mjs): it initializes once, calls a plain tool and a task-mode tool, polls
#     and fetches the task; any error (a 404 `Session not found` among them) fails the run. Then a 2026-07-28 client
#     follows a task with subscriptions/listen to its end;
#   - the run fails unless both gateways served connections of that session.
# Usage: e2e/gateway-replicas.sh   (needs Java 17, Node 20+, the npm registry on first use, and PostgreSQL binaries
#        or MCP_TASKS_TEST_PG_URL)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-replicas.XXXXXX")"
pids=()
pg_ctl_cmd=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  if [[ ${#pg_ctl_cmd[@]} -gt 0 ]]; then "${pg_ctl_cmd[@]}" stop -m immediate >/dev/null 2>&1 || true; fi
  [[ -n "${KEEP_E2E:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT
say() { echo "[gateway-replicas] $*"; }
fail() { echo "[gateway-replicas] FAIL: $*" >&2; for f in "$work"/*.log "$work"/*.out; do [[ -f "$f" ]] || continue; echo "--- $f" >&2; tail -n 30 "$f" >&2; done; exit 1; }
skip() {
  echo "!!!!!!!! SKIPPED: the gateway replicas run did not happen: $1 !!!!!!!!" | tee /dev/stderr
  if [[ "${MCP_TASKS_E2E_REQUIRED:-0}" == 1 ]]; then exit 3; fi
  exit 0
}
started=$(date +%s)
command -v node >/dev/null && command -v npm >/dev/null || skip "node/npm are not installed (the SDK client is an npm package)"

clients="$root/e2e"
if [[ ! -d "$clients/node_modules/@modelcontextprotocol/sdk" ]]; then
  if [[ ! -w "$clients" ]]; then
    clients="${TMPDIR:-/tmp}/mcp-tasks-e2e-clients"; mkdir -p "$clients"
    cp "$root/e2e/package.json" "$root/e2e/package-lock.json" "$clients/"
  fi
  (cd "$clients" && npm ci --no-audit --no-fund --silent) || skip "npm ci of the pinned SDK clients failed (no registry?)"
fi
cp "$root/e2e/gateway-replicas-client.mjs" "$work/" && ln -s "$clients/node_modules" "$work/node_modules"

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
wait_port() {
  for _ in $(seq 1 600); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# PostgreSQL: the given one, or a throwaway cluster (initdb refuses root: then it runs as nobody)
if [[ -n "${MCP_TASKS_TEST_PG_URL:-}" ]]; then
  db_url="$MCP_TASKS_TEST_PG_URL"
  say "PostgreSQL: MCP_TASKS_TEST_PG_URL"
else
  # Debian keeps the server binaries off PATH (/usr/lib/postgresql/N/bin); installed with apt-get when missing
  pg_bin() { compgen -G "/usr/lib/postgresql/*/bin/initdb" | sort -V | tail -1 | xargs -r dirname; }
  if ! command -v initdb >/dev/null && [[ -z "$(pg_bin)" ]]; then
    say "installing Debian's postgresql with apt-get"
    sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    { "${sudo[@]}" apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends postgresql \
        >/dev/null; } || fail "no PostgreSQL: apt-get could not install postgresql (or set MCP_TASKS_TEST_PG_URL)"
  fi
  command -v initdb >/dev/null || PATH="$(pg_bin):$PATH"
  command -v initdb >/dev/null && command -v pg_ctl >/dev/null || fail "no initdb/pg_ctl after installing postgresql"
  as=()
  if [[ $(id -u) -eq 0 ]]; then
    as=(runuser -u nobody --); chown nobody "$work"
  fi
  pg_port=$(free_port)
  "${as[@]}" initdb -D "$work/pg" -U mcp --auth=trust -E UTF8 --no-sync >"$work/initdb.log" 2>&1 \
    || fail "initdb failed"
  pg_ctl_cmd=("${as[@]}" pg_ctl -D "$work/pg" -w)
  "${pg_ctl_cmd[@]}" -l "$work/postgres.log" -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c fsync=off" \
    start >/dev/null || fail "PostgreSQL did not start"
  db_url="jdbc:postgresql://mcp@127.0.0.1:$pg_port/postgres"
  say "PostgreSQL: a throwaway cluster on port $pg_port"
fi

"$root/bin/mcp-tasks" --version >/dev/null   # builds the jar once, before anything is timed

ref_port=$(free_port)
"$root/bin/mcp-tasks" reference-server --http "$ref_port" >"$work/reference.log" 2>&1 &
pids+=($!)
wait_port "$ref_port" || fail "the reference server did not start"

export ALICE_TOKEN="alice-$(node -e 'console.log(require("crypto").randomBytes(18).toString("base64url"))')"
cat >"$work/mcp-tasks.json" <<EOF
{
  "database": { "url": "$db_url" },
  "runtime": { "leaseSeconds": 6, "pollIntervalSeconds": 1 },
  "mcpServers": { "reference": { "url": "http://127.0.0.1:$ref_port/mcp" } },
  "gateway": { "principals": { "alice": "\${env:ALICE_TOKEN}" } }
}
EOF

backends=()
for replica in a b; do
  port=$(free_port)
  "$root/bin/mcp-tasks" --config "$work/mcp-tasks.json" gateway --port "$port" --worker-id "replica-$replica" \
    >"$work/gateway-$replica.log" 2>&1 &
  pids+=($!)
  wait_port "$port" || fail "gateway $replica did not start"
  backends+=("127.0.0.1:$port")
  say "gateway $replica on 127.0.0.1:$port (pid $!)"
done

proxy_port=$(free_port)
node "$root/e2e/round-robin-proxy.mjs" "$proxy_port" "${backends[@]}" >"$work/proxy.out" 2>"$work/proxy.log" &
proxy_pid=$!
pids+=("$proxy_pid")
wait_port "$proxy_port" || fail "the proxy did not start"
say "round-robin proxy on 127.0.0.1:$proxy_port -> ${backends[*]}"

if ! node "$work/gateway-replicas-client.mjs" --url "http://127.0.0.1:$proxy_port/mcp" --token "$ALICE_TOKEN" \
    >"$work/client.out" 2>"$work/client.log"; then
  fail "the client failed: $(cat "$work/client.out")"
fi
grep -q '^PASS$' "$work/client.out" || fail "the client did not pass: $(cat "$work/client.out")"
kill -TERM "$proxy_pid"
wait "$proxy_pid" 2>/dev/null || true
sed 's/^/[gateway-replicas]   client: /' "$work/client.log"
for backend in "${backends[@]}"; do
  served=$(sed -n "s/^TOTAL $backend //p" "$work/proxy.out")
  [[ "${served:-0}" -gt 0 ]] || fail "gateway $backend served no connection of the session"
  say "gateway $backend served $served connections"
done
say "PASS: one session across both replicas, $(sed -n 's/^REQUESTS //p' "$work/client.out") requests, no error" \
  "($(($(date +%s) - started)) s)"

#!/usr/bin/env bash
# End-to-end run of the front door with real SDK clients from npm:
#   - `mcp-tasks gateway` (with its worker, SQLite) in front of the reference server and, where ../shared/peer has
#     it, the third-party server-everything;
#   - per upstream, a 2025-11-25 client (TypeScript SDK v1, client.experimental.tasks) and a 2026-07-28 client
#     (@modelcontextprotocol/ext-tasks on the SDK v2 client) create a task through the gateway as principal alice;
#   - once every task runs upstream, the gateway and its worker are killed with SIGKILL and started again;
#   - each client goes on polling the same task id to its correct result; the 2025 client keeps its one transport and
#     Mcp-Session-Id throughout, without reconnect code: the restarted gateway finds the session in the store (a 404
#     fails the run). server-everything binds its tasks to the upstream session that created them: the restarted
#     worker speaks in the killed worker's session again, whose id the task's row holds;
#   - principal bob asks for each task id and is told it does not exist.
# Usage: e2e/gateway-restart.sh            (needs Java 17, Node 20+ and the npm registry on first use)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-e2e.XXXXXX")"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [[ -n "${KEEP_E2E:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT
say() { echo "[gateway-restart] $*"; }
fail() { echo "[gateway-restart] FAIL: $*" >&2; for f in "$work"/*.log; do echo "--- $f" >&2; tail -n 30 "$f" >&2; done; exit 1; }

# Without Node or the npm registry the run cannot happen: it says so LOUDLY and exits 0 (3 with
# MCP_TASKS_E2E_REQUIRED=1, for a CI that must run it)
skip() {
  echo "!!!!!!!! SKIPPED: the gateway restart run did not happen: $1 !!!!!!!!" | tee /dev/stderr
  if [[ "${MCP_TASKS_E2E_REQUIRED:-0}" == 1 ]]; then exit 3; fi
  exit 0
}
command -v node >/dev/null && command -v npm >/dev/null || skip "node/npm are not installed (the SDK clients are npm packages)"

# the clients: installed once into e2e/node_modules (or a writable copy when the checkout is read-only)
clients="$root/e2e"
if [[ ! -d "$clients/node_modules/@modelcontextprotocol/ext-tasks" ]]; then
  if [[ ! -w "$clients" ]]; then
    clients="${TMPDIR:-/tmp}/mcp-tasks-e2e-clients"; mkdir -p "$clients"
    cp "$root/e2e/package.json" "$root/e2e/package-lock.json" "$root/e2e/gateway-client.mjs" "$clients/"
  fi
  (cd "$clients" && npm ci --no-audit --no-fund --silent) || skip "npm ci of the pinned SDK clients failed (no registry?)"
fi
client() { node "$clients/gateway-client.mjs" "$@"; }

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
wait_port() {
  for _ in $(seq 1 600); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

"$root/bin/mcp-tasks" --version >/dev/null   # builds the jar once, before anything is timed

ref_port=$(free_port); gw_port=$(free_port)
"$root/bin/mcp-tasks" reference-server --http "$ref_port" >"$work/reference.log" 2>&1 &
pids+=($!)
wait_port "$ref_port" || fail "the reference server did not start"

upstreams=(reference)
servers="\"reference\": {\"url\": \"http://127.0.0.1:$ref_port/mcp\"}"
everything="$root/../shared/peer/run-everything.sh"
if [[ -x "$everything" ]]; then
  ev_port=$(free_port)
  "$everything" http "$ev_port" >"$work/everything.log" 2>&1 &
  pids+=($!)
  wait_port "$ev_port" || fail "server-everything did not start"
  upstreams+=(everything)
  servers="$servers, \"everything\": {\"url\": \"http://127.0.0.1:$ev_port/mcp\"}"
else
  say "server-everything: SKIPPED (no $everything in this checkout); the reference server only"
fi

export ALICE_TOKEN="alice-$(node -e 'console.log(require("crypto").randomBytes(18).toString("base64url"))')"
export BOB_TOKEN="bob-$(node -e 'console.log(require("crypto").randomBytes(18).toString("base64url"))')"
cat >"$work/mcp-tasks.json" <<EOF
{
  "database": { "url": "jdbc:sqlite:$work/tasks.db" },
  "runtime": { "leaseSeconds": 6, "pollIntervalSeconds": 1 },
  "mcpServers": { $servers },
  "gateway": { "port": $gw_port,
               "principals": { "alice": "\${env:ALICE_TOKEN}", "bob": "\${env:BOB_TOKEN}" } }
}
EOF
url="http://127.0.0.1:$gw_port/mcp"

gateway_pid=""
start_gateway() {
  "$root/bin/mcp-tasks" --config "$work/mcp-tasks.json" gateway >>"$work/gateway-$1.log" 2>&1 &
  gateway_pid=$!
  pids+=("$gateway_pid")
  wait_port "$gw_port" || fail "the gateway did not start (start $1)"
}
start_gateway 1
say "gateway on $url (pid $gateway_pid), upstreams: ${upstreams[*]}"

# one client per generation and upstream; the tool runs long enough to be killed under
declare -A expected
runs=()
for upstream in "${upstreams[@]}"; do
  for generation in 2025 2026; do
    name="$upstream-$generation"
    if [[ "$upstream" == reference ]]; then
      tool="reference__work"; args="{\"durationMs\": 30000, \"result\": \"done-$name\"}"; expected[$name]="done-$name"
    else
      tool="everything__simulate-research-query"; args="{\"topic\": \"durable $name\"}"; expected[$name]="durable $name"
    fi
    client run --url "$url" --token="$ALICE_TOKEN" --generation "$generation" --tool "$tool" --args "$args" \
      --task-file "$work/$name.task" >"$work/$name.out" 2>"$work/$name.log" &
    pids+=($!)
    runs+=("$name:$!")
  done
done

for run in "${runs[@]}"; do
  name=${run%%:*}
  for _ in $(seq 1 300); do [[ -s "$work/$name.task" ]] && break; sleep 0.1; done
  [[ -s "$work/$name.task" ]] || fail "$name: no task was created"
  say "$name: task $(cat "$work/$name.task")"
done

# The gateway hands out a task id once the row is stored, before the worker sends the create upstream. A SIGKILL
# between that send and the worker recording its answer ends the task failed/submit_outcome_unknown (atMostOnce never
# sends a create twice: the documented outcome, not this run's subject). So the kill waits until every task is running
# upstream: its row holds the upstream's task id.
# One store read covers every task (each read is a JVM start): server-everything's tasks run only 4 s, and the kill
# is meant to land while they run. A row names its creating worker once it holds the upstream's task id.
remote_tasks() {
  "$root/bin/mcp-tasks" --config "$work/mcp-tasks.json" list --json 2>/dev/null | node -e '
    let text = ""; process.stdin.on("data", d => text += d).on("end", () => {
      try { for (const t of JSON.parse(text)) if (t.createdBy) console.log(t.id + " " + t.status); } catch {}
    });' || true
}
created=""
for _ in $(seq 1 120); do
  created=$(remote_tasks); missing=0
  for run in "${runs[@]}"; do grep -q "^$(cat "$work/${run%%:*}.task") " <<<"$created" || missing=1; done
  [[ $missing -eq 0 ]] && break
  sleep 0.25
done
for run in "${runs[@]}"; do
  name=${run%%:*}; task=$(cat "$work/$name.task")
  remote=$(sed -n "s/^$task //p" <<<"$created")
  [[ -n "$remote" ]] || fail "$name: task $task was not created upstream within about a minute"
  say "$name: created upstream ($remote)"
done

kill -9 "$gateway_pid"
wait "$gateway_pid" 2>/dev/null || true
say "gateway and its worker killed with SIGKILL while the tasks ran"
start_gateway 2
say "gateway restarted (pid $gateway_pid)"

# server-everything keeps its tasks in the SDK's InMemoryTaskStore, which binds each task to the Mcp-Session-Id
# that created it (../shared/design/mcp-protocol.md 1.13). The killed worker's upstream session outlives it on the
# server, and the row holds its id, so the restarted worker asks about the task in that session.
failures=0
mid_task=0
for run in "${runs[@]}"; do
  name=${run%%:*}; pid=${run##*:}
  if ! wait "$pid"; then
    say "$name: client failed: $(cat "$work/$name.out")"; failures=$((failures + 1)); continue
  fi
  if ! grep -q "^RESULT .*${expected[$name]}" "$work/$name.out"; then
    say "$name: wrong result: $(cat "$work/$name.out")"; failures=$((failures + 1)); continue
  fi
  task=$(cat "$work/$name.task")
  generation=${name##*-}
  session=""
  if [[ "$generation" == 2025 ]]; then
    session=$(sed -n 's/^SESSION //p' "$work/$name.out")
    [[ -n "$session" ]] || { say "$name: the 2025 client named no session"; failures=$((failures + 1)); continue; }
    grep -q "result in the same session $session" "$work/$name.log" \
      || { say "$name: the 2025 client did not finish in its first session"; failures=$((failures + 1)); continue; }
    session=", same session $session"
  fi
  if ! peek=$(client peek --url "$url" --token="$BOB_TOKEN" --generation "$generation" --task-id "$task" 2>>"$work/$name.log"); then
    say "$name: bob's peek did not answer 'not found': $peek"; failures=$((failures + 1)); continue
  fi
  # whether the first gateway already stored the end: then the kill did not interrupt this task upstream
  if grep -q "task $task: .*-> completed" "$work/gateway-1.log"; then
    when="it finished upstream before the kill"
  else
    when="killed mid-task"; mid_task=$((mid_task + 1))
  fi
  say "$name: PASS, $when (same task $task$session, result '${expected[$name]}', bob: ${peek%% *})"
done
[[ $failures -eq 0 ]] || fail "$failures of ${#runs[@]} runs failed"
say "all ${#runs[@]} runs passed, $mid_task of them killed mid-task"

#!/usr/bin/env bash
# The server side of the conformance check: runs the official MCP conformance suite's server scenarios against
# `mcp-tasks gateway` (with its worker, SQLite in a temporary directory, the reference server as its upstream) and
# prints a pass/fail table.
#   conformance/server.sh [SCENARIO...]   default: the scenarios the gateway passes (see `why_not` for the rest)
# Exit 0 when every scenario run passed, 1 when one failed; skips LOUDLY (exit 0, or 3 with
# MCP_CONFORMANCE_REQUIRED=1) where Java, Node or the suite is missing. MCP_CONFORMANCE_RUNNER as for run.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
default_scenarios=(server-initialize ping tools-list dns-rebinding-protection server-sse-polling
  server-sse-multiple-streams)
# why the suite's other server scenarios are not run: they call the suite's own test tools, resources and prompts
# by their exact names on the server under test, which the gateway serves only when an upstream provides them (and
# then under its front names <server>__<tool>)
why_not="tools-call-*, resources-*, prompts-*, logging-set-level, completion-complete, elicitation-*, json-schema-2020-12"

skip() {
  local line="!!!!!!!! SKIPPED: the MCP server conformance check did not run: $1 !!!!!!!!"
  echo "$line" >&2
  echo "$line"
  if [ "${MCP_CONFORMANCE_REQUIRED:-0}" = 1 ]; then exit 3; fi
  exit 0
}

find_runner() {
  if [ -n "${MCP_CONFORMANCE_RUNNER:-}" ]; then echo "$MCP_CONFORMANCE_RUNNER"; return; fi
  local dir=$root
  while [ "$dir" != / ]; do
    if [ -x "$dir/shared/conformance/run-conformance.sh" ]; then echo "$dir/shared/conformance/run-conformance.sh"; return; fi
    dir=$(dirname "$dir")
  done
}

runner=$(find_runner)
[ -n "$runner" ] && [ -x "$runner" ] || skip "the suite's run-conformance.sh was not found (set MCP_CONFORMANCE_RUNNER)"
command -v java >/dev/null || skip "no java on PATH (mcp-tasks needs Java 17)"
"$root/bin/mcp-tasks" --version >/dev/null || { echo "server.sh: building mcp-tasks failed" >&2; exit 1; }
"$runner" list >/dev/null 2>&1 || skip "the suite could not be installed or listed"

work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-conformance-server.XXXXXX")
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null \
  || node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
wait_port() {
  for _ in $(seq 1 600); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

ref_port=$(free_port); gw_port=$(free_port)
"$root/bin/mcp-tasks" reference-server --http "$ref_port" >"$work/reference.log" 2>&1 &
pids+=($!)
wait_port "$ref_port" || { cat "$work/reference.log"; echo "server.sh: the reference server did not start" >&2; exit 1; }
cat >"$work/mcp-tasks.json" <<JSON
{ "database": { "url": "jdbc:sqlite:$work/tasks.db" },
  "mcpServers": { "reference": { "url": "http://127.0.0.1:$ref_port/mcp" } },
  "gateway": { "port": $gw_port } }
JSON
"$root/bin/mcp-tasks" --config "$work/mcp-tasks.json" gateway >"$work/gateway.log" 2>&1 &
pids+=($!)
wait_port "$gw_port" || { cat "$work/gateway.log"; echo "server.sh: the gateway did not start" >&2; exit 1; }

if [ $# -gt 0 ]; then to_run=("$@"); else to_run=("${default_scenarios[@]}"); fi
failed=0
results=()
for scenario in "${to_run[@]}"; do
  out="$work/${scenario//\//_}.out"
  if "$runner" server --url "http://127.0.0.1:$gw_port/mcp" --scenario "$scenario" >"$out" 2>&1; then
    results+=("PASS  $scenario  $(grep -Eo '[0-9]+/[0-9]+' "$out" | tail -n 1)")
  else
    results+=("FAIL  $scenario"); failed=1
    echo "---- $scenario" >&2; tail -n 40 "$out" >&2
  fi
done
echo "MCP conformance, server scenarios against mcp-tasks gateway:"
printf '  %s\n' "${results[@]}"
echo "  not run (need the suite's own tools, resources and prompts): $why_not"
exit $failed

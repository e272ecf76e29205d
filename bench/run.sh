#!/usr/bin/env bash
# The project's benchmark (issue 9): burn-down throughput of the real worker runtime against db-scheduler 16.7.1 on
# the same SQLite file and embedded PostgreSQL in one run, and submit -> claim latency with the shipped settings.
#
#   bench/run.sh [--quick] [--db sqlite|postgres|both] [--tasks N] [--latency-samples N]
#                [--scale-rows SMALL,LARGE] [--out FILE] [--dir DIR]
#
# Per database: db-scheduler (defaults, then its fastest sensible polling) and the real worker runtime (1 and 2
# workers x 8 slots, tick forced to 1 ms, then shipped settings time-boxed) burn down the same pre-inserted no-op
# tasks; claim rate with 10 k vs 1 M finished rows (--quick: 100 k); renewal CPU with 1,000 and 10,000 calls in
# flight (--quick: 1,000); submit -> claim latency on an idle worker with the shipped settings.
# Full run (10,000 tasks per burn-down): under 10 minutes on 2 cores; --quick (1,000 tasks): under 2 minutes.
# Prints a table; writes every figure, the machine and the settings to bench/target/bench-results.json (--out).
# PostgreSQL is embedded (io.zonky.test), started with fsync and synchronous_commit on.
# Exit 0: measured (figures are reported, not judged); 2: the bench could not run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
stamp="$root/bench/target/classes/dev/mcptasks/bench/BenchMain.class"

needs_build() {
  [[ -f "$stamp" && -d "$root/bench/target/lib" ]] || return 0
  [[ -n "$(find "$root" -maxdepth 1 -name pom.xml -newer "$stamp" -print -quit)" ]] && return 0
  [[ -n "$(find "$root"/*/pom.xml "$root"/*/src/main -newer "$stamp" -type f -print -quit 2>/dev/null)" ]]
}

if needs_build; then
  echo "bench: building (./mvnw -q -DskipTests package -pl bench -am)..." >&2
  ./mvnw -q -DskipTests package -pl bench -am >&2
fi

exec java -DMCP_TASKS_LOG_LEVEL="${MCP_TASKS_LOG_LEVEL:-WARN}" -Xmx1g \
  -cp "$root/bench/target/classes:$root/bench/target/lib/*" dev.mcptasks.bench.BenchMain "$@"

#!/usr/bin/env bash
# The project's benchmark (issue 9): the real worker runtime against db-scheduler 16.7.1 on the same SQLite file and
# embedded PostgreSQL in one run, judged against issue 9's goals.
#
#   bench/run.sh [--quick] [--db sqlite|postgres|both] [--tasks N] [--latency-samples N] [--work-tasks N]
#                [--sqlite-synchronous full|normal] [--scale-rows SMALL,LARGE] [--out FILE] [--dir DIR]
#                [--renewals N[,N...]] [--only PHASE[,PHASE...]] [--upstream URL]
#                (phases: burn-down, work, scale, renewals, polls, latency, gateway, purge; e.g. --only renewals
#                 --renewals 10000 --tasks 10000 measures one change's renewal cost alone)
#
# Per database:
#   burn-down     db-scheduler (defaults; its fastest polling; on PostgreSQL also two schedulers) and mcp-tasks with
#                 the shipped settings (1 and 2 workers x 32 slots, in this process, each with its own store, after
#                 one unjudged warm-up run) burn down the same N pre-inserted no-op tasks (10,000; --quick 1,000), plus
#                 one reference row with the tick forced to 1 ms; ratio of each mcp-tasks row to db-scheduler's best
#   work per task statements and transactions per finished task of each side (--work-tasks, 1,000; --quick 300):
#                 PostgreSQL pg_stat_statements + pg_stat_database + WAL position; SQLite WAL commit frames (the WAL
#                 is pinned for the run) + sqlite-jdbc's statement trace
#   claim scale   claim rate with 10 k vs 1 M finished rows (--quick: 100 k)
#   renewal CPU   1,000 and 10,000 calls in flight (--quick: 1,000)
#   purge         claim rate and submit->claim latency with and without a purge of the claim scale's large number of
#                 finished rows (1 M; --quick 100 k) running beside, in the workers' batches; the purge then runs on
#                 to its end (at most 5 min more) for its own duration and rows/s
#   latency       submit -> claim on an idle worker with the shipped settings
#   polls         1,000 and 10,000 remote tasks in flight on one worker (sizes from --renewals): transactions, CPU
#                 and heap per poll
#   gateway       a plain echo call directly, through a relay that stores nothing and through mcp-tasks gateway (its
#                 in-process worker; a separate worker): p50 added, and 16 concurrent callers' calls/s once their
#                 rate stopped rising; against the reference server in this JVM and, with --upstream URL, an MCP
#                 server of yours with an echo tool as well (e.g. npx @modelcontextprotocol/server-everything
#                 streamableHttp, then --upstream http://127.0.0.1:3001/mcp)
# A burn-down runs until done or 75 s (--quick 20 s); after 8 s (--quick 4 s) one whose rate cannot finish in
# the box stops there, as does one that finished nothing for 5 s.
# SQLite: synchronous FULL for both schedulers (--sqlite-synchronous normal: NORMAL for both).
# Target: full run within 10 minutes on 2 cores, --quick within 2 (each phase's seconds are in the JSON). Measured on
# a 2-core machine: full 3.5 min when otherwise idle, quick about 1 min, each without the gateway phase, which takes
# about 2.5 min a database with --quick (twice that with --upstream) and 4 min without.
# Prints the figures and a goals table (PASS / FAIL / NOT MEASURED); writes every figure, the goals, the machine and
# the settings to bench/target/bench-results.json (--out).
# PostgreSQL is embedded (io.zonky.test), started with fsync, synchronous_commit and full_page_writes on.
# Exit 0: measured (a FAIL is a finding, not an error); 2: the bench could not run.
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

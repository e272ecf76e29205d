#!/usr/bin/env bash
# Runs TaskLeaseLifecycleTest RUNS times in a row (default 20) in one JVM and reports each run's time.
# Usage (from the repository root): app/src/test/loop/lifecycle-loop.sh [RUNS] [BACKENDS]
#   BACKENDS: SQLITE, POSTGRES or SQLITE,POSTGRES (default).
set -euo pipefail
runs="${1:-20}"
backends="${2:-SQLITE,POSTGRES}"
class="${LOOP_TEST_CLASS:-dev.mcptasks.core.runtime.TaskLeaseLifecycleTest}"
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
./mvnw -B -q -pl app -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$cp_file"
launcher_jar="$(find "$HOME/.m2/repository/org/junit/platform/junit-platform-launcher" -name 'junit-platform-launcher-1.14.*.jar' | sort | tail -1)"
classpath="app/target/test-classes:app/target/classes:$(cat "$cp_file"):$launcher_jar"
exec java -Dmcptasks.lifecycle.backends="$backends" -cp "$classpath" app/src/test/loop/LifecycleLoop.java \
    "$class" "$runs"

#!/usr/bin/env bash
# Builds dist/target/mcp-tasks-VERSION.tar.gz, unpacks it into a temp directory and runs it as a machine without a JDK
# would: no java on PATH, no JAVA_HOME, and (when this shell may unshare a mount namespace) the system JDKs under
# /usr/lib/jvm hidden behind an empty tmpfs. Checks `--help`, `--version`, both example configurations and the demo.
#   e2e/dist-check.sh             build, then check
#   e2e/dist-check.sh --no-build  check the tarball already in dist/target
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$SECONDS

if [[ "${1:-}" != "--no-build" ]]; then
  echo "dist-check: building the distribution (./mvnw -Pdist -pl dist -am -DskipTests package)"
  build_started=$SECONDS
  ./mvnw -B -q -Pdist -pl dist -am -DskipTests package
  echo "dist-check: built in $((SECONDS - build_started)) s"
fi

tarball=$(ls dist/target/mcp-tasks-*.tar.gz)
echo "dist-check: $tarball, $(du -h "$tarball" | cut -f1)"

# The runtime must hold every module the jar needs (jdk.attach and jdk.jdi are left out on purpose: see dist/pom.xml).
if command -v jdeps >/dev/null; then
  needed=$(jdeps -q --multi-release 17 --ignore-missing-deps --print-module-deps app/target/mcp-tasks.jar | tr ',' '\n')
  bundled=$(sed -n 's:.*<dist.modules>\(.*\)</dist.modules>.*:\1:p' dist/pom.xml | tr ',' '\n')
  missing=$(comm -23 <(echo "$needed" | grep -vxE 'jdk.attach|jdk.jdi' | sort) <(echo "$bundled" | sort))
  [[ -z "$missing" ]] || { echo "dist-check: FAIL: jdeps finds modules the runtime lacks: $missing" >&2; exit 1; }
  echo "dist-check: jdeps: every module the jar needs is bundled"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
home=$(echo "$work"/mcp-tasks-*)
[[ -x "$home/bin/mcp-tasks" && -x "$home/runtime/bin/java" && -x "$home/runtime/lib/jspawnhelper" ]] \
  || { echo "dist-check: FAIL: launcher, runtime java or jspawnhelper missing or not executable" >&2; exit 1; }

# A PATH with a few tools and no java.
tools="$work/tools"
mkdir -p "$tools" "$work/run"
# the launcher needs sh, readlink and dirname; the checks below the rest
for tool in sh readlink dirname grep wc ls head tail cat date; do ln -s "$(command -v "$tool")" "$tools/$tool"; done
if PATH="$tools" command -v java >/dev/null; then echo "dist-check: FAIL: java still on PATH" >&2; exit 1; fi
ln -s "$home/bin/mcp-tasks" "$tools/mcp-tasks"   # run through a symlink, as /usr/local/bin/mcp-tasks would be

cat > "$work/checks.sh" <<'CHECKS'
set -eu
cd "$RUN"
step() { echo "dist-check: $*"; }
expect() {  # expect EXIT_CODE COMMAND...: runs the command, fails unless it exits with EXIT_CODE
  want=$1; shift
  set +e; "$@" > out.txt 2>&1; got=$?; set -e
  if [ "$got" != "$want" ]; then cat out.txt; echo "dist-check: FAIL: '$*' exited $got, expected $want" >&2; exit 1; fi
}
step "java on PATH: $(command -v java || echo none); JAVA_HOME=${JAVA_HOME:-unset}; /usr/lib/jvm: $(ls /usr/lib/jvm 2>/dev/null | wc -l) entries"
expect 0 mcp-tasks --help; grep -q 'Commands:' out.txt
expect 0 mcp-tasks --version
step "--help and --version exit 0"
RESEARCH_API_TOKEN=x LOCAL_TOKEN=y expect 0 mcp-tasks --config "$HOME_DIR/examples/sqlite.json" list
step "examples/sqlite.json: 'list' exit 0"
# the configuration is accepted (2 would be a configuration error); the example's database host does not exist: 5
MCP_TASKS_DB_PASSWORD=db-password-dummy RESEARCH_API_TOKEN=research-token-dummy MCP_TASKS_WEBHOOK_SECRET=a-webhook-secret-of-32-characters \
  GATEWAY_TOKEN_ALICE=alice-token-0123456789 GATEWAY_TOKEN_CI=ci-token-0123456789ab \
  expect 5 mcp-tasks --config "$HOME_DIR/examples/postgres-gateway.json" list
grep -q 'cannot open the store' out.txt
step "examples/postgres-gateway.json: accepted, store unreachable as expected (exit 5: $(head -c 160 out.txt))"
demo_started=$(date +%s)
if ! mcp-tasks demo > demo.txt 2>&1; then tail -40 demo.txt; echo "dist-check: FAIL: demo" >&2; exit 1; fi
tail -12 demo.txt
step "demo exit 0 in $(( $(date +%s) - demo_started )) s"
CHECKS

run_checks=(env -i "PATH=$tools" "HOME=$work/run" "RUN=$work/run" "HOME_DIR=$home" sh "$work/checks.sh")
if unshare -m true 2>/dev/null && [[ -d /usr/lib/jvm ]]; then
  # hide every system JDK: the distribution must not reach for one
  unshare -m sh -c 'mount -t tmpfs none /usr/lib/jvm && exec "$@"' sh "${run_checks[@]}"
else
  echo "dist-check: cannot unshare a mount namespace here; system JDKs stay visible (java is still off PATH)"
  "${run_checks[@]}"
fi
echo "dist-check: OK in $((SECONDS - started)) s"

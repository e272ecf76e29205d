#!/usr/bin/env bash
# The dashboard in a real browser (about 90 s on two cores: building app and the modules it needs, then about 45 s of
# test). Debian's headless Chromium and chromedriver, installed with apt-get when missing (a failed install fails this
# script: it never skips), drive the dashboard of the production assembly with Selenium: DashboardBrowserTest (app,
# JUnit tag "browser", run only with -Pbrowser) signs in, loads the task list, filters it, opens a task, cancels it
# and sees it cancelled, visits the other pages (the servers page while upstream requests go on, until its latency
# chart has points), and saves a screenshot of each page in app/target/screenshots.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if ((${#missing[@]})); then
  echo "dashboard-check: installing ${missing[*]} with apt-get"
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    sudo=(sudo)
  fi
  if ! { "${sudo[@]}" apt-get update -qq \
         && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium chromium-driver; }; then
    echo "dashboard-check: cannot install chromium and chromium-driver with apt-get; the browser test cannot run" >&2
    exit 2
  fi
fi
CHROMIUM="$(command -v chromium)"
CHROMEDRIVER="$(command -v chromedriver)"
export CHROMIUM CHROMEDRIVER
echo "dashboard-check: $("$CHROMIUM" --version 2>/dev/null), $("$CHROMEDRIVER" --version | cut -d' ' -f1-2)"

start=$SECONDS
rm -rf app/target/screenshots
./mvnw -B -q -pl app -am verify -Pbrowser -Dtest=DashboardBrowserTest -Dsurefire.failIfNoSpecifiedTests=false

# the test must have run, and passed: a filter that matched nothing would pass silently
report=app/target/surefire-reports/TEST-dev.mcptasks.app.e2e.DashboardBrowserTest.xml
if [[ ! -f "$report" ]] || ! grep -q 'tests="1" errors="0" skipped="0" failures="0"' "$report"; then
  echo "dashboard-check: DashboardBrowserTest did not run and pass (see $report)" >&2
  exit 1
fi
shots=$(find app/target/screenshots -name '*.png' | wc -l)
if ((shots < 9)); then
  echo "dashboard-check: expected 9 screenshots in app/target/screenshots, found $shots" >&2
  exit 1
fi
echo "dashboard-check: passed in $((SECONDS - start)) s; $shots screenshots in app/target/screenshots"

#!/usr/bin/env bash
# Builds the container image (deploy/image/build.sh) and tests it. Containers cannot run on every machine (on this
# project's: cgroups in hybrid mode, which podman's crun refuses), so the image's own root file system is run
# directly: its entry point and default command, read from the OCI image config, in new PID and mount namespaces
# with the root file system as / and uid/gid 10001 (util-linux unshare). Checks: the config (user, entry point,
# command, working directory); `--help`; the default command `serve` as uid 10001 on a SQLite file in /data,
# seen by `workers`, drained by SIGTERM with exit 0; the demo; deploy/ (deploy/validate.py, and the deployment
# configuration read by the image's mcp-tasks). Then tries `podman run` and reports what happened.
#   e2e/image-check.sh              builds the tarball first if dist/target has none
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$SECONDS
uid=10001
fail() { echo "image-check: FAIL: $*" >&2; exit 1; }

if ! ls dist/target/mcp-tasks-*.tar.gz >/dev/null 2>&1; then
  echo "image-check: no distribution yet: ./mvnw -Pdist -pl dist -am -DskipTests package"
  ./mvnw -B -q -Pdist -pl dist -am -DskipTests package
fi
# what it needs from Debian's packages, installed when missing (apt-get update first: a fresh machine has no lists,
# and build.sh's apt-get download needs them too): buildah, and PyYAML for deploy/validate.py
missing=()
command -v buildah >/dev/null || missing+=(buildah)
python3 -c 'import yaml' 2>/dev/null || missing+=(python3-yaml)
if ((${#missing[@]})) || ! apt-cache show libc6 >/dev/null 2>&1; then
  echo "image-check: installing ${missing[*]:-nothing} with apt-get (after apt-get update)"
  apt-get update -qq
  if ((${#missing[@]})); then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
deploy/image/build.sh
rootfs="$root/dist/target/image/rootfs"
archive=$(ls dist/target/image/mcp-tasks-*.oci.tar)

# The image config, as a runtime would read it: index.json -> manifest -> config.
config=$(python3 - "$archive" <<'PY'
import json, sys, tarfile
with tarfile.open(sys.argv[1]) as t:
    blob = lambda d: json.load(t.extractfile("blobs/" + d.replace(":", "/")))
    manifest = blob(json.load(t.extractfile("index.json"))["manifests"][0]["digest"])
    print(json.dumps(blob(manifest["config"]["digest"])["config"]))
PY
)
field() { python3 -c 'import json,sys; c=json.loads(sys.argv[1]); v=c.get(sys.argv[2]); print(json.dumps(v) if isinstance(v, list) else v)' "$config" "$1"; }
[[ "$(field User)" == "$uid:$uid" ]] || fail "image user is $(field User)"
[[ "$(field Cmd)" == '["serve"]' ]] || fail "default command is $(field Cmd)"
[[ "$(field WorkingDir)" == /data ]] || fail "working directory is $(field WorkingDir)"
mapfile -t entrypoint < <(python3 -c 'import json,sys; print("\n".join(json.loads(sys.argv[1])["Entrypoint"]))' "$config")
echo "image-check: config: user $(field User), entry point ${entrypoint[*]}, command $(field Cmd), workdir /data"

# in_image CMD...: runs CMD as the image would, as uid 10001 in its own root file system (host network)
in_image() {
  env -i PATH=/opt/mcp-tasks/bin:/usr/bin HOME=/data \
    unshare --fork --pid --mount-proc=/proc --root="$rootfs" --wd=/data --setuid $uid --setgid $uid "$@"
}
rm -rf "${rootfs:?}"/data/* "$rootfs"/tmp/*

in_image "${entrypoint[@]}" --help > /tmp/image-check-help.txt || fail "--help: $(cat /tmp/image-check-help.txt)"
grep -q Commands: /tmp/image-check-help.txt || fail "--help printed no command list"
echo "image-check: entry point --help exit 0 as uid $uid"

# The default command: a worker on /data/mcp-tasks.db (no servers configured), until SIGTERM.
in_image "${entrypoint[@]}" serve > /tmp/image-check-serve.txt 2>&1 &
serve=$!
for _ in $(seq 1 60); do
  in_image "${entrypoint[@]}" workers 2>/dev/null | grep -q . && [[ -f "$rootfs/data/mcp-tasks.db" ]] && break
  sleep 1
done
in_image "${entrypoint[@]}" workers | tee /tmp/image-check-workers.txt
grep -q ' live ' /tmp/image-check-workers.txt || fail "serve registered no worker"
owner=$(stat -c %u "$rootfs/data/mcp-tasks.db")
[[ "$owner" == "$uid" ]] || fail "the store was written by uid $owner"
java_pid=$(pgrep -f "^/opt/mcp-tasks/runtime/bin/java -jar /opt/mcp-tasks/lib/mcp-tasks.jar serve" | head -1)
[[ -n "$java_pid" ]] && echo "image-check: serve runs as uid $(awk '/^Uid:/{print $2}' /proc/"$java_pid"/status), store file owned by uid $owner"
kill -TERM "$java_pid"
wait "$serve" || fail "serve exited $? on SIGTERM: $(tail -5 /tmp/image-check-serve.txt)"
echo "image-check: serve drained on SIGTERM, exit 0"

demo_started=$SECONDS
in_image "${entrypoint[@]}" demo > /tmp/image-check-demo.txt 2>&1 || { tail -30 /tmp/image-check-demo.txt; fail "demo"; }
grep '\[ok\]' /tmp/image-check-demo.txt
echo "image-check: demo exit 0 as uid $uid in $((SECONDS - demo_started)) s"

# deploy/: YAML parses and holds together; the deployment configuration is accepted by the image's mcp-tasks (exit 5:
# the store `postgres` does not resolve here; 2 would be a configuration error)
python3 deploy/validate.py
secrets=(MCP_TASKS_DB_PASSWORD=db-password-dummy RESEARCH_API_TOKEN=research-token-dummy
  GATEWAY_TOKEN_ALICE=alice-token-0123456789 MCP_TASKS_ADMIN_TOKEN=admin-token-0123456789)
mkdir -p "$rootfs/etc/mcp-tasks" && cp deploy/config/mcp-tasks.json "$rootfs/etc/mcp-tasks/"
set +e
env "${secrets[@]}" MCP_TASKS_CONFIG=/etc/mcp-tasks/mcp-tasks.json \
  unshare --fork --pid --mount-proc=/proc --root="$rootfs" --wd=/data --setuid $uid --setgid $uid \
  "${entrypoint[@]}" list > /tmp/image-check-config.txt 2>&1
code=$?; set -e
[[ $code == 5 ]] || fail "deploy/config/mcp-tasks.json: exit $code: $(cat /tmp/image-check-config.txt)"
echo "image-check: deploy/config/mcp-tasks.json accepted ($(head -c 100 /tmp/image-check-config.txt))"
rm -rf "$rootfs/etc/mcp-tasks"

if command -v podman >/dev/null; then
  if out=$(STORAGE_DRIVER=vfs timeout 120 podman run --rm --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 "oci-archive:$root/$archive" --help 2>&1); then
    echo "image-check: podman run --help: exit 0"
  else
    echo "image-check: podman cannot run containers on this machine: $(echo "$out" | tail -1)"
  fi
fi
echo "image-check: OK in $((SECONDS - started)) s (rootfs $(du -sh "$rootfs" | cut -f1), $archive $(du -h "$archive" | cut -f1), gzipped layer ~$(tar -C "$rootfs" -cf - . | gzip -1 | wc -c | numfmt --to=iec))"

#!/usr/bin/env bash
# Builds the mcp-tasks container image without any registry but Debian's: a root file system holding only the
# distribution (jlink'd runtime, jar) and the four Debian packages its native code links against (libc6, libgcc-s1,
# libstdc++6, zlib1g, unpacked with dpkg-deb: no shell, no package manager, no maintainer scripts), then an OCI image
# committed from it with buildah from scratch.
#   deploy/image/build.sh [TARBALL]   default: dist/target/mcp-tasks-*.tar.gz (build it with -Pdist)
# Writes dist/target/image/rootfs/ and dist/target/image/mcp-tasks-VERSION.oci.tar (an OCI archive: load it with
# `podman load -i`, `skopeo copy oci-archive:... docker://REGISTRY/...`, or `docker load` after a skopeo copy to
# docker-archive). Without buildah only the root file system is written.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tarball="${1:-$(ls "$root"/dist/target/mcp-tasks-*.tar.gz 2>/dev/null | head -1)}"
[[ -f "$tarball" ]] || { echo "image: no distribution tarball; build it: ./mvnw -Pdist -pl dist -am -DskipTests package" >&2; exit 2; }
version=$(basename "$tarball" .tar.gz); version=${version#mcp-tasks-}
out="$root/dist/target/image"
rootfs="$out/rootfs"
uid=10001

rm -rf "$rootfs" && mkdir -p "$rootfs" "$out/debs"

# The runtime's own libraries need only these (ldd of bin/java, libjvm and the non-GUI lib/*.so); AWT's X11 libraries
# are left out: nothing headless loads them.
(cd "$out/debs" && apt-get -o APT::Sandbox::User=root download libc6 libgcc-s1 libstdc++6 zlib1g >/dev/null)
for deb in "$out"/debs/*.deb; do dpkg-deb -x "$deb" "$rootfs"; done
rm -rf "$rootfs"/usr/share/{doc,lintian,locale,man,gcc,gdb} "$rootfs"/usr/lib/x86_64-linux-gnu/gconv
# Debian's merged /usr: /lib64/ld-linux-x86-64.so.2 is the interpreter every binary names
for dir in bin lib lib64 sbin; do [[ -e "$rootfs/$dir" ]] || ln -s "usr/$dir" "$rootfs/$dir"; done

mkdir -p "$rootfs/opt" "$rootfs/etc" "$rootfs/tmp" "$rootfs/data" "$rootfs/proc" "$rootfs/dev" "$rootfs/sys"
tar -xzf "$tarball" -C "$rootfs/opt"
mv "$rootfs/opt/mcp-tasks-$version" "$rootfs/opt/mcp-tasks"
chmod 1777 "$rootfs/tmp"
cat > "$rootfs/etc/passwd" <<PASSWD
root:x:0:0:root:/root:/sbin/nologin
mcp-tasks:x:$uid:$uid:mcp-tasks:/data:/sbin/nologin
PASSWD
cat > "$rootfs/etc/group" <<GROUP
root:x:0:
mcp-tasks:x:$uid:
GROUP
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
# /data is the working directory: mcp-tasks.json is looked for there, and a SQLite file may live there (a volume)
chown "$uid:$uid" "$rootfs/data"
echo "image: root file system $rootfs ($(du -sh "$rootfs" | cut -f1))"

if ! command -v buildah >/dev/null; then
  echo "image: buildah not found (apt-get install buildah): root file system only"
  exit 0
fi
export STORAGE_DRIVER="${STORAGE_DRIVER:-vfs}"   # vfs needs no overlay or fuse support from the host
container=$(buildah from scratch)
trap 'buildah rm "$container" >/dev/null 2>&1 || true' EXIT
buildah copy --quiet "$container" "$rootfs" / >/dev/null
# The entry point is the launcher's exec line without a shell: the image has none. JVM options: JAVA_TOOL_OPTIONS.
buildah config \
  --user "$uid:$uid" --workingdir /data \
  --entrypoint '["/opt/mcp-tasks/runtime/bin/java", "-jar", "/opt/mcp-tasks/lib/mcp-tasks.jar"]' \
  --cmd serve \
  --env PATH=/opt/mcp-tasks/bin:/usr/bin \
  --port 8765 \
  --label org.opencontainers.image.title=mcp-tasks \
  --label "org.opencontainers.image.version=$version" \
  --label org.opencontainers.image.description="Runs long MCP tool calls as durable, leased tasks" \
  "$container"
rm -f "$out/mcp-tasks-$version.oci.tar"
buildah commit --quiet --format oci "$container" "oci-archive:$out/mcp-tasks-$version.oci.tar:mcp-tasks:$version" >/dev/null
echo "image: $out/mcp-tasks-$version.oci.tar ($(du -h "$out/mcp-tasks-$version.oci.tar" | cut -f1), tag mcp-tasks:$version)"

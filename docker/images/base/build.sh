#!/usr/bin/env bash
# The testbed's base image, made without any registry: a Debian bookworm root file system from debootstrap, with
# a JRE and the tools the testbed's faults and healthchecks use, imported as zkion/base:bookworm-jre17.
#   docker/images/base/build.sh [image-name]
# Needs root (debootstrap) and the Debian mirror that apt already uses. About 3 minutes on 2 cores.
set -euo pipefail
name="${1:-zkion/base:bookworm-jre17}"
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
mirror="${mirror:-$(sed -n 's/^deb \(http[^ ]*debian\) bookworm main.*/\1/p' /etc/apt/sources.list 2>/dev/null | head -1)}"
mirror="${mirror:-http://deb.debian.org/debian}"
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
root=$(mktemp -d /tmp/zkion-base.XXXXXX)
trap 'rm -rf "$root"' EXIT
# iptables and iproute2: the testbed's cut faults run them inside a node's network namespace (docker/testbed).
debootstrap --variant=minbase \
  --include=openjdk-17-jre-headless,netcat-openbsd,iproute2,iptables,procps \
  bookworm "$root" "$mirror" >"$root.log" 2>&1 || { tail -20 "$root.log" >&2; exit 1; }
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | docker import -c 'ENV LANG=C.UTF-8' - "$name" >/dev/null
rm -f "$root.log"
echo "base image: $name ($(docker image inspect -f '{{.Size}}' "$name" | awk '{printf "%.0f MB", $1/1e6}'))"

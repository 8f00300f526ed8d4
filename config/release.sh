#!/usr/bin/env bash
# Builds the release jars of one named commit, with their SHA-256 checksums:
#   config/release.sh <commit> [out-dir]        (out-dir: target/release/<version>)
# The commit is exported with git archive (nothing of the work tree goes in) and packaged by Maven without tests
# (CI tested the commit). Out come the plugin jar of each Ignite line (the -all jar, Curator, ZooKeeper's client and
# ion-java relocated inside), SHA256SUMS, and BUILD.txt naming the commit. README's release table names commits.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
commit="${1:?usage: config/release.sh <commit> [out-dir]}"
sha=$(git -C "$here" rev-parse --verify --quiet "$commit^{commit}") || {
  echo "release: no commit '$commit' in $here (a shallow clone? git fetch --unshallow)" >&2; exit 2; }
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git -C "$here" archive "$sha" | tar -x -C "$src"
# The project's own version: the first <version> of the top pom, after its artifactId.
version=$(sed -n '/<artifactId>zkion-parent<\/artifactId>/,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$src/pom.xml" | head -1)
[ -n "$version" ] || { echo "release: no version in $sha's pom.xml" >&2; exit 2; }
out="${2:-$here/target/release/$version}"
echo "release: building $version from $sha in $src"
(cd "$src" && mvn -B -q -DskipTests package -pl modules/spi,modules/spi-ignite-2.18 -am) >&2
mkdir -p "$out"
cp "$src/modules/spi/target/zkion-discovery-$version-all.jar" "$out/zkion-discovery-$version-ignite-2.17-all.jar"
cp "$src/modules/spi-ignite-2.18/target/"zkion-discovery-ignite-2.18-"$version"-all.jar "$out/zkion-discovery-$version-ignite-2.18-all.jar"
(cd "$out" && sha256sum ./*.jar | sed 's: \./: :' > SHA256SUMS)
printf 'release %s\ncommit %s\nbuilt %s with %s\n' "$version" "$sha" "$(date -u +%FT%TZ)" "$(java -version 2>&1 | head -1)" > "$out/BUILD.txt"
echo "release: $out"
ls -l "$out"

#!/usr/bin/env bash
# zkion-cli: the live discovery state of a ZkIon cluster, read from ZooKeeper with the -all jar alone.
#   config/zkion-cli.sh status --zk host:2181 --root /apacheIgnite     exit 0 healthy, 1 unhealthy, 2 no cluster
#   config/zkion-cli.sh dump   --zk host:2181 --root /apacheIgnite [--json]
#   config/zkion-cli.sh --help
# The jar: $ZKION_JAR, else the one this checkout built (mvn -B package -pl modules/spi -am -DskipTests).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
jar="${ZKION_JAR:-$(ls "$here"/modules/spi/target/zkion-discovery-*-all.jar 2>/dev/null | head -1)}"
if [ -z "$jar" ] || [ ! -f "$jar" ]; then
  echo "zkion-cli: no zkion-discovery-*-all.jar; build it (mvn -B package -pl modules/spi -am -DskipTests) or set ZKION_JAR" >&2
  exit 2
fi
# slf4j has no binding in the jar (an application brings its own): drop its start-up notice, keep every other line.
exec java -cp "$jar" io.zkion.discovery.tools.ZkIonCli "$@" 2> >(grep -v '^SLF4J:' >&2)

#!/usr/bin/env bash
# zkion-cli: the live discovery state of a ZkIon cluster, read from ZooKeeper with the -all jar alone.
#   config/zkion-cli.sh status --zk host:2181 --root /apacheIgnite [--expect-servers N] [--json]
#   config/zkion-cli.sh dump   --zk host:2181 --root /apacheIgnite [--json]
#   config/zkion-cli.sh --help | --version
# Exit codes: 0 healthy, 1 unhealthy, 2 no cluster under the root, 3 ZooKeeper unreachable, 4 authentication refused,
# 5 another error, 64 usage. JAVA_OPTS reaches the JVM: ZooKeeper's client TLS and SASL settings go there, e.g.
#   JAVA_OPTS="-Dzookeeper.client.secure=true -Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty
#     -Dzookeeper.ssl.trustStore.location=/etc/zk/trust.jks -Dzookeeper.ssl.trustStore.password=..."
# The jar: $ZKION_JAR, else the one this checkout built (mvn -B package -pl modules/spi -am -DskipTests).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
jar="${ZKION_JAR:-$(ls "$here"/modules/spi/target/zkion-discovery-*-all.jar 2>/dev/null | head -1)}"
if [ -z "$jar" ] || [ ! -f "$jar" ]; then
  echo "zkion-cli: no zkion-discovery-*-all.jar; build it (mvn -B package -pl modules/spi -am -DskipTests) or set ZKION_JAR" >&2
  exit 5
fi
# slf4j has no binding in the jar (an application brings its own): drop its start-up notice, keep every other line.
# shellcheck disable=SC2086 # JAVA_OPTS holds several options, split on purpose.
exec java ${JAVA_OPTS:-} -cp "$jar" io.zkion.discovery.tools.ZkIonCli "$@" 2> >(grep -v '^SLF4J:' >&2)

#!/usr/bin/env bash
# The twin of docker/docker-compose.yml as local processes, for machines without a Docker engine:
# a ZooKeeper ensemble of three (QuorumPeerMain on loopback) and three Ignite servers on ZkIonDiscoverySpi,
# started from config/zkion-server.xml like the containers.
#   docker/local-twin.sh up      build if needed, start everything, wait until the cluster has 3 servers
#   docker/local-twin.sh check   print zkion-cli status and fail unless the cluster is healthy with 3 servers
#   docker/local-twin.sh down    stop everything
set -euo pipefail
cd "$(dirname "$0")/.."
dir=docker/.twin
zk_connect=127.0.0.1:21811,127.0.0.1:21812,127.0.0.1:21813
root=/zkion-testbed

classpath() {
  # Tests hand over their own class path, so that no build runs inside a build.
  if [ -n "${ZKION_TWIN_CLASSPATH:-}" ]; then echo "$ZKION_TWIN_CLASSPATH"; return; fi
  if [ ! -s "$dir/classpath" ]; then
    mkdir -p "$dir"
    mvn -B -q -Dstyle.color=never -DskipTests -pl examples -am install >&2
    mvn -B -q -Dstyle.color=never -pl examples dependency:build-classpath \
      -Dmdep.outputFile="$PWD/$dir/classpath" -Dmdep.includeScope=runtime >&2
  fi
  echo "examples/target/classes:$(cat "$dir/classpath")"
}

zk_ready() { # srvr answers only when the server serves (ruok says imok even when it does not)
  exec 3<>"/dev/tcp/127.0.0.1/$1" 2>/dev/null || return 1
  printf 'srvr' >&3; local out; out=$(cat <&3 2>/dev/null || true); exec 3<&-
  case "$out" in *Mode:*) return 0 ;; *) return 1 ;; esac
}

up() {
  local cp; cp=$(classpath)
  mkdir -p "$dir"
  for i in 1 2 3; do
    mkdir -p "$dir/zk$i"
    echo "$i" > "$dir/zk$i/myid"
    cat > "$dir/zk$i/zoo.cfg" <<CFG
tickTime=1000
initLimit=10
syncLimit=5
dataDir=$PWD/$dir/zk$i
clientPort=2181$i
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok
server.1=127.0.0.1:28881:38881
server.2=127.0.0.1:28882:38882
server.3=127.0.0.1:28883:38883
CFG
    java -Xmx256m -Djute.maxbuffer=1048575 -cp "$cp" org.apache.zookeeper.server.quorum.QuorumPeerMain \
      "$dir/zk$i/zoo.cfg" > "$dir/zk$i.log" 2>&1 &
    echo $! > "$dir/zk$i.pid"
  done
  for i in 1 2 3; do
    for _ in $(seq 1 120); do zk_ready "2181$i" && break; sleep 0.5; done
    zk_ready "2181$i" || { echo "ZooKeeper $i did not come up; see $dir/zk$i.log" >&2; exit 1; }
  done
  echo "ZooKeeper ensemble up: $zk_connect"
  for i in 1 2 3; do
    java -Xms256m -Xmx512m $(config/jvm-opens.sh) -Djava.net.preferIPv4Stack=true -DIGNITE_QUIET=true \
      -DIGNITE_UPDATE_NOTIFIER=false -Dzkion.zk="$zk_connect" -Dzkion.root="$root" -Dzkion.name="ignite$i" \
      -Dzkion.sessionTimeout=20000 \
      -cp "$cp" org.apache.ignite.startup.cmdline.CommandLineStartup config/zkion-server.xml \
      > "$dir/ignite$i.log" 2>&1 &
    echo $! > "$dir/ignite$i.pid"
  done
  for _ in $(seq 1 180); do
    if check quiet; then echo "Cluster up: 3 Ignite servers on ZkIonDiscoverySpi"; return 0; fi
    sleep 1
  done
  echo "The cluster did not form; see $dir/*.log" >&2
  exit 1
}

check() {
  local cp; cp=$(classpath)
  # The operator's check: zkion-cli status exits 0 only when healthy, here with the three servers in.
  local out rc=0
  out=$(java -cp "$cp" io.zkion.discovery.tools.ZkIonCli status --zk "$zk_connect" --root "$root" --expect-servers 3 2>&1) || rc=$?
  [ "${1:-}" = quiet ] || echo "$out"
  return "$rc"
}

down() {
  for f in "$dir"/ignite*.pid "$dir"/zk*.pid; do
    [ -f "$f" ] || continue
    kill "$(cat "$f")" 2>/dev/null || true
    rm -f "$f"
  done
  sleep 1
  rm -rf "$dir"/zk? "$dir"/*.log
  echo "Twin stopped"
}

case "${1:-}" in
  up) up ;;
  check) check ;;
  down) down ;;
  *) echo "usage: docker/local-twin.sh up|check|down" >&2; exit 2 ;;
esac

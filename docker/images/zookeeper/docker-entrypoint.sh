#!/bin/bash
# Writes zoo.cfg and myid from the ZOO_* variables unless they exist (a mounted /conf wins), then runs the
# server in the foreground. The variables and their defaults are the official image's.
set -e
cfg="$ZOO_CONF_DIR/zoo.cfg"
if [ ! -f "$cfg" ]; then
  {
    echo "dataDir=$ZOO_DATA_DIR"
    echo "dataLogDir=$ZOO_DATA_LOG_DIR"
    echo "tickTime=$ZOO_TICK_TIME"
    echo "initLimit=$ZOO_INIT_LIMIT"
    echo "syncLimit=$ZOO_SYNC_LIMIT"
    echo "autopurge.snapRetainCount=$ZOO_AUTOPURGE_SNAPRETAINCOUNT"
    echo "autopurge.purgeInterval=$ZOO_AUTOPURGE_PURGEINTERVAL"
    echo "maxClientCnxns=$ZOO_MAX_CLIENT_CNXNS"
    echo "standaloneEnabled=$ZOO_STANDALONE_ENABLED"
    echo "admin.enableServer=$ZOO_ADMINSERVER_ENABLED"
    [ -n "$ZOO_4LW_COMMANDS_WHITELIST" ] && echo "4lw.commands.whitelist=$ZOO_4LW_COMMANDS_WHITELIST"
    # ZOO_CFG_EXTRA: more key=value settings, separated by spaces.
    for setting in $ZOO_CFG_EXTRA; do echo "$setting"; done
    if [ -z "$ZOO_SERVERS" ]; then
      echo "server.1=localhost:2888:3888;2181"
    else
      for server in $ZOO_SERVERS; do echo "$server"; done
    fi
  } > "$cfg"
fi
if [ ! -f "$ZOO_DATA_DIR/myid" ]; then
  echo "${ZOO_MY_ID:-1}" > "$ZOO_DATA_DIR/myid"
fi
if [ "$1" = "zkServer" ] || [ "$1" = "zkServer.sh" ]; then
  # shellcheck disable=SC2086 # JVMFLAGS and SERVER_JVMFLAGS hold several options, split on purpose.
  exec java -Dzookeeper.log.dir="$ZOO_LOG_DIR" -Dlogback.configurationFile=/apache-zookeeper/conf/logback.xml \
    ${JVMFLAGS:-} ${SERVER_JVMFLAGS:-} -cp "/apache-zookeeper/lib/*:$ZOO_CONF_DIR" \
    org.apache.zookeeper.server.quorum.QuorumPeerMain "$cfg"
fi
exec "$@"

#!/bin/bash
# Starts one Ignite node in the foreground: libs/*, every folder of libs/ but optional/ (user_libs among them),
# the JDK 17 --add-opens flags Ignite needs, then JVM_OPTS.
set -e
cp="$IGNITE_HOME/libs/*"
for dir in "$IGNITE_HOME"/libs/*/; do
  case "$(basename "$dir")" in optional) ;; *) cp="$cp:${dir}*" ;; esac
done
# shellcheck disable=SC2046,SC2086 # the flag list and JVM_OPTS hold several options, split on purpose.
exec java $(cat "$IGNITE_HOME/bin/jvm-opens") ${JVM_OPTS:-} \
  -DIGNITE_HOME="$IGNITE_HOME" -DIGNITE_QUIET="${IGNITE_QUIET:-true}" \
  -DIGNITE_UPDATE_NOTIFIER=false -Dlog4j.configurationFile="$IGNITE_HOME/config/ignite-log4j2.xml" \
  -cp "$cp" org.apache.ignite.startup.cmdline.CommandLineStartup "$@"

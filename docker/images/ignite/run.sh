#!/bin/bash
# The container's start: OPTION_LIBS (comma-separated folders of libs/optional) join the class path, then the node
# starts from CONFIG_URI, else from config/default-config.xml.
set -e
for lib in ${OPTION_LIBS//,/ }; do
  if [ -d "$IGNITE_HOME/libs/optional/$lib" ]; then
    cp -r "$IGNITE_HOME/libs/optional/$lib" "$IGNITE_HOME/libs/"
  else
    echo "run.sh: no optional module '$lib' in this image (has: $(ls "$IGNITE_HOME/libs/optional" | tr '\n' ' '))" >&2
  fi
done
exec "$IGNITE_HOME/bin/ignite.sh" "${CONFIG_URI:-$IGNITE_HOME/config/default-config.xml}"

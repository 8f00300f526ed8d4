#!/usr/bin/env bash
# Prints the JDK 17 --add-opens flags Ignite needs. The one list lives in the root pom.xml
# (property zkion.jvm.opens, also the surefire argLine); scripts read it from there.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sed -n 's:.*<zkion.jvm.opens>\(.*\)</zkion.jvm.opens>.*:\1:p' "$here/pom.xml"

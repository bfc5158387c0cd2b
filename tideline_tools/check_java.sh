#!/usr/bin/env bash
# Stop at once, with a way out, when Java 17 or newer is not available (Spark 3.5 needs it here).
set -u
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
how="Install Java 17 or newer, for example: 'sudo apt-get install -y openjdk-17-jre-headless' (Debian/Ubuntu), 'brew install openjdk@17' (macOS), or set JAVA_HOME to a JDK 17+."
if ! command -v "$java_bin" >/dev/null 2>&1; then
  echo "tideline: Java was not found. $how" >&2
  exit 1
fi
version=$("$java_bin" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
major=${version%%.*}
if [ "$major" = "1" ]; then major=$(echo "$version" | cut -d. -f2); fi
case "$major" in ''|*[!0-9]*) major=0 ;; esac
if [ "$major" -lt 17 ]; then
  echo "tideline: Java ${version:-of unknown version} is too old; Spark needs 17 or newer. $how" >&2
  exit 1
fi

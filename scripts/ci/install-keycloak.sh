#!/usr/bin/env bash
# Installs the Keycloak server that the identity provider contract suite runs against
# (services/identity/test/identity-provider.contract.test.ts), on a machine that reaches
# package registries only: the Quarkus distribution is a zip on Maven Central, fetched
# with mvn.
#
# Keycloak 26.7.3, the newest release. It supports OpenJDK 17, 21 and 25 and starts on
# either JDK of this machine kind (Debian's OpenJDK 17 and the Temurin 25 beside it);
# we prefer the newest JDK found because Keycloak recommends 25 and because JDK 25 can
# record an ahead-of-time class cache (JEP 514) that makes every later start faster.
#
# Besides unpacking, a first install starts the server once (scripts/ci/start-keycloak.sh)
# and stops it again. That run does the slow one-time work every start-dev would
# otherwise repeat: Quarkus re-augmentation for the dev profile (kept in the install),
# the empty database with the master realm (kept as a template that each start copies),
# and, on JDK 25+, the class cache.
#
# Idempotent: a finished install (stamp file) is left alone, so a second run takes a
# moment. stdout carries only `export NAME=value` lines (progress goes to stderr):
#   eval "$(bash scripts/ci/install-keycloak.sh)"
#
# Overrides: KEYCLOAK_CACHE (default /opt/ci-cache/keycloak), KEYCLOAK_JAVA_HOME (the JDK).
set -euo pipefail

KEYCLOAK_VERSION=26.7.3
CACHE="${KEYCLOAK_CACHE:-/opt/ci-cache/keycloak}"
HOME_DIR="$CACHE/keycloak-$KEYCLOAK_VERSION"
STAMP="$HOME_DIR/.ci-install-complete"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf '[install-keycloak] %s\n' "$*" >&2; }

# java_major JAVA_HOME: the feature version (17, 21, 25) of that JDK, or nothing.
java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 |
    awk -F' = ' '$1 ~ /java\.specification\.version$/ { print $2; exit }'
}

# The newest JDK of at least 17 (Keycloak 26's floor): KEYCLOAK_JAVA_HOME when set,
# else JAVA_HOME, the JDKs under /usr/lib/jvm and the java on PATH.
pick_java_home() {
  if [[ -n "${KEYCLOAK_JAVA_HOME:-}" ]]; then
    printf '%s\n' "$KEYCLOAK_JAVA_HOME"
    return
  fi
  local candidates=() best="" best_major=0 dir major
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME")
  for dir in /usr/lib/jvm/*; do [[ -L "$dir" ]] || candidates+=("$dir"); done
  command -v java >/dev/null 2>&1 && candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  for dir in "${candidates[@]}"; do
    [[ -x "$dir/bin/java" ]] || continue
    major="$(java_major "$dir")"
    [[ "$major" =~ ^[0-9]+$ ]] || continue
    if ((major >= 17 && major > best_major)); then best="$dir" best_major="$major"; fi
  done
  printf '%s\n' "$best"
}

JAVA_DIR="$(pick_java_home)"
if [[ -z "$JAVA_DIR" || ! -x "$JAVA_DIR/bin/java" ]]; then
  log "Keycloak $KEYCLOAK_VERSION needs a JDK 17 or newer (set KEYCLOAK_JAVA_HOME); none was found."
  exit 1
fi

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$JAVA_DIR" ]]; then
  log "Keycloak $KEYCLOAK_VERSION already installed in $HOME_DIR (JDK $JAVA_DIR)"
else
  command -v mvn >/dev/null 2>&1 || { log "mvn is required to download Keycloak"; exit 1; }
  mkdir -p "$CACHE"
  work="$(mktemp -d "$CACHE/.install.XXXXXX")"
  cleanup() {
    if [[ -n "${warmup_pid:-}" ]] && kill -0 "$warmup_pid" 2>/dev/null; then kill "$warmup_pid"; fi
    rm -rf "$work"
  }
  trap cleanup EXIT

  if [[ -d "$HOME_DIR" && ! -f "$STAMP" ]]; then
    log "removing the unfinished install in $HOME_DIR"
    rm -rf "$HOME_DIR"
  fi
  if [[ ! -d "$HOME_DIR" ]]; then
    log "downloading keycloak-quarkus-dist $KEYCLOAK_VERSION (about 170 MB) with mvn"
    mvn -B -q dependency:copy -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
      -DoutputDirectory="$work" -Dmdep.overWriteReleases=false >&2
    log "unpacking"
    unzip -q "$work/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip" -d "$work"
    mv "$work/keycloak-$KEYCLOAK_VERSION" "$HOME_DIR"
  fi

  # The warm-up start: the same options as every later start, so none of them rebuilds.
  log "first start with $JAVA_DIR (one-time build and database; a minute or two)"
  rm -rf "$HOME_DIR/.ci-db-template" "$HOME_DIR/.ci-class-cache.aot"
  # This start records the class cache and builds the server: on a busy 2-core machine (a cold
  # CI run builds the Kubernetes binaries beside it) it has taken over 5 minutes.
  KEYCLOAK_HOME="$HOME_DIR" KEYCLOAK_JAVA_HOME="$JAVA_DIR" KEYCLOAK_WARMUP=1 \
    KEYCLOAK_PORT="${KEYCLOAK_WARMUP_PORT:-8189}" KEYCLOAK_START_TIMEOUT_SECONDS="${KEYCLOAK_WARMUP_TIMEOUT_SECONDS:-1200}" \
    bash "$HERE/start-keycloak.sh" "$work/warmup" > "$work/warmup.env"
  warmup_pid="$(sed -n 's/^export KEYCLOAK_PID=//p' "$work/warmup.env")"
  kill "$warmup_pid"
  # On exit the JVM writes the class cache (JDK 25+), which takes a while on 2 cores.
  for _ in $(seq 1 600); do kill -0 "$warmup_pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$warmup_pid" 2>/dev/null; then
    log "the warm-up server did not stop; see $work/warmup/keycloak.log"
    exit 1
  fi
  warmup_pid=""
  mv "$work/warmup/keycloak-data" "$HOME_DIR/.ci-db-template"
  [[ -f "$work/warmup/class-cache.aot" ]] && mv "$work/warmup/class-cache.aot" "$HOME_DIR/.ci-class-cache.aot"
  printf '%s\n' "$JAVA_DIR" > "$STAMP"
  log "installed Keycloak $KEYCLOAK_VERSION in $HOME_DIR"
fi

printf "export KEYCLOAK_HOME='%s'\n" "$HOME_DIR"
printf "export KEYCLOAK_JAVA_HOME='%s'\n" "$JAVA_DIR"

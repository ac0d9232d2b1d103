#!/usr/bin/env bash
# Starts Keycloak (installed by scripts/ci/install-keycloak.sh) in dev mode on 127.0.0.1,
# in the background, for the identity provider contract suite:
#   eval "$(bash scripts/ci/start-keycloak.sh RUN_DIR)"
#   ... tests ...
#   kill "$KEYCLOAK_PID"
# RUN_DIR receives the server log (keycloak.log) and this run's database, so every run
# starts from an empty server. stdout carries only `export` lines: KEYCLOAK_URL,
# KEYCLOAK_ADMIN_USERNAME, KEYCLOAK_ADMIN_PASSWORD and KEYCLOAK_PID; progress goes to stderr.
#
# Environment: KEYCLOAK_HOME and KEYCLOAK_JAVA_HOME (from the install script, which runs
# when KEYCLOAK_HOME is unset), KEYCLOAK_PORT (default 8180), KEYCLOAK_ADMIN_USERNAME /
# KEYCLOAK_ADMIN_PASSWORD (bootstrap admin of the master realm, default admin / admin:
# the server listens on loopback only), KEYCLOAK_START_TIMEOUT_SECONDS (default 600).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { printf '[start-keycloak] %s\n' "$*" >&2; }

RUN_DIR="${1:?usage: start-keycloak.sh RUN_DIR}"
PORT="${KEYCLOAK_PORT:-8180}"
ADMIN_USERNAME="${KEYCLOAK_ADMIN_USERNAME:-admin}"
ADMIN_PASSWORD="${KEYCLOAK_ADMIN_PASSWORD:-admin}"
TIMEOUT_SECONDS="${KEYCLOAK_START_TIMEOUT_SECONDS:-600}"
URL="http://127.0.0.1:$PORT"
# Answers once the master realm is bootstrapped. The health endpoints would need
# health-enabled and the management interface, whose default port 9000 is MinIO's.
READY_URL="$URL/realms/master/.well-known/openid-configuration"

if [[ -z "${KEYCLOAK_HOME:-}" ]]; then
  install_exports="$(bash "$HERE/install-keycloak.sh")"
  eval "$install_exports"
fi
JAVA_DIR="${KEYCLOAK_JAVA_HOME:-${JAVA_HOME:-}}"

if curl -s -o /dev/null "$URL/"; then
  log "port $PORT is already in use; set KEYCLOAK_PORT to a free port"
  exit 1
fi

mkdir -p "$RUN_DIR"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"
LOG_FILE="$RUN_DIR/keycloak.log"
DATA_DIR="$RUN_DIR/keycloak-data"
rm -rf "$DATA_DIR"

# The database the install made has the master realm and its bootstrap admin already;
# copying it skips schema creation, the slowest part of a start. It is used only when
# it was made for the same admin credentials (the bootstrap admin is created with the
# master realm, never later).
CREDENTIALS_SUM="$(printf '%s\n%s' "$ADMIN_USERNAME" "$ADMIN_PASSWORD" | sha256sum | cut -d' ' -f1)"
TEMPLATE="$KEYCLOAK_HOME/.ci-db-template"
if [[ -z "${KEYCLOAK_WARMUP:-}" && -f "$TEMPLATE/credentials.sha256" && "$(cat "$TEMPLATE/credentials.sha256")" == "$CREDENTIALS_SUM" ]]; then
  cp -r "$TEMPLATE" "$DATA_DIR"
fi

java_opts=()
CLASS_CACHE="$KEYCLOAK_HOME/.ci-class-cache.aot"
if [[ -n "${KEYCLOAK_WARMUP:-}" ]]; then
  # JDK 25+ records the classes this start loads and writes them out when it stops.
  if "$JAVA_DIR/bin/java" -XX:AOTCacheOutput="$RUN_DIR/probe.aot" -version >/dev/null 2>&1; then
    java_opts+=("-XX:AOTCacheOutput=$RUN_DIR/class-cache.aot")
  fi
  rm -f "$RUN_DIR/probe.aot"
elif [[ -f "$CLASS_CACHE" ]]; then
  java_opts+=("-XX:AOTCache=$CLASS_CACHE")
fi

log "starting Keycloak from $KEYCLOAK_HOME on $URL (log: $LOG_FILE)"
# Dev mode: HTTP, a local H2 database under RUN_DIR and local caches, and no build step
# of its own. Options that change the build (features, health, database vendor) are left
# at the defaults the install's warm-up start used, or the server would rebuild itself.
JAVA_HOME="$JAVA_DIR" \
  JAVA_OPTS_APPEND="${java_opts[*]:-}" \
  KC_BOOTSTRAP_ADMIN_USERNAME="$ADMIN_USERNAME" \
  KC_BOOTSTRAP_ADMIN_PASSWORD="$ADMIN_PASSWORD" \
  KC_DB_URL_PATH="$DATA_DIR" \
  nohup "$KEYCLOAK_HOME/bin/kc.sh" start-dev \
  --http-host=127.0.0.1 --http-port="$PORT" --log-console-color=false \
  </dev/null >"$LOG_FILE" 2>&1 &
PID=$!

started_at=$SECONDS
until curl -sf -o /dev/null "$READY_URL"; do
  if ! kill -0 "$PID" 2>/dev/null; then
    log "Keycloak exited during start; last lines of $LOG_FILE:"
    tail -n 40 "$LOG_FILE" >&2
    exit 1
  fi
  if ((SECONDS - started_at >= TIMEOUT_SECONDS)); then
    log "Keycloak was not ready after $TIMEOUT_SECONDS s; stopping it. Last lines of $LOG_FILE:"
    tail -n 40 "$LOG_FILE" >&2
    kill "$PID"
    exit 1
  fi
  sleep 0.5
done
log "ready after $((SECONDS - started_at)) s"

if [[ -n "${KEYCLOAK_WARMUP:-}" ]]; then
  printf '%s\n' "$CREDENTIALS_SUM" > "$DATA_DIR/credentials.sha256"
fi

printf 'export KEYCLOAK_URL=%q KEYCLOAK_ADMIN_USERNAME=%q KEYCLOAK_ADMIN_PASSWORD=%q\n' "$URL" "$ADMIN_USERNAME" "$ADMIN_PASSWORD"
printf 'export KEYCLOAK_PID=%q\n' "$PID"

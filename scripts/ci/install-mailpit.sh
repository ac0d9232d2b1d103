#!/usr/bin/env bash
# Builds Mailpit (an SMTP server with an HTTP API to read what it received) with `go install`
# at a pinned version, cached under $CI_CACHE_DIR so later runs take a second. The e-mail
# tests send through it and read the messages back through its API.
#
# stdout carries only `export NAME=value` lines (progress goes to stderr):
#   eval "$(bash scripts/ci/install-mailpit.sh)"
set -euo pipefail
MAILPIT_VERSION=v1.33.1
CACHE="${CI_CACHE_DIR:-/opt/ci-cache}"
BIN_DIR="$CACHE/mailpit-$MAILPIT_VERSION"
log() { printf '[install-mailpit] %s\n' "$*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else log "Go is required (go install)"; exit 1; fi
fi
if [ ! -x "$BIN_DIR/mailpit" ]; then
  log "building mailpit $MAILPIT_VERSION (a few minutes the first time)"
  mkdir -p "$BIN_DIR"
  GOBIN="$BIN_DIR" go install "github.com/axllent/mailpit@$MAILPIT_VERSION" >&2
fi
echo "export MAILPIT_BIN=$BIN_DIR/mailpit"

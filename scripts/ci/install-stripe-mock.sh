#!/usr/bin/env bash
# Builds stripe-mock (Stripe's own API mock, answering every call of Stripe's OpenAPI
# description with canned objects) with `go install` at a pinned version, cached under
# $CI_CACHE_DIR/go-bin like k6 so later runs take a second. The billing service's Stripe
# suite creates its Checkout Sessions against it (STRIPE_API_BASE_URL).
#
# stdout carries only `export NAME=value` lines (progress goes to stderr):
#   eval "$(bash scripts/ci/install-stripe-mock.sh)"
set -euo pipefail
STRIPE_MOCK_VERSION=v0.203.0
CACHE="${CI_CACHE_DIR:-/opt/ci-cache}"
BIN_DIR="$CACHE/go-bin/stripe-mock-$STRIPE_MOCK_VERSION"
log() { printf '[install-stripe-mock] %s\n' "$*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else log "Go is required (go install)"; exit 1; fi
fi
if [ ! -x "$BIN_DIR/stripe-mock" ]; then
  log "building stripe-mock $STRIPE_MOCK_VERSION (once; cached in $BIN_DIR)"
  mkdir -p "$BIN_DIR"
  GOBIN="$BIN_DIR" go install "github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION" >&2
fi
echo "export STRIPE_MOCK_BIN=$BIN_DIR/stripe-mock"

#!/bin/sh
# Starts the server with the image's default target (build arg TARGET) unless the caller
# passed arguments of its own (`--target=identity`, `--list-targets`, ...). `exec` makes
# Node PID 1 so it receives SIGTERM from Docker and Kubernetes directly.
set -eu
if [ "$#" -eq 0 ]; then
  set -- "--target=${PORTAL_TARGET:-all}"
fi
exec node /app/services/server/src/main.ts "$@"

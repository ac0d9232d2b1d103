#!/usr/bin/env bash
# Installs what the chart and manifest tests (charts/portal/test) need, on a machine that
# reaches package registries only: helm, kubeconform and kustomize built with `go install`
# (pinned), and Kubernetes JSON schemas cached on disk, because kubeconform otherwise
# downloads them from the internet at run time.
#
# Idempotent: a tool already built at its pinned version and a schema cache already
# prepared are left alone, so a second run takes a second.
#
# stdout carries only `export NAME=value` lines (progress goes to stderr), so a caller can
#   kube_env="$(bash scripts/ci/install-kube-tools.sh)" && eval "$kube_env"
# The tests also find everything without those variables, at $(go env GOPATH)/bin and in
# the default cache folder.
#
# Overrides: KUBE_SCHEMA_CACHE (default /opt/ci-cache/kube-schemas).
set -euo pipefail

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
KUSTOMIZE_VERSION=v5.8.1
# The PyPI package kubernetes-validate ships the Kubernetes OpenAPI schemas as JSON
# Schema, one folder per Kubernetes minor (1.25 .. 1.37 in this version), each in a plain
# and a strict (additionalProperties: false) flavour.
KUBERNETES_VALIDATE_VERSION=1.37.0
# The oldest Kubernetes the chart supports (Chart.yaml kubeVersion): validating against it
# catches fields that only newer clusters accept. The tests render with the same version.
KUBE_VERSION=1.30.0

SCHEMA_CACHE="${KUBE_SCHEMA_CACHE:-/opt/ci-cache/kube-schemas}"
SCHEMA_DIR="$SCHEMA_CACHE/v${KUBE_VERSION}-standalone-strict"
# kubeconform fills in the kind and the group/version suffix (deployment-apps-v1.json).
SCHEMA_LOCATION="$SCHEMA_DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json"

log() { printf '[install-kube-tools] %s\n' "$*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  log "Go is required (the tools are built with go install); install it first."
  exit 1
fi
GOBIN_DIR="$(go env GOBIN)"
GOBIN_DIR="${GOBIN_DIR:-$(go env GOPATH)/bin}"

# go_tool NAME MODULE_PATH VERSION: builds MODULE_PATH@VERSION into $GOBIN_DIR/NAME unless
# the binary there was already built from that module version.
go_tool() {
  local name="$1" package="$2" version="$3" bin="$GOBIN_DIR/$1" built
  if [[ -x "$bin" ]]; then
    built="$(go version -m "$bin" 2>/dev/null | awk '$1 == "mod" { print $3; exit }')"
    if [[ "$built" == "$version" ]]; then
      log "$name $version already at $bin"
      return
    fi
    log "$name at $bin is ${built:-of unknown version}; building $version"
  else
    log "building $name $version (first time: a few minutes)"
  fi
  GOBIN="$GOBIN_DIR" go install "$package@$version"
}

go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
go_tool kustomize sigs.k8s.io/kustomize/kustomize/v5 "$KUSTOMIZE_VERSION"

# A stamp names the source of the cached schemas; a different pin rebuilds the cache.
STAMP="kubernetes-validate==$KUBERNETES_VALIDATE_VERSION v$KUBE_VERSION-local-strict"
if [[ -f "$SCHEMA_DIR/.source" && "$(cat "$SCHEMA_DIR/.source")" == "$STAMP" ]]; then
  log "Kubernetes $KUBE_VERSION schemas already in $SCHEMA_DIR"
else
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    log "installing python3-pip (to download the schema wheel)"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-pip >&2
  fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  log "downloading kubernetes-validate $KUBERNETES_VALIDATE_VERSION (schemas only, nothing is installed)"
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" -d "$work" >&2
  wheel="$(find "$work" -maxdepth 1 -name 'kubernetes_validate-*.whl' -print -quit)"
  [[ -n "$wheel" ]] || { log "no kubernetes-validate wheel was downloaded"; exit 1; }

  # Only the pinned version's strict folder, out of the wheel (a zip).
  python3 - "$wheel" "v$KUBE_VERSION-local-strict" "$work/schemas" <<'PY'
import os, sys, zipfile
wheel, folder, out = sys.argv[1:]
os.makedirs(out)
prefix = f"kubernetes_validate/kubernetes-json-schema/{folder}/"
with zipfile.ZipFile(wheel) as z:
    members = [m for m in z.namelist() if m.startswith(prefix) and m.endswith(".json")]
    if not members:
        sys.exit(f"{folder} is not in {wheel}")
    for member in members:
        with open(f"{out}/{member[len(prefix):]}", "wb") as target:
            target.write(z.read(member))
PY
  # Each kind's schema refers to the shared definitions by the site-absolute path
  # "/api/_definitions.json", resolved against the schema's online $id: kubeconform would
  # fetch it. Pointing those references at the local copy makes the set standalone.
  sed -i "s#\"/api/_definitions.json#\"file://$SCHEMA_DIR/_definitions.json#g" "$work"/schemas/*.json
  [[ -f "$work/schemas/deployment-apps-v1.json" ]] || { log "unexpected schema layout in the wheel"; exit 1; }
  printf '%s\n' "$STAMP" > "$work/schemas/.source"

  mkdir -p "$SCHEMA_CACHE"
  rm -rf "$SCHEMA_DIR"
  mv "$work/schemas" "$SCHEMA_DIR"
  log "cached $(find "$SCHEMA_DIR" -name '*.json' | wc -l) Kubernetes $KUBE_VERSION schemas in $SCHEMA_DIR"
fi

# Single-quoted: the schema location holds spaces and braces, and any POSIX shell may eval this.
printf "export HELM_BIN='%s'\n" "$GOBIN_DIR/helm"
printf "export KUBECONFORM_BIN='%s'\n" "$GOBIN_DIR/kubeconform"
printf "export KUSTOMIZE_BIN='%s'\n" "$GOBIN_DIR/kustomize"
printf "export KUBE_SCHEMA_LOCATION='%s'\n" "$SCHEMA_LOCATION"

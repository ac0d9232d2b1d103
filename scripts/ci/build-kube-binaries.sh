#!/usr/bin/env bash
# Builds the binaries of a real Kubernetes control plane for the chart test
# (scripts/ci/cluster.sh), from the Go module proxy, once: kube-apiserver,
# kube-controller-manager, kube-scheduler and kubectl at KUBE_VERSION, etcd, and
# kwok/kwokctl, which start them as a cluster whose nodes are simulated.
#
# `go install` refuses k8s.io/kubernetes and etcd's server (their go.mod has replace
# directives), so each is built inside a small wrapper module of our own: its replace
# block maps every k8s.io staging module to the version published from the same release
# (v1.37.2 -> v0.37.2). Without the -X version flags the binaries report v0.0.0 and the
# chart's kubeVersion constraint rejects the cluster.
#
# The binaries land in "$CI_CACHE_DIR/kube-binaries/<versions>/"; a folder whose stamp
# names the same versions is reused (a second run takes a second). The builds run one at
# a time: kube-apiserver alone takes about 6 minutes and 2.8 GB of memory.
#
# Beside them, in kwok-stages/, the Stage definitions kwokctl uses by default (from kwok's
# module): a cluster configuration that adds a Stage of its own replaces the defaults, so
# cluster.sh passes these along with it.
#
# stdout carries only `export KUBE_BIN_DIR=...`; progress goes to stderr.
set -euo pipefail

KUBE_VERSION=v1.37.2
ETCD_VERSION=v3.7.0 # the etcd k8s.io/kubernetes $KUBE_VERSION itself requires
KWOK_VERSION=v0.8.0

CACHE="${CI_CACHE_DIR:-/opt/ci-cache}"
KEY="kubernetes-$KUBE_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION-$(go env GOVERSION)"
OUT="$CACHE/kube-binaries/$KEY"
BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok kwokctl)

log() { printf '[build-kube-binaries] %s\n' "$*" >&2; }

command -v go >/dev/null || { log "Go is required"; exit 1; }

# The default Stages of kwokctl $KWOK_VERSION (node-initialize, the lease heartbeat of the
# binary runtime, pod-ready/complete/delete), copied into the folder $1.
copy_kwok_stages() {
  local src
  src="$(go mod download -json "sigs.k8s.io/kwok@$KWOK_VERSION" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')/kustomize/stage"
  mkdir -p "$1"
  cp "$src/node/fast/node-initialize.yaml" "$src/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml" \
    "$src/pod/fast/pod-ready.yaml" "$src/pod/fast/pod-complete.yaml" "$src/pod/fast/pod-delete.yaml" "$1/"
}

if [[ -f "$OUT/.complete" ]]; then
  log "control-plane binaries already in $OUT"
  [[ -d "$OUT/kwok-stages" ]] || copy_kwok_stages "$OUT/kwok-stages"
  printf "export KUBE_BIN_DIR='%s'\n" "$OUT"
  exit 0
fi

work="$(mktemp -d /tmp/kube-binaries.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
export GOFLAGS=-mod=mod
started=$SECONDS

# --- Kubernetes: one wrapper module for the four commands ---------------------------
staging_version="v0.${KUBE_VERSION#v1.}"
kube_mod="$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["GoMod"])')"
mkdir -p "$work/kubernetes"
{
  printf 'module ledgerline.ci/kubernetes\n\ngo %s\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' \
    "$(awk '$1 == "go" { print $2; exit }' "$kube_mod")" "$KUBE_VERSION"
  # Each `k8s.io/x => ./staging/src/k8s.io/x` of upstream's go.mod, pointed at the release.
  awk -v v="$staging_version" '$2 == "=>" && $3 ~ /^\.\/staging\// { printf "\t%s => %s %s\n", $1, $1, v }' "$kube_mod"
  printf ')\n'
} > "$work/kubernetes/go.mod"
cat > "$work/kubernetes/tools.go" <<'GO'
//go:build tools

// The commands this module builds; the import keeps their dependencies in go.mod.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
GO
log "resolving k8s.io/kubernetes $KUBE_VERSION"
(cd "$work/kubernetes" && go mod tidy >&2)
version_flags="-s -w"
for var in "gitVersion=$KUBE_VERSION" "gitMajor=1" "gitMinor=$(cut -d. -f2 <<<"$KUBE_VERSION")" "gitTreeState=clean"; do
  version_flags+=" -X k8s.io/component-base/version.$var"
done
for cmd in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
  t=$SECONDS
  log "building $cmd $KUBE_VERSION"
  (cd "$work/kubernetes" && go build -trimpath -ldflags "$version_flags" -o "$work/bin/$cmd" "k8s.io/kubernetes/cmd/$cmd")
  log "$cmd built in $((SECONDS - t)) s"
done

# --- etcd: its server's main package is internal to etcd's own module; etcdmain.Main is not
mkdir -p "$work/etcd"
cat > "$work/etcd/go.mod" <<GO
module ledgerline.ci/etcd

go 1.26.0

require go.etcd.io/etcd/server/v3 $ETCD_VERSION
GO
cat > "$work/etcd/main.go" <<'GO'
// etcd, as its own main package would start it.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
t=$SECONDS
log "building etcd $ETCD_VERSION"
(cd "$work/etcd" && go mod tidy >&2 && go build -trimpath -ldflags "-s -w" -o "$work/bin/etcd" .)
log "etcd built in $((SECONDS - t)) s"

# --- kwok and kwokctl install directly ------------------------------------------------
for cmd in kwok kwokctl; do
  t=$SECONDS
  log "building $cmd $KWOK_VERSION"
  GOBIN="$work/bin" go install -trimpath -ldflags "-s -w" "sigs.k8s.io/kwok/cmd/$cmd@$KWOK_VERSION"
  log "$cmd built in $((SECONDS - t)) s"
done

copy_kwok_stages "$work/bin/kwok-stages"

for cmd in "${BINARIES[@]}"; do [[ -x "$work/bin/$cmd" ]] || { log "$cmd is missing"; exit 1; }; done
"$work/bin/kube-apiserver" --version | grep -qx "Kubernetes $KUBE_VERSION" ||
  { log "kube-apiserver reports $("$work/bin/kube-apiserver" --version), not $KUBE_VERSION"; exit 1; }
printf '%s\n' "$KEY" > "$work/bin/.complete"
mkdir -p "$(dirname "$OUT")"
rm -rf "$OUT"
mv "$work/bin" "$OUT"
log "control-plane binaries built in $((SECONDS - started)) s into $OUT"
printf "export KUBE_BIN_DIR='%s'\n" "$OUT"

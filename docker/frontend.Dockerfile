# syntax=docker/dockerfile:1
# Static frontends (shell at /, each remote at /remotes/<name>/, /frontends.json) served
# by unprivileged nginx. In the distributed mode the gateway proxies every non-API path
# here (FRONTENDS_URL). Build from the repository root:
#   docker build -f docker/frontend.Dockerfile -t ledgerline/frontend .

ARG NODE_IMAGE=node:24-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.29-alpine

# Only the npm manifests, so `npm ci` below is cached until they change.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && cp package.json package-lock.json .npmrc /manifests/ \
 && find services gateway frontends -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /manifests/ ./
# Full install: webpack, swc and their loaders are build-time dependencies.
RUN --mount=type=cache,target=/root/.npm npm ci
# The frontends import the shared contracts (payload schemas); nothing else of the
# backend is needed, so backend edits do not invalidate this build.
COPY tsconfig.base.json ./
COPY scripts/ ./scripts/
COPY services/contracts/ ./services/contracts/
COPY frontends/ ./frontends/
# The same build `npm start` runs: every frontends/<name> with a webpack config.
RUN npm run build
COPY docker/assemble-frontends.mjs ./docker/
RUN node docker/assemble-frontends.mjs /site

FROM ${NGINX_IMAGE} AS runtime
# Our nginx.conf is the whole configuration (server block included); removing the stock
# server keeps the image's entrypoint scripts from editing config on a read-only root.
USER root
RUN rm -f /etc/nginx/conf.d/default.conf
COPY docker/nginx.conf /etc/nginx/nginx.conf
COPY --from=build /site/ /usr/share/nginx/html/
# Numeric, so Kubernetes' runAsNonRoot can verify it (101 = nginx in this base).
USER 101:101
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]

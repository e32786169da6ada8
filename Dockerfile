# The table-audit application image: one image, every long-running process is `table-audit <command>`
# (ingest --kafka, replay --live, serve). See docs/deployment.md.
#
# The base image is pinned by exact version tag; its digest was not available offline where this file was written
# (no registry but npm's could be reached): add `@sha256:…` after resolving it once with `docker buildx imagetools
# inspect node:20.19.5-bookworm-slim` on a machine that can reach the registry.
#
# Build: docker build -t table-audit:0.1.0 .

# --- build: install the workspace's production dependencies --------------------------------------------------
FROM node:20.19.5-bookworm-slim AS build
# better-sqlite3 compiles from source when its prebuilt binary cannot be fetched: the compiler it needs
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# pnpm at the version package.json names (packageManager), through corepack
RUN corepack enable && corepack prepare pnpm@10.34.9 --activate
WORKDIR /app
# the lockfile alone fetches every package into the store (a layer cached until the lockfile changes)
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --prod
COPY . .
# the sources are TypeScript run through esbuild as they load (apps/cli/bin/register-ts.mjs): no compile step
RUN pnpm install --offline --frozen-lockfile --prod \
 && pnpm store prune

# --- runtime: the workspace with its dependencies, no compiler, not root ---------------------------------------
FROM node:20.19.5-bookworm-slim AS runtime
ENV NODE_ENV=production
COPY --from=build --chown=root:root /app /app
# the data directory (store, chDB, anchors) is a volume owned by the unprivileged user of the base image (node, 1000)
RUN mkdir -p /var/lib/table-audit/data && chown -R node:node /var/lib/table-audit
USER node
WORKDIR /var/lib/table-audit
VOLUME ["/var/lib/table-audit/data"]
EXPOSE 8080
ENTRYPOINT ["node", "/app/apps/cli/bin/table-audit.js"]
CMD ["--help"]

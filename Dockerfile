# syntax=docker/dockerfile:1
# HCP Portal: one image serves the web app and the API (docs/operations.md, decision 0032).
# Build:  docker build -t hcp-portal .
# Run:    docker compose up   (two instances, PostgreSQL, Redis and a proxy; see compose.yaml)

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. The web app, built with the whole workspace and its dev dependencies.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only: the server's and the shared contract's (tsx runs the TypeScript as is).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --omit=dev --no-audit --no-fund --workspace @hcp/server --include-workspace-root

# 3. What runs: no compiler, no dev tools, not root.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    SEED_DEMO=off \
    TRUST_PROXY=on
WORKDIR /app
COPY --chown=node:node package.json ./
COPY --chown=node:node packages/contract ./packages/contract
COPY --chown=node:node apps/server/package.json ./apps/server/package.json
COPY --chown=node:node apps/server/src ./apps/server/src
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/apps/web/dist ./apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]

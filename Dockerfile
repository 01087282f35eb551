# The portal's production image: the built client and server bundle, production dependencies
# only, running as the unprivileged `node` user.
#
#   docker build -t brokerage-portal .
#   docker run --rm -p 3000:3000 -e DATABASE_URL=postgresql://... -e JWT_SECRET=... brokerage-portal
#
# The image has no embedded PostgreSQL: DATABASE_URL is required (see docker-compose.yml).
#
# Pinned to a full Node 24 LTS version, the one package.json's `node` devDependency runs the
# scripts and tests on (scripts/engines.test.ts keeps the two equal). To pin the exact image as
# well, append its digest, which
#   docker buildx imagetools inspect node:24.21.0-bookworm-slim
# prints, e.g. --build-arg NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:<digest>.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# --- Shared by both build stages: a compiler for argon2 (used when its prebuilt binary does not
# load) and the npm this repository's lock and .npmrc are written for, the same as CI's (the npm
# a Node image ships may be older).
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/* \
  && npm install -g npm@11.19.1 --no-audit --no-fund
WORKDIR /app

# --- The client (vite), the bundle budget check and the server bundle, into dist/.
FROM toolchain AS build
# The dependencies first, so that editing the sources does not re-install them; npm ci's
# postinstall generates the Prisma client from prisma/schema.prisma.
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY prisma ./prisma
# A devDependency installed from this folder (openapi-typescript with its TypeScript 5).
COPY tools/openapi-typescript/package.json ./tools/openapi-typescript/
RUN npm ci --no-audit --no-fund
COPY . .
# The client (with its brotli and gzip copies, served as they are), then the server bundle.
RUN npm run build

# --- Production dependencies only, by the very script CI runs without Docker
# (scripts/check-production-install.ts), so what this stage installs is proven on every CI run.
FROM toolchain AS production-deps
COPY package.json package-lock.json .npmrc ./
COPY deploy/install-production.sh ./deploy/
RUN sh deploy/install-production.sh

# --- What runs: Node, node_modules, dist/ and the migrations (applied at start, under a lock).
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX=1: one glibc malloc heap for all threads (arenas of V8's threads stayed
# resident); MALLOC_MMAP_THRESHOLD_: large blocks (argon2's 19 MiB) given back when freed;
# --max-semi-space-size=4: a smaller young generation; --v8-pool-size=1: one V8 worker thread.
# Why and how much: server/test/deployed-env.ts.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/var/lib/portal \
  MALLOC_ARENA_MAX=1 \
  MALLOC_MMAP_THRESHOLD_=131072
# qpdf binds a closed file's documents into its archive's file.pdf in constant memory.
# Nothing at run time installs packages: npm, npx, corepack and yarn only widen the image.
RUN apt-get update \
  && apt-get install -y --no-install-recommends qpdf \
  && rm -rf /var/lib/apt/lists/* \
  && rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /opt/yarn-v* \
    /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg \
  && mkdir -p /var/lib/portal \
  && chown node:node /var/lib/portal
WORKDIR /app
# Owned by root and read-only to `node`: the process cannot rewrite its own code.
# The same files as scripts/check-production-install.ts copies (keep the two in step).
COPY package.json package-lock.json .npmrc ./
COPY prisma/migrations ./prisma/migrations
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# Slim images have no curl; Node has fetch. /readyz answers 200 once the database does.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node runs as PID 1 and handles SIGTERM itself (server/main.ts: /readyz turns 503 for
# SHUTDOWN_DRAIN_MS, then in-flight requests finish, the pool closes, exit 0 within 8 s more). Its only
# children are the qpdf runs it waits for itself, so no init is needed to reap them; `docker run
# --init` does no harm.
STOPSIGNAL SIGTERM
CMD ["node","--max-semi-space-size=4","--v8-pool-size=1","dist/server/main.js"]

#!/bin/sh
# Installs the production dependencies of the built portal into the current folder, which holds
# package.json, package-lock.json and .npmrc. The Dockerfile's production-deps stage runs this
# script, and CI runs the very same script without Docker (scripts/check-production-install.ts),
# then starts the built server on what it installed: so the image's dependencies are proven on
# every CI run even where no Docker engine exists.
set -eu

# The lock and .npmrc (strict-allow-scripts, package.json "allowScripts") are written for npm 11.
npm_major=$(npm --version | cut -d. -f1)
if [ "$npm_major" -lt 11 ]; then
  echo "install-production.sh: npm 11 or newer is needed (found $(npm --version)): npm install -g npm@11.19.1" >&2
  exit 1
fi

# --omit=dev       the build tools (vite, esbuild, prisma CLI, tests) stay in the build stage.
# --omit=optional  leaves out embedded-postgres's platform binaries (about 60 MB): a deployment
#                  always sets DATABASE_URL, and the zero-setup embedded database is for laptops.
# --ignore-scripts package.json's postinstall runs `prisma generate`, whose CLI is a
#                  devDependency; the generated client is already bundled into dist/server/main.js.
npm ci --omit=dev --omit=optional --ignore-scripts --prefer-offline --no-audit --no-fund

# argon2 is the one dependency whose install script matters: it keeps its prebuilt binary when
# that loads, else compiles one with node-gyp (python3, make and g++ must then be present).
npm rebuild argon2 --no-audit --no-fund

# Prisma's runtime carries a query compiler for every database it supports (about 70 MB);
# the portal only talks to PostgreSQL.
find node_modules/@prisma/client/runtime -type f \
  \( -name '*.mysql.*' -o -name '*.sqlite.*' -o -name '*.sqlserver.*' -o -name '*.cockroachdb.*' \) \
  -delete

# Fail here, not at the first sign-in, when the native binary does not load.
node -e "import('argon2').then((a) => a.hash('check', { memoryCost: 1024, timeCost: 1 }))"

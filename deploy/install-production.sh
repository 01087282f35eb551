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

# sharp (photos and scanned pages) loads libvips from two optional packages of this
# platform, which --omit=optional left out (installing every optional package would also bring
# the dev tools npm marks "devOptional"). They are fetched here at the versions and integrity the
# lock records, and unpacked where npm would have put them.
# glibc builds: the image is Debian, as are the machines CI runs on.
platform=$(node -p "process.platform + '-' + process.arch")
for pkg in "@img/sharp-$platform" "@img/sharp-libvips-$platform"; do
  lock_entry=$(node -p "JSON.stringify(require('./package-lock.json').packages['node_modules/$pkg'] ?? null)")
  if [ "$lock_entry" = "null" ]; then
    echo "install-production.sh: the lock has no $pkg: sharp cannot run on $platform" >&2
    exit 1
  fi
  version=$(node -p "($lock_entry).version")
  integrity=$(node -p "($lock_entry).integrity")
  tarball=$(npm pack "$pkg@$version" --silent --pack-destination /tmp)
  actual=$(node -p "'sha512-' + require('node:crypto').createHash('sha512').update(require('node:fs').readFileSync('/tmp/$tarball')).digest('base64')")
  if [ "$actual" != "$integrity" ]; then
    echo "install-production.sh: $pkg@$version does not match the lock's integrity" >&2
    exit 1
  fi
  mkdir -p "node_modules/$pkg"
  tar -xzf "/tmp/$tarball" -C "node_modules/$pkg" --strip-components=1
  rm "/tmp/$tarball"
done

# argon2 is the one dependency whose install script matters: it keeps its prebuilt binary when
# that loads, else compiles one with node-gyp (python3, make and g++ must then be present).
npm rebuild argon2 --no-audit --no-fund

# Prisma's runtime carries a query compiler for every database it supports (about 70 MB);
# the portal only talks to PostgreSQL.
find node_modules/@prisma/client/runtime -type f \
  \( -name '*.mysql.*' -o -name '*.sqlite.*' -o -name '*.sqlserver.*' -o -name '*.cockroachdb.*' \) \
  -delete

# Fail here, not at the first sign-in or the first photo, when a native binary does not load.
node -e "import('argon2').then((a) => a.hash('check', { memoryCost: 1024, timeCost: 1 }))"
node -e "import('sharp').then((s) => s.default({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).jpeg().toBuffer())"

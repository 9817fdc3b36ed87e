#!/bin/sh
# Installs the workspace with the pinned pnpm, fetching pnpm through npx when it is not on PATH.
set -e
cd "$(dirname "$0")/.."
want=$(node -p "require('./package.json').packageManager.split('@')[1]")
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want" ]; then
  npm install --global --no-fund --no-audit "pnpm@$want" >/dev/null 2>&1 || {
    echo "setup: could not install pnpm@$want with npm; install it and run again" >&2
    exit 1
  }
fi
pnpm install --frozen-lockfile --reporter=silent

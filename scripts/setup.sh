#!/bin/sh
# Installs the workspace with the pinned pnpm, installing that pnpm with npm when it is not on PATH.
# Where npm's global folder is not writable (Node installed for all users, run as another user), pnpm
# goes into node_modules/.cache instead, and a node_modules/.bin/pnpm shim makes it the pnpm that npm
# and pnpm scripts find.
set -e
cd "$(dirname "$0")/.."
want=$(node -p "require('./package.json').packageManager.split('@')[1]")
local_dir="$(pwd)/node_modules/.cache/pnpm-$want"
local_pnpm="$local_dir/node_modules/pnpm/bin/pnpm.cjs"
use_local=false
if [ -f "$local_pnpm" ]; then
  use_local=true
elif ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want" ]; then
  if npm install --global --no-fund --no-audit "pnpm@$want" >/dev/null 2>&1; then
    :
  elif npm install --prefix "$local_dir" --no-fund --no-audit "pnpm@$want" >/dev/null 2>&1; then
    use_local=true
  else
    echo "setup: could not install pnpm@$want with npm; install it and run again" >&2
    exit 1
  fi
fi
if [ "$use_local" = true ]; then
  node "$local_pnpm" install --frozen-lockfile --reporter=silent
  # Written after the install, which owns node_modules/.bin, so the shim is there for the scripts that follow.
  printf '#!/bin/sh\nexec node "%s" "$@"\n' "$local_pnpm" >node_modules/.bin/pnpm
  chmod +x node_modules/.bin/pnpm
else
  pnpm install --frozen-lockfile --reporter=silent
fi

#!/bin/sh
# Fails when `buf generate` would change the committed code under libs/contracts/src/gen.
set -e
cd "$(dirname "$0")/.."
before=$(mktemp -d)
cp -r libs/contracts/src/gen "$before/gen"
pnpm exec buf generate
if ! diff -r "$before/gen" libs/contracts/src/gen >/dev/null; then
  diff -r "$before/gen" libs/contracts/src/gen | head -40 >&2
  echo "check-generated: libs/contracts/src/gen differs from what buf generate writes; run 'pnpm generate' and commit" >&2
  rm -rf "$before"
  exit 1
fi
rm -rf "$before"
echo "check-generated: libs/contracts/src/gen matches proto/"

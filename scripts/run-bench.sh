#!/bin/sh
# Runs every *.bench.ts file; each prints its figures and ratios against an in-run baseline.
set -e
cd "$(dirname "$0")/.."
for f in $(find libs services test -path '*/node_modules' -prune -o -name '*.bench.ts' -print | sort); do
  echo "== $f"
  node --import tsx "$f"
done

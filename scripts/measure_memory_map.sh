#!/bin/bash
# The minibatch test on a features file read in place (memory-mapped) against the same kind of
# data read into memory: iterations per second, rows read per second and resident memory, the
# anonymous part (the process's own allocations) apart from the file pages it has touched.
#
#   bash scripts/measure_memory_map.sh ROWS DIR [SAMPLES]
#
# writes DIR/tall-ROWS.npy (tall-logreg rows, d = 20 with the bias: 80 bytes a row, so 375000000
# rows are 30 GB) unless it is there, then runs the same chain with --memory-map on and, when the
# array fits in memory, --memory-map off. Needs about 80 bytes per row free in DIR: the export
# checks. Not part of the test suite: a 30 GB file takes minutes to write and to read.
set -euo pipefail
rows=${1:?rows}
dir=${2:?directory}
samples=${3:-200000}
cli=${MHX_CLI:-build/app/mh-explorer-cli}
file="$dir/tall-$rows.npy"
mkdir -p "$dir"
if [ ! -f "$file" ]; then
    /usr/bin/time -f "exported in %e s" "$cli" dataset --dataset tall-logreg --n-data "$rows" --dimension 20 --out "$file"
fi
ls -l "$file"
memory=$(awk '/MemTotal/ {printf "%.0f", $2 * 1024}' /proc/meminfo)
step=$(awk -v n="$rows" 'BEGIN {printf "%.3g", 1 / sqrt(n)}') # the scale of the posterior
size=$(stat -c %s "$file")

# Runs the chain, sampling /proc/PID/status each 0.2 s for the largest RssAnon and RssFile.
measure() {
    local mode=$1
    local log="$dir/run-$rows-$mode.log"
    "$cli" run --dataset logreg --data "$file" --label-column -1 --memory-map "$mode" --no-standardize \
        --method minibatch --control-variates taylor2 --proposal rw --step "$step" --burn-in 0 \
        --samples "$samples" --chains 1 --out /dev/null > "$log" 2>&1 &
    local pid=$! anon=0 file=0
    while kill -0 "$pid" 2>/dev/null; do
        read -r a f < <(awk '/RssAnon/ {a = $2} /RssFile/ {f = $2} END {print a + 0, f + 0}' "/proc/$pid/status" 2>/dev/null || echo "0 0")
        [ "$a" -gt "$anon" ] && anon=$a
        [ "$f" -gt "$file" ] && file=$f
        sleep 0.2
    done
    wait "$pid" || { cat "$log"; return 1; }
    echo "== --memory-map $mode: largest RssAnon $((anon / 1024)) MiB, RssFile $((file / 1024)) MiB"
    grep -E "mh-explorer-cli:|minibatch size|points read|wall time|acceptance rate" "$log"
}

measure on
if [ "$size" -lt $((memory / 2)) ]; then
    measure off
else
    echo "== --memory-map off: skipped, the array ($((size >> 20)) MiB) does not fit in half of memory ($((memory >> 20)) MiB)"
fi

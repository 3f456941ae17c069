#!/usr/bin/env bash
# Runs scripts/slurm/chains.sbatch on a one-node Slurm cluster started here (Debian's slurmctld
# and slurmd, no munge: auth/none, every daemon and file in a scratch folder), then pools the
# chains with `diagnose`. One task gets a time limit shorter than its run: the scheduler's SIGTERM
# must leave its draws in its file, marked interrupted, and diagnose must pool it with the others.
# That task runs with --checkpoint-every, and is then submitted again: it must resume its file
# from the last checkpoint and end it complete, with every draw of its run.
#   tests/cluster/slurm_array_check.sh CLI [TASKS]
# Exits 0 when every task left its file and diagnose read them all; prints the pooled table.
# Needs root (the daemons run as the current user) and the packages slurmctld slurmd slurm-client.
set -euo pipefail
cli=$(realpath "${1:?usage: $0 CLI [TASKS]}")
tasks=${2:-4}
here=$(cd "$(dirname "$0")/../.." && pwd)
for tool in slurmctld slurmd sbatch squeue scontrol; do
  command -v "$tool" > /dev/null || { echo "slurm_array_check: $tool not found (apt-get install slurmctld slurmd slurm-client)" >&2; exit 77; }
done

scratch=$(mktemp -d)
cleanup() {
  [ -n "${ctld:-}" ] && kill "$ctld" 2> /dev/null || true
  [ -n "${node:-}" ] && kill "$node" 2> /dev/null || true
  wait 2> /dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
mkdir -p "$scratch/state" "$scratch/spool" "$scratch/out"
port=$((20000 + RANDOM % 20000))
cpus=$(nproc)
cat > "$scratch/slurm.conf" <<CONF
ClusterName=check
SlurmctldHost=localhost
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=10
OverTimeLimit=0
InactiveLimit=0
MinJobAge=600
NodeName=localhost CPUs=$cpus State=UNKNOWN
PartitionName=check Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$scratch/slurm.conf
slurmctld -D -f "$SLURM_CONF" > /dev/null 2>&1 & ctld=$!
slurmd -D -f "$SLURM_CONF" > /dev/null 2>&1 & node=$!
for _ in $(seq 60); do
  sinfo -h -o %t 2> /dev/null | grep -qE '^(idle|mix|alloc)' && break
  sleep 1
done
sinfo -h -o %t | grep -qE '^(idle|mix|alloc)' || { echo "the one-node cluster did not come up:" >&2; tail -20 "$scratch"/slurm*.log >&2; exit 1; }
echo "one-node cluster up (slurm $(sinfo -V | awk '{print $2}'), $cpus CPUs)"

# Waits until the queue is empty; fails naming `what` after 20 minutes.
wait_for_queue() {
  for _ in $(seq 600); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 2
  done
  echo "$1 did not end in 20 minutes" >&2
  squeue >&2
  exit 1
}

# The array: full-data MH on the mixture, long enough that a 1-minute limit cuts the last task.
settings=(--dataset gmm --method mh --samples 6000 --burn-in 100)
checkpointed=(--dataset gmm --method mh --samples 12000 --burn-in 100 --checkpoint-every 500)
cd "$scratch/out"
export MHX_CLI=$cli MHX_OUT=$scratch/out
array=$(sbatch --parsable --array=1-$((tasks - 1)) "$here/scripts/slurm/chains.sbatch" "${settings[@]}")
limited=$(sbatch --parsable --array=$tasks --time=0:01:00 "$here/scripts/slurm/chains.sbatch" "${checkpointed[@]}")
echo "submitted array $array (tasks 1-$((tasks - 1))) and $limited (task $tasks, time limit 1 minute)"
wait_for_queue "the jobs"
echo "all tasks ended:"
for k in $(seq "$tasks"); do
  file=chain-$k.csv
  [ -f "$file" ] || { echo "task $k left no $file" >&2; cat slurm-*_"$k".out >&2 || true; exit 1; }
  echo "  $file: $(grep -vc '^#' "$file") lines, $(grep '^# status' "$file" | tail -1 || echo 'finished')"
done
grep -q '^# status = interrupted' "chain-$tasks.csv" || { echo "task $tasks was not cut by its time limit" >&2; exit 1; }
echo
"$cli" diagnose chain-*.csv

# The cut task again, without a limit: it goes on from its last checkpoint to the end.
again=$(sbatch --parsable --array=$tasks "$here/scripts/slurm/chains.sbatch" "${checkpointed[@]}")
echo "submitted task $tasks again ($again): it resumes its file"
wait_for_queue "the resumed task"
grep -h 'resuming' slurm-"$again"_*.out || true
tail -n 1 "chain-$tasks.csv" | grep -q '^# status = complete: resumed at draw' \
  || { echo "task $tasks did not resume to the end:" >&2; tail -3 "chain-$tasks.csv" >&2; cat slurm-"$again"_*.out >&2; exit 1; }
rows=$(grep -vc '^#' "chain-$tasks.csv")
[ "$rows" -eq 11901 ] || { echo "task $tasks has $rows lines, not the column line and 11900 draws" >&2; exit 1; }
echo "  chain-$tasks.csv: $rows lines, $(tail -n 1 "chain-$tasks.csv")"
echo
"$cli" diagnose chain-*.csv

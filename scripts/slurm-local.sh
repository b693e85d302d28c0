#!/usr/bin/env bash
# A one-node Slurm on this machine, for the job-array test (tests/slurm.rs)
# and for trying scripts/optimoo-array.sbatch by hand: Debian's munge,
# slurmctld and slurmd, started as root on localhost, without cgroups or
# accounting. `.ci/run` runs it before the tests. Idempotent: what is already
# installed, written or running is left as it is, so running it twice is safe.
#
# Usage (as root):  scripts/slurm-local.sh
#   then: sinfo; sbatch --array=0-3 --export=ALL,DIR=run scripts/optimoo-array.sbatch
#
# It installs slurm-wlm and munge with apt-get when a daemon is missing,
# creates the munge key if there is none, and writes /etc/slurm/slurm.conf
# (the node's CPUs and memory from `slurmd -C`) only when there is none or
# when the one there was written by this script; a slurm.conf of someone
# else's is never touched (the script then stops with exit code 2 unless that
# Slurm already answers). It ends when `sinfo` shows the node idle (or running
# jobs), and fails after about 60 s otherwise, printing the daemons' logs.
set -euo pipefail

marker="# Written by optimoo's scripts/slurm-local.sh"
conf=/etc/slurm/slurm.conf
log=/var/log/slurm

if ((EUID != 0)); then
    echo "slurm-local.sh: run it as root (it installs packages and starts daemons)" >&2
    exit 2
fi

# 1. The packages.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    echo "slurm-local.sh: installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# 2. munge: a key, its folders, the daemon (as the munge user, as Debian runs it).
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [[ ! -s /etc/munge/munge.key ]]; then
    if command -v mungekey >/dev/null; then
        runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
    else
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    fi
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- munged
    for _ in $(seq 50); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.1
    done
    munge -n | unmunge >/dev/null || { echo "slurm-local.sh: munged does not answer" >&2; exit 1; }
fi

# 3. slurm.conf: one node (this one, as slurmd sees it), one partition, no
# cgroups (proctrack/linuxproc, task/none), no accounting.
host=$(hostname -s)
node=$(slurmd -C | head -n 1)
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node")
mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
: "${cpus:?slurmd -C gave no CPUs: $node}" "${mem:?slurmd -C gave no RealMemory: $node}"
wanted="$marker
# (a one-node Slurm on localhost for tests; rerun the script to rewrite it)
ClusterName=optimoo
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$log/slurmctld.log
SlurmdLogFile=$log/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP"

answers() { timeout 10 sinfo -h >/dev/null 2>&1; }

if [[ -e $conf ]] && ! grep -qxF "$marker" "$conf"; then
    if answers; then
        echo "slurm-local.sh: $conf is not this script's; using the Slurm that answers:"
        sinfo
        exit 0
    fi
    echo "slurm-local.sh: $conf was not written by this script and no Slurm answers;" \
        "move it away to let the script write its own" >&2
    exit 2
fi
changed=0
if [[ ! -e $conf ]] || [[ "$(cat "$conf")" != "$wanted" ]]; then
    mkdir -p /etc/slurm
    printf '%s\n' "$wanted" >"$conf.tmp"
    mv "$conf.tmp" "$conf"
    changed=1
fi
mkdir -p /var/spool/slurmctld /var/spool/slurmd "$log"

# 4. The daemons: started when not running; restarted (by their pid files)
# when the configuration was just rewritten.
running() { [[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }
stop() {
    if running "$1"; then
        kill "$(cat "$1")"
        for _ in $(seq 50); do running "$1" || break; sleep 0.1; done
    fi
}
if ((changed)); then
    stop /run/slurmd.pid
    stop /run/slurmctld.pid
fi
running /run/slurmctld.pid || slurmctld
running /run/slurmd.pid || slurmd

# 5. Wait for the node.
state=""
for _ in $(seq 120); do
    state=$(timeout 10 sinfo -h -N -n "$host" -o %t 2>/dev/null | head -n 1 || true)
    case $state in
    idle | mix | alloc | comp) break ;;
    down* | drain* | drng*)
        scontrol update NodeName="$host" State=RESUME >/dev/null 2>&1 || true ;;
    esac
    sleep 0.5
done
case $state in
idle | mix | alloc | comp) ;;
*)
    echo "slurm-local.sh: the node $host is '${state:-not listed}' after 60 s" >&2
    tail -n 20 "$log/slurmctld.log" "$log/slurmd.log" >&2 || true
    exit 1
    ;;
esac
echo "slurm-local.sh: $(sinfo -V) on $host ($cpus CPUs, $mem MiB), node $state"

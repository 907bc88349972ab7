#!/bin/bash
# start-local.sh — a single-node Slurm cluster on this machine (controller + compute node), for testing
# `spraynic regress --slurm`. Run as root. Installs slurm-wlm and munge with apt-get when missing, writes
# /etc/slurm/slurm.conf from slurm.conf.tmpl, generates a munge key if there is none, and starts munged,
# slurmctld and slurmd (no systemd needed). stop-local.sh stops them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state=${SLURM_LOCAL_STATE:-/var/spool/spraynic-slurm}
[ "$(id -u)" = 0 ] || { echo "start-local.sh: run as root" >&2; exit 1; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
mkdir -p /etc/slurm "$state/ctld" "$state/d" /run/munge /var/log/munge /var/lib/munge /etc/munge
sed -e "s/@HOST@/$host/g" -e "s/@CPUS@/$cpus/" -e "s/@MEM@/$mem/" -e "s#@STATE@#$state#g" \
  "$here/slurm.conf.tmpl" >/etc/slurm/slurm.conf
# munge: a key, owned by the munge user, and the daemon.
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null; then mungekey --create --force; else dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; fi
fi
chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
chmod 0700 /etc/munge; chmod 0400 /etc/munge/munge.key; chmod 0755 /run/munge
# Foreground daemons in the background: daemonising opens /dev/null read-write, which fails in containers whose
# /dev/null is not world-writable (seen here: munged "Failed to open /dev/null: Permission denied").
pgrep -x munged >/dev/null || { setsid runuser -u munge -- munged -F </dev/null >>"$state/munged.log" 2>&1 & sleep 1; }
munge -n | unmunge >/dev/null || { echo "start-local.sh: munge does not work" >&2; exit 1; }
# slurm daemons (-c: forget state of earlier runs).
pgrep -x slurmctld >/dev/null || { setsid slurmctld -D -c </dev/null >>"$state/slurmctld.out" 2>&1 & }
sleep 1
pgrep -x slurmd >/dev/null || { setsid slurmd -D -c </dev/null >>"$state/slurmd.out" 2>&1 & }
for i in $(seq 1 30); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "start-local.sh: slurm is up: $(sinfo -h -o '%P %D %T %c')"; exit 0
  fi
  scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 1
done
echo "start-local.sh: the node did not become idle; see $state/slurmctld.log and $state/slurmd.log" >&2
sinfo >&2 || true
exit 1

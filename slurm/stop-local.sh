#!/bin/bash
# stop-local.sh — stops the daemons start-local.sh started (by their pid files; munged by its pid file).
set -u
state=${SLURM_LOCAL_STATE:-/var/spool/spraynic-slurm}
for p in "$state/slurmd.pid" "$state/slurmctld.pid" /run/munge/munged.pid; do
  [ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null && echo "stopped $(basename "$p" .pid)"
done
exit 0

#!/usr/bin/env bash
# make interop: spraynic's compatibility-mode endpoint (spraynic interop run) against the unchanged ibv_rc_pingpong
# of the Soft-RoCE peer VM, over a tap, as server and as client, every size, without and with injected loss; tshark
# captures the tap and every RoCEv2 frame of the capture is checked afterwards (docs/interop.md).
# Usage: interop/interop.sh IMAGE_DIR SPRAYNIC_BINARY
# Environment: INTEROP_SIZES=1,4096,65536,1048576; INTEROP_ITERS=100; INTEROP_LOSS=0.01 (the rates of the rounds
#   after the lossless one, comma-separated); INTEROP_SEED=1; INTEROP_TIMEOUT=900 (seconds, the VM and spraynic);
#   INTEROP_CHECK_TIMEOUT=900 (seconds, the summary and the capture check); INTEROP_TAP=spn-interop0;
#   INTEROP_CAPTURE=1; INTEROP_EVENTS=0 (1: the VM's ibv_rc_pingpong waits on completion events, -e).
# Output in IMAGE_DIR: interop-console.log, interop-host.log, interop.pcap, interop.txt (the summary).
set -eu -o pipefail

dir=${1:-build/interop}
bin=${2:-build/spraynic}
sizes=${INTEROP_SIZES:-1,4096,65536,1048576}
iters=${INTEROP_ITERS:-100}
loss=${INTEROP_LOSS:-0.01}
seed=${INTEROP_SEED:-1}
limit=${INTEROP_TIMEOUT:-900}
climit=${INTEROP_CHECK_TIMEOUT:-900}
tap=${INTEROP_TAP:-spn-interop0}
capture=${INTEROP_CAPTURE:-1}
events=${INTEROP_EVENTS:-0}
host=10.0.3.1 vm=10.0.3.15 ep=10.0.3.2 port=18600

die() { echo "interop: $*" >&2; exit 1; }
. "$(dirname "$0")/checks.sh"
num INTEROP_ITERS "$iters" 1 100000
num INTEROP_TIMEOUT "$limit" 60 86400
num INTEROP_CHECK_TIMEOUT "$climit" 60 86400
num INTEROP_SEED "$seed" 0 999999999
case "$events" in 0|1) ;; *) die "INTEROP_EVENTS=$events: allowed 0 (poll) or 1 (-e)" ;; esac
case "$capture" in 0|1) ;; *) die "INTEROP_CAPTURE=$capture: allowed 0 (no capture) or 1" ;; esac
check_sizes "$sizes"
[ "$nsizes" -le 10 ] || die "INTEROP_SIZES=$sizes: $nsizes sizes (allowed 1..10, one TCP port each)"
# the rates of the lossy rounds: spraynic's --loss takes 0 <= p < 0.5 (beyond that go-back-N barely moves)
case "$loss" in
  ''|,*|*,|*,,*) die "INTEROP_LOSS=$loss: not a comma-separated list of rates (allowed 0 <= p < 0.5 each)" ;;
esac
nloss=0
for p in ${loss//,/ }; do
  awk -v p="$p" 'BEGIN { exit !(p ~ /^([0-9]+|[0-9]*\.[0-9]+)$/ && p + 0 < 0.5) }' ||
    die "INTEROP_LOSS=$loss: $p is not a loss rate (allowed 0 <= p < 0.5 each)"
  nloss=$((nloss + 1))
done
[ "$nloss" -le 8 ] || die "INTEROP_LOSS=$loss: $nloss rates (allowed 1..8: the lossless round and 8 more)"
rounds=$((nloss + 1))
[ "$(id -u)" = 0 ] || die "needs root: it creates the tap $tap and opens an AF_PACKET socket on it"
[ -c /dev/net/tun ] || die "/dev/net/tun is missing: the VM's NIC needs a tap device"
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "qemu-system-x86_64 is missing: run make deps-interop"
[ "$capture" = 0 ] || command -v tshark >/dev/null 2>&1 ||
  die "tshark is missing: run make deps-interop (INTEROP_CAPTURE=0 runs without a capture)"
[ -f "$dir/vmlinuz" ] && [ -f "$dir/initrd.gz" ] || die "no image in $dir: run make interop-image"
[ -x "$bin" ] || die "no spraynic binary at $bin"

# held TAP: whether a process has the tap open (its /dev/net/tun file descriptor names it in fdinfo as "iff:"),
# or the link is up with a carrier (a tap has a carrier only while a process is attached). No pipelines into
# grep -q here: with pipefail, the writer's SIGPIPE would count as a failure.
held() {
  local l
  grep -qsx "iff:[[:space:]]*$1" /proc/[0-9]*/fdinfo/* && return 0
  l=$(ip link show dev "$1" 2>/dev/null) || return 1
  l=${l%%$'\n'*}
  case "$l" in *NO-CARRIER*) return 1 ;; *[,\<]UP[,\>]*) return 0 ;; *) return 1 ;; esac
}
# A tap left by a run that was killed (no process holds it) is removed; one in use, or another kind of
# interface of that name, stops the run.
if ip link show dev "$tap" >/dev/null 2>&1; then
  d=$(ip -d link show dev "$tap" 2>/dev/null || true)
  case "$d" in
    *'tun type tap'*) ;;
    *) die "$tap exists and is not a tap: set INTEROP_TAP to another name or remove it (ip link del $tap)" ;;
  esac
  held "$tap" && die "$tap exists and a process holds it (another make interop?): stopping, the tap is left alone"
  echo "interop: removing the stale tap $tap (left by an earlier run; no process holds it)"
  ip link del "$tap" || die "ip link del $tap failed"
fi

console=$dir/interop-console.log hostlog=$dir/interop-host.log pcap=$dir/interop.pcap sum=$dir/interop.txt
rm -f "$console" "$hostlog" "$pcap" "$sum"
qpid="" tpid="" hpid="" tapmade=""
# every exit path: stop spraynic, qemu and tshark (the timeout wrappers pass TERM on), then remove the tap
cleanup() {
  for p in $hpid $qpid $tpid; do kill "$p" 2>/dev/null || true; done
  for p in $hpid $qpid $tpid; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$p" 2>/dev/null || true
  done
  [ -z "$tapmade" ] || ip link del "$tap" 2>/dev/null || true
}
trap cleanup EXIT
trap 'echo "interop: interrupted" >&2; exit 130' INT
trap 'echo "interop: terminated" >&2; exit 143' TERM
ip tuntap add dev "$tap" mode tap || die "ip tuntap add dev $tap mode tap failed"
tapmade=1
# The host keeps 10.0.3.1 (the TCP exchange); the endpoint's 10.0.3.2 is nobody's on the host, so the kernel
# drops the RoCEv2 frames to it (another MAC) instead of answering them; it forwards nothing and redirects nothing.
sysctl -qw "net.ipv4.conf.$tap.forwarding=0" "net.ipv4.conf.$tap.send_redirects=0" >/dev/null
if [ -d /proc/sys/net/ipv6 ]; then sysctl -qw "net.ipv6.conf.$tap.disable_ipv6=1" >/dev/null; fi
ip addr add "$host/24" dev "$tap"
ip link set "$tap" up

t0=$EPOCHREALTIME
if [ "$capture" != 0 ]; then
  tshark -i "$tap" -B 64 -F pcap -w "$pcap" -q >"$dir/interop-tshark.log" 2>&1 &
  tpid=$!
  sleep 2
  kill -0 "$tpid" 2>/dev/null || die "tshark stopped at once on $tap (see $dir/interop-tshark.log)"
fi
tq=$EPOCHREALTIME
# loglevel=3: only kernel errors on the console, so no kernel message splits an INTEROP- line
append="console=ttyS0 loglevel=3 panic=-1 interop.mode=interop interop.addr=$vm/24 interop.host=$host"
append="$append interop.port=$port interop.rounds=$rounds interop.sizes=$sizes interop.iters=$iters"
append="$append interop.events=$events"
timeout -k 5 "$limit" qemu-system-x86_64 -accel tcg -smp 1 -m 512 -nographic -no-reboot -kernel "$dir/vmlinuz" \
  -initrd "$dir/initrd.gz" -append "$append" -netdev "tap,id=n0,ifname=$tap,script=no,downscript=no" \
  -device virtio-net-pci,netdev=n0,romfile=,mac=52:54:00:12:34:56 </dev/null >"$console" 2>&1 &
qpid=$!
timeout -k 5 "$limit" "$bin" interop run --iface "$tap" --ip "$ep" --host-ip "$host" --peer "$vm" \
  --sizes "$sizes" --iters "$iters" --loss "0,$loss" --seed "$seed" --port "$port" --run-timeout 120s \
  >"$hostlog" 2>&1 &
hpid=$!
# Watch both: the VM's boot time (qemu started -> INTEROP-READY on its console), and spraynic. spraynic exiting 0
# first is normal (the VM still prints its counters and powers off); exiting non-zero first stops the VM.
ready=none hrc="" early=""
while kill -0 "$qpid" 2>/dev/null; do
  if [ "$ready" = none ] && grep -q '^INTEROP-READY' "$console" 2>/dev/null; then
    ready=$(awk -v a="$tq" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  fi
  if [ -n "$hpid" ] && ! kill -0 "$hpid" 2>/dev/null; then
    wait "$hpid" && hrc=0 || hrc=$?
    hpid=""
    if [ "$hrc" != 0 ]; then
      early="spraynic exited with status $hrc while the VM was running (see $hostlog): VM stopped"
      kill "$qpid" 2>/dev/null || true
      break
    fi
  fi
  sleep 0.5
done
wait "$qpid" && qrc=0 || qrc=$?
qpid=""
# the VM is gone: spraynic has at most one run's limit (120 s) and some to finish, then it is stopped
if [ -n "$hpid" ]; then
  for _ in $(seq 300); do kill -0 "$hpid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$hpid" 2>/dev/null; then
    early="spraynic still running 150 s after the VM stopped: stopped (see $hostlog)"
    echo "interop: $early" >&2
    kill "$hpid" 2>/dev/null || true
  fi
  wait "$hpid" && hrc=0 || hrc=$?
  hpid=""
fi
wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
# tshark writes its last frames and exits on SIGINT; after 30 s SIGTERM (handled the same), 5 s later SIGKILL
if [ -n "$tpid" ]; then
  sleep 1
  kill -INT "$tpid" 2>/dev/null || true
  for _ in $(seq 60); do kill -0 "$tpid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$tpid" 2>/dev/null; then
    echo "interop: tshark did not stop within 30 s of SIGINT: sending SIGTERM" >&2
    kill -TERM "$tpid" 2>/dev/null || true
    for _ in $(seq 10); do kill -0 "$tpid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$tpid" 2>/dev/null; then
      echo "interop: tshark still running: killed (the capture may be cut short)" >&2
      kill -KILL "$tpid" 2>/dev/null || true
    fi
  fi
  wait "$tpid" || true
  tpid=""
fi
ip link del "$tap" 2>/dev/null || true
tapmade=""
: >"$sum"
[ -z "$early" ] || echo "interop: $early" | tee -a "$sum"
src=0
timeout -k 10 "$climit" interop/interop-summary.sh "$dir" "$bin" "$qrc" "$hrc" "$wall" "$ready" "$capture" \
  "$rounds" | tee -a "$sum" || src=$?
[ "$src" != 124 ] || echo "interop: FAIL (the summary and capture check did not finish within ${climit} s:" \
  "INTEROP_CHECK_TIMEOUT)" | tee -a "$sum"
grep -q '^interop: PASS' "$sum"

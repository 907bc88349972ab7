#!/usr/bin/env bash
# make interop: spraynic's compatibility-mode endpoint (spraynic interop run) against the unchanged ibv_rc_pingpong
# of the Soft-RoCE peer VM, over a tap, as server and as client, every size, without and with injected loss; tshark
# captures the tap and every RoCEv2 frame of the capture is checked afterwards (docs/interop.md).
# Usage: interop/interop.sh IMAGE_DIR SPRAYNIC_BINARY
# Environment: INTEROP_SIZES=1,4096,65536,1048576; INTEROP_ITERS=100; INTEROP_LOSS=0.01 (the second round's rate);
#   INTEROP_SEED=1; INTEROP_TIMEOUT=900 (seconds, the whole run); INTEROP_TAP=spn-interop0; INTEROP_CAPTURE=1;
#   INTEROP_EVENTS=0 (1: the VM's ibv_rc_pingpong waits on completion events, -e, instead of polling).
# Output in IMAGE_DIR: interop-console.log, interop-host.log, interop.pcap, interop.txt (the summary).
set -eu

dir=${1:-build/interop}
bin=${2:-build/spraynic}
sizes=${INTEROP_SIZES:-1,4096,65536,1048576}
iters=${INTEROP_ITERS:-100}
loss=${INTEROP_LOSS:-0.01}
seed=${INTEROP_SEED:-1}
limit=${INTEROP_TIMEOUT:-900}
tap=${INTEROP_TAP:-spn-interop0}
capture=${INTEROP_CAPTURE:-1}
events=${INTEROP_EVENTS:-0}
host=10.0.3.1 vm=10.0.3.15 ep=10.0.3.2 port=18600

die() { echo "interop: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root: it creates the tap $tap and opens an AF_PACKET socket on it"
[ -c /dev/net/tun ] || die "/dev/net/tun is missing: the VM's NIC needs a tap device"
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "qemu-system-x86_64 is missing: run make deps-interop"
[ "$capture" = 0 ] || command -v tshark >/dev/null 2>&1 || die "tshark is missing (INTEROP_CAPTURE=0 runs without a capture)"
[ -f "$dir/vmlinuz" ] && [ -f "$dir/initrd.gz" ] || die "no image in $dir: run make interop-image"
[ -x "$bin" ] || die "no spraynic binary at $bin"
case "$iters" in ''|*[!0-9]*) die "INTEROP_ITERS=$iters: not a whole number (allowed 1..100000)" ;; esac
case "$limit" in ''|*[!0-9]*) die "INTEROP_TIMEOUT=$limit: not a whole number of seconds (allowed 60..86400)" ;; esac
case "$events" in 0|1) ;; *) die "INTEROP_EVENTS=$events: allowed 0 (poll) or 1 (-e)" ;; esac
case "$seed" in ''|*[!0-9]*) die "INTEROP_SEED=$seed: not a whole number" ;; esac
[ "$limit" -ge 60 ] && [ "$limit" -le 86400 ] || die "INTEROP_TIMEOUT=$limit: allowed 60..86400 seconds"
ip link show "$tap" >/dev/null 2>&1 && die "$tap exists already (another run? remove it with: ip link del $tap)"

console=$dir/interop-console.log hostlog=$dir/interop-host.log pcap=$dir/interop.pcap sum=$dir/interop.txt
rm -f "$console" "$hostlog" "$pcap" "$sum"
qpid="" tpid="" hpid=""
cleanup() {
  for p in $hpid $qpid $tpid; do kill "$p" 2>/dev/null || true; done
  ip link del "$tap" 2>/dev/null || true
}
trap cleanup EXIT
ip tuntap add dev "$tap" mode tap || die "ip tuntap add dev $tap mode tap failed"
# The host keeps 10.0.3.1 (the TCP exchange); the endpoint's 10.0.3.2 is nobody's on the host, so the kernel
# drops the RoCEv2 frames to it (another MAC) instead of answering them; it forwards nothing and redirects nothing.
sysctl -qw "net.ipv4.conf.$tap.forwarding=0" "net.ipv4.conf.$tap.send_redirects=0" \
  "net.ipv6.conf.$tap.disable_ipv6=1" >/dev/null
ip addr add "$host/24" dev "$tap"
ip link set "$tap" up

t0=$EPOCHREALTIME
if [ "$capture" != 0 ]; then
  tshark -i "$tap" -B 64 -F pcap -w "$pcap" -q >"$dir/interop-tshark.log" 2>&1 &
  tpid=$!
  sleep 2
fi
tq=$EPOCHREALTIME
append="console=ttyS0 panic=-1 interop.mode=interop interop.addr=$vm/24 interop.host=$host interop.port=$port"
append="$append interop.rounds=2 interop.sizes=$sizes interop.iters=$iters interop.events=$events"
timeout -k 5 "$limit" qemu-system-x86_64 -accel tcg -smp 1 -m 512 -nographic -no-reboot -kernel "$dir/vmlinuz" \
  -initrd "$dir/initrd.gz" -append "$append" -netdev "tap,id=n0,ifname=$tap,script=no,downscript=no" \
  -device virtio-net-pci,netdev=n0,romfile=,mac=52:54:00:12:34:56 </dev/null >"$console" 2>&1 &
qpid=$!
timeout -k 5 "$limit" "$bin" interop run --iface "$tap" --ip "$ep" --host-ip "$host" --peer "$vm" \
  --sizes "$sizes" --iters "$iters" --loss "0,$loss" --seed "$seed" --port "$port" --run-timeout 120s >"$hostlog" 2>&1 &
hpid=$!
# the VM's boot time: qemu started -> INTEROP-READY on its console
ready=none
while kill -0 "$qpid" 2>/dev/null; do
  if [ "$ready" = none ] && grep -q '^INTEROP-READY' "$console" 2>/dev/null; then
    ready=$(awk -v a="$tq" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  fi
  sleep 0.5
done
wait "$qpid" && qrc=0 || qrc=$?
qpid=""
wait "$hpid" && hrc=0 || hrc=$?
hpid=""
wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
if [ -n "$tpid" ]; then sleep 1; kill -INT "$tpid" 2>/dev/null || true; wait "$tpid" || true; tpid=""; fi
interop/interop-summary.sh "$dir" "$bin" "$qrc" "$hrc" "$wall" "$ready" "$capture" | tee "$sum"
grep -q '^interop: PASS' "$sum"

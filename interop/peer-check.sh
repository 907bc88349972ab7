#!/usr/bin/env bash
# Boots the Soft-RoCE peer image (interop/build-image.sh) under qemu-system-x86_64 with software emulation (TCG)
# and checks its self-test: rdma_rxe loaded, rxe0 on the virtio NIC, ibv_rc_pingpong server and client inside
# the VM over its own IPv4 address for each size. Parses the serial console (INTEROP- lines of interop/init),
# prints the boot times and one line per size, and exits non-zero on any failure or on the timeout.
#
# Usage: interop/peer-check.sh [IMAGE_DIR]   (default build/interop)
# Environment: INTEROP_NET=user (default) or tap; INTEROP_SIZES=1,4096,65536,1048576; INTEROP_ITERS=200;
#   INTEROP_GID=auto (the GID index for -g; auto: the IPv4-mapped GID of the VM's address);
#   INTEROP_PERFTEST=65536 (size of the ib_write_bw and ib_write_lat runs; 0: none);
#   INTEROP_TIMEOUT=600 (seconds for the whole boot and test); INTEROP_MEM=512 (MiB); INTEROP_SMP=1;
#   INTEROP_MODE=shell boots the same VM to a shell on the console instead (no checks, no timeout);
#   INTEROP_TAP=spn-peer0 (tap mode: the host interface, created and removed here; needs root and /dev/net/tun).
# Output: IMAGE_DIR/console.log (the whole serial console), IMAGE_DIR/peer-check.txt (the parsed figures).
set -eu

dir=${1:-build/interop}
net=${INTEROP_NET:-user}
sizes=${INTEROP_SIZES:-1,4096,65536,1048576}
gid=${INTEROP_GID:-auto}
perf=${INTEROP_PERFTEST:-65536}
iters=${INTEROP_ITERS:-200}
limit=${INTEROP_TIMEOUT:-600}
mem=${INTEROP_MEM:-512}
smp=${INTEROP_SMP:-1}
tap=${INTEROP_TAP:-spn-peer0}

die() { echo "interop-peer-check: $*" >&2; exit 1; }
. "$(dirname "$0")/checks.sh"
num INTEROP_ITERS "$iters" 1 100000
num INTEROP_TIMEOUT "$limit" 10 86400
num INTEROP_MEM "$mem" 256 65536
num INTEROP_SMP "$smp" 1 64
num INTEROP_PERFTEST "$perf" 0 16777216
[ "$gid" = auto ] || num INTEROP_GID "$gid" 0 255
check_sizes "$sizes"
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "qemu-system-x86_64 is missing: run make deps-interop (Debian package qemu-system-x86)"
[ -f "$dir/vmlinuz" ] && [ -f "$dir/initrd.gz" ] || die "no image in $dir: run make interop-image"

case "$net" in
  user)
    # User-mode networking: the self-test's traffic stays inside the VM (rxe loops frames to its own address
    # back in the kernel), so the NIC only has to exist; restrict=on keeps the guest from reaching anything.
    netdev="user,id=n0,restrict=on" ;;
  tap)
    [ -c /dev/net/tun ] || die "/dev/net/tun is missing: tap mode needs the tun driver (INTEROP_NET=user needs neither)"
    [ "$(id -u)" = 0 ] || die "tap mode creates $tap and needs root (INTEROP_NET=user does not)"
    ip tuntap add dev "$tap" mode tap || die "ip tuntap add dev $tap mode tap failed"
    trap 'ip link del "$tap" 2>/dev/null || true' EXIT
    ip link set "$tap" up
    netdev="tap,id=n0,ifname=$tap,script=no,downscript=no" ;;
  *) die "INTEROP_NET=$net: user or tap" ;;
esac

if [ "${INTEROP_MODE:-selftest}" = shell ]; then
  # The same VM up to rxe0, then a busybox shell on the serial console (Ctrl-A X quits qemu); nothing is checked.
  # not exec: tap mode's EXIT trap removes the tap afterwards
  qemu-system-x86_64 -accel tcg -smp "$smp" -m "$mem" -nographic -no-reboot -kernel "$dir/vmlinuz" \
    -initrd "$dir/initrd.gz" -append "console=ttyS0 panic=-1 interop.mode=shell" \
    -netdev "$netdev" -device virtio-net-pci,netdev=n0,romfile=
  exit 0
fi

log=$dir/console.log
res=$dir/peer-check.txt
append="console=ttyS0 panic=-1 printk.time=1 interop.sizes=$sizes interop.iters=$iters interop.gid=$gid interop.perftest=$perf"
echo "interop-peer-check: qemu-system-x86_64 -accel tcg -smp $smp -m $mem, $net networking, sizes $sizes x $iters iterations, timeout ${limit}s"
: >"$log"
t0=$EPOCHREALTIME
t_linux=""
t_ready=""
# qemu's output line by line, each line timed on arrival; the timeout ends qemu, and so the loop.
while IFS= read -r line; do
  line=${line%$'\r'}
  printf '%s\n' "$line" >>"$log"
  case "$line" in
    *"Linux version"*) [ -n "$t_linux" ] || t_linux=$EPOCHREALTIME ;;
    INTEROP-READY*) t_ready=$EPOCHREALTIME ;;
  esac
  case "$line" in INTEROP-*) echo "  $line" ;; esac
done < <(timeout --foreground -k 5 "$limit" qemu-system-x86_64 -accel tcg -smp "$smp" -m "$mem" \
  -nographic -no-reboot -kernel "$dir/vmlinuz" -initrd "$dir/initrd.gz" -append "$append" \
  -netdev "$netdev" -device virtio-net-pci,netdev=n0,romfile= </dev/null 2>&1 && rc=0 || rc=$?; echo; echo "QEMU-EXIT rc=$rc")
t1=$EPOCHREALTIME

qrc=$(sed -n 's/^QEMU-EXIT rc=//p' "$log" | tail -n1)
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
ready_wall=none
[ -z "$t_ready" ] || ready_wall=$(awk -v a="$t0" -v b="$t_ready" 'BEGIN { printf "%.1f", b - a }')
linux_ready=none
[ -z "$t_ready" ] || [ -z "$t_linux" ] || linux_ready=$(awk -v a="$t_linux" -v b="$t_ready" 'BEGIN { printf "%.1f", b - a }')
guest_ready=$(sed -n 's/^INTEROP-READY uptime=\([0-9.]*\).*/\1/p' "$log" | head -n1)
{
  echo "qemu_rc: ${qrc:-none}"
  echo "wall_seconds: $wall"
  echo "qemu_start_to_ready_seconds: $ready_wall"
  echo "kernel_banner_to_ready_seconds: $linux_ready"
  echo "guest_uptime_at_ready_seconds: ${guest_ready:-none}"
  grep -E '^INTEROP-(GID|PINGPONG|PERFTEST|COUNTERS|FAIL|DONE)' "$log" || true
} >"$res"

if [ -n "$guest_ready" ]; then
  echo "interop-peer-check: boot: kernel start to init ready ${guest_ready}s by the guest clock," \
    "${linux_ready}s from the kernel banner on the host clock, ${ready_wall}s from starting qemu; wall ${wall}s"
else
  echo "interop-peer-check: the VM never reported ready; wall ${wall}s"
fi
ok=1
case "${qrc:-none}" in
  0) ;;
  124|137) ok=0; echo "interop-peer-check: timeout: qemu stopped after ${limit}s (INTEROP_TIMEOUT; see $log)" >&2 ;;
  *) ok=0; echo "interop-peer-check: qemu exited with status ${qrc:-none} (see $log)" >&2 ;;
esac
grep -q '^INTEROP-FAIL' "$log" && { ok=0; grep '^INTEROP-FAIL' "$log" | sed 's/^/interop-peer-check: /' >&2; }
grep -q '^INTEROP-DONE status=ok' "$log" || ok=0
n=0
for s in $(echo "$sizes" | tr , ' '); do
  l=$(grep -E "^INTEROP-PINGPONG size=$s " "$log" | head -n1 || true)
  if [ -z "$l" ]; then echo "interop-peer-check: size $s: no result" >&2; ok=0; continue; fi
  case "$l" in *status=ok*) n=$((n + 1)) ;; *) ok=0 ;; esac
done
np=$(grep -c '^INTEROP-PERFTEST .*status=ok' "$log" || true)
grep -q '^INTEROP-PERFTEST .*status=fail' "$log" && ok=0
echo "interop-peer-check: $n of $(echo "$sizes" | tr , '\n' | wc -l) sizes passed, $np perftest RDMA WRITE runs passed;" \
  "console in $log, figures in $res"
[ $ok = 1 ] || { echo "interop-peer-check: FAILED" >&2; exit 1; }
echo "interop-peer-check: ok"

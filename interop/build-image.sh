#!/usr/bin/env bash
# Builds the Linux Soft-RoCE peer image from Debian packages only: the distribution kernel (vmlinuz) and an
# initramfs (cpio newc + gzip) holding busybox, the rdma_rxe module and its dependencies, the verbs library with
# the rxe provider, ibverbs-utils, perftest and iproute2 (`ip`, `rdma`), and interop/init as /init.
#
# Usage: interop/build-image.sh [OUT]   (OUT defaults to build/interop)
# Output: OUT/vmlinuz, OUT/initrd.gz, OUT/image.txt (package versions, sizes, build time), OUT/root/ (the
# initramfs tree), OUT/debs/ (the downloaded packages, reused while their versions are the candidates).
# Needs: apt-get, apt-cache, dpkg-deb, cpio, gzip, readelf (the Makefile's deps-interop installs them), and
# Debian's package lists (apt-get update, run here when root). Downloads nothing but Debian packages.
# The outputs are written under temporary names and renamed at the end, initrd.gz last: a build that fails
# leaves the previous files (older than what changed, so make builds again) or none.
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/interop}
start=$(date +%s.%N)

for t in apt-get apt-cache dpkg-deb cpio gzip readelf; do
  command -v "$t" >/dev/null 2>&1 || { echo "interop-image: $t is missing: run make deps-interop" >&2; exit 1; }
done

# The package lists: without them apt-cache knows no candidate.
# (no pipe into grep -q under pipefail: the writer's SIGPIPE would read as "no candidate")
pol=$(apt-cache policy linux-image-amd64 2>/dev/null || true)
if ! grep -q 'Candidate: [0-9]' <<<"$pol"; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
  else
    echo "interop-image: apt has no package lists: run sudo apt-get update" >&2; exit 1
  fi
fi

# linux-image-amd64 is a metapackage: take the kernel package it depends on.
kpkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | sed -n 1p)
[ -n "$kpkg" ] || { echo "interop-image: cannot resolve linux-image-amd64 to a kernel package" >&2; exit 1; }
kver=${kpkg#linux-image-}

pkgs=""
while read -r p; do
  case "$p" in ''|'#'*) continue ;; linux-image-amd64) p=$kpkg ;; esac
  pkgs="$pkgs $p"
done <"$here/packages.txt"

# Each package's candidate version, from one apt-cache call (each call reads the whole cache: about a second).
declare -A ver=()
pk=""
while IFS= read -r l; do
  case "$l" in
    [a-z0-9]*:) pk=${l%:} ;;
    *"Candidate: "*) ver[$pk]=${l##*Candidate: } ;;
  esac
done < <(apt-cache policy $pkgs)

# Download each package's candidate version once; a new candidate is fetched on the next build.
mkdir -p "$out/debs"
debs=""
fetch=""
for p in $pkgs; do
  v=${ver[$p]:-}
  [ -n "$v" ] && [ "$v" != "(none)" ] || { echo "interop-image: no candidate for Debian package $p" >&2; exit 1; }
  ls "$out/debs/${p}_${v//:/%3a}_"*.deb >/dev/null 2>&1 || fetch="$fetch $p=$v"
done
if [ -n "$fetch" ]; then
  echo "interop-image: apt-get download$fetch"
  # apt warns that root downloads unsandboxed into a directory _apt cannot write: expected, not an error.
  (cd "$out/debs" && apt-get download -q $fetch 2>&1 | grep -v -e unsandboxed -e '^Get:' -e '^Fetched' || true)
fi
for p in $pkgs; do
  v=${ver[$p]}
  f=$(ls "$out/debs/${p}_${v//:/%3a}_"*.deb 2>/dev/null | head -n1 || true)
  [ -n "$f" ] || { echo "interop-image: download of $p=$v failed" >&2; exit 1; }
  debs="$debs $f"
done

# Unpack every package into a staging tree, then copy what the image needs into root/.
stage=$out/stage
root=$out/root
rm -rf "$stage" "$root"
mkdir -p "$stage" "$root"
for f in $debs; do dpkg-deb -x "$f" "$stage"; done
bb=$stage/bin/busybox
[ -x "$bb" ] || { echo "interop-image: busybox-static did not provide bin/busybox" >&2; exit 1; }

mkdir -p "$root"/{bin,usr/bin,lib64,lib/x86_64-linux-gnu,usr/lib/x86_64-linux-gnu/libibverbs,etc/libibverbs.d,proc,sys,dev,tmp,run}
cp "$bb" "$root/bin/busybox"
cp "$here/init" "$root/init"
chmod 755 "$root/init"

# Programs: verbs utilities, perftest's RC tests, iproute2's ip and rdma. They go to /usr/bin, ahead of
# busybox's applets in PATH.
progs="usr/bin/ibv_devices usr/bin/ibv_devinfo usr/bin/ibv_rc_pingpong usr/bin/ibv_ud_pingpong
  usr/bin/ib_send_lat usr/bin/ib_send_bw usr/bin/ib_write_lat usr/bin/ib_write_bw usr/bin/ib_read_lat
  usr/bin/ib_read_bw bin/ip usr/bin/rdma"
elfs=""
for p in $progs; do
  [ -f "$stage/$p" ] || { echo "interop-image: $p is not in the packages" >&2; exit 1; }
  cp "$stage/$p" "$root/usr/bin/"
  elfs="$elfs $stage/$p"
done
# The rxe verbs provider, loaded by libibverbs through /etc/libibverbs.d/rxe.driver.
prov=$(ls "$stage"/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav*.so)
cp "$prov" "$root/usr/lib/x86_64-linux-gnu/libibverbs/"
cp "$stage/etc/libibverbs.d/rxe.driver" "$root/etc/libibverbs.d/"
elfs="$elfs $prov"

# Shared libraries: the closure of DT_NEEDED over the staged library directories. A library that none of the
# packages provides stops the build with its name.
libdirs="$stage/lib/x86_64-linux-gnu $stage/usr/lib/x86_64-linux-gnu"
declare -A seen=()
queue="$elfs"
while [ -n "${queue// /}" ]; do
  next=""
  for e in $queue; do
    for so in $(readelf -d "$e" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      [ -z "${seen[$so]:-}" ] || continue
      found=""
      for d in $libdirs; do [ -e "$d/$so" ] && { found=$d/$so; break; }; done
      [ -n "$found" ] || { echo "interop-image: $so (needed by ${e#"$stage"/}) is in none of interop/packages.txt" >&2; exit 1; }
      seen[$so]=$found
      cp -L "$found" "$root/lib/x86_64-linux-gnu/$so"
      next="$next $found"
    done
  done
  queue=$next
done
cp -L "$stage/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$root/lib64/ld-linux-x86-64.so.2"

# Kernel modules: busybox's depmod over the whole staged tree, then the closure of the modules the init loads,
# then depmod again over the image's tree (busybox's modprobe reads its modules.dep).
want="virtio_pci virtio_net rdma_rxe crc32_generic"
kmods=lib/modules/$kver
[ -d "$stage/$kmods" ] || { echo "interop-image: $kpkg has no $kmods" >&2; exit 1; }
"$bb" depmod -b "$stage" "$kver"
mods=""
for m in $want; do
  line=$(grep -E "(^|/)$m\.ko:" "$stage/$kmods/modules.dep" || true)
  [ -n "$line" ] || { echo "interop-image: module $m is not in $kpkg" >&2; exit 1; }
  mods="$mods $(echo "$line" | tr -d :)"
done
for m in $(echo $mods | tr ' ' '\n' | sort -u); do
  mkdir -p "$root/$kmods/$(dirname "$m")"
  cp "$stage/$kmods/$m" "$root/$kmods/$m"
done
cp "$stage/$kmods/modules.builtin" "$stage/$kmods/modules.order" "$root/$kmods/" 2>/dev/null || true
"$bb" depmod -b "$root" "$kver"

tmp=$out/.tmp.$$
trap 'rm -f "$tmp".*' EXIT
cp "$stage/boot/vmlinuz-$kver" "$tmp.vmlinuz"
# The kernel opens /dev/console for /init before anything is mounted, so the archive carries that node. mknod
# would need root: a second newc archive written here holds it, and the kernel unpacks both in turn.
newc() { # name mode rdevmajor rdevminor
  local n=$(( ${#1} + 1 ))
  printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' 0 "$2" 0 0 1 0 0 0 0 "$3" "$4" "$n" 0
  printf '%s\0' "$1"
  head -c $(( (4 - (110 + n) % 4) % 4 )) /dev/zero
}
# Every time 0, names sorted, owner 0, inodes renumbered, gzip -n: the same packages give the same initrd.gz.
find "$root" -exec touch -h -d @0 {} +
{
  (cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 --renumber-inodes --ignore-devno)
  newc dev/console $((0020600)) 5 1
  newc TRAILER!!! 0 0 0
} | gzip -9 -n >"$tmp.initrd.gz"

# The staging tree is the whole kernel package unpacked (about 430 MB); root/ keeps what went into the image.
rm -rf "$stage"
end=$(date +%s.%N)
{
  for p in $pkgs; do echo "package: $p ${ver[$p]}"; done
  echo "modules: $(cd "$root/$kmods" && find . -name '*.ko' | sed 's|.*/||; s|\.ko$||' | sort | tr '\n' ' ')"
  echo "libraries: $(ls "$root/lib/x86_64-linux-gnu" | tr '\n' ' ')"
  echo "vmlinuz_bytes: $(stat -c %s "$tmp.vmlinuz")"
  echo "initrd_bytes: $(stat -c %s "$tmp.initrd.gz")"
  echo "vmlinuz_sha256: $(sha256sum "$tmp.vmlinuz" | cut -d' ' -f1)"
  echo "initrd_sha256: $(sha256sum "$tmp.initrd.gz" | cut -d' ' -f1)"
  echo "root_bytes: $(du -sb "$root" | cut -f1)"
  echo "debs_bytes: $(du -cb $debs | tail -n1 | cut -f1)"
  echo "build_seconds: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
} >"$tmp.image.txt"
mv -f "$tmp.vmlinuz" "$out/vmlinuz"
mv -f "$tmp.image.txt" "$out/image.txt"
mv -f "$tmp.initrd.gz" "$out/initrd.gz"
echo "interop-image: $out/vmlinuz ($(du -h "$out/vmlinuz" | cut -f1)), $out/initrd.gz ($(du -h "$out/initrd.gz" | cut -f1)); details in $out/image.txt"

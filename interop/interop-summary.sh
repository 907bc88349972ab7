#!/usr/bin/env bash
# The summary of make interop (interop/interop.sh): the VM's and spraynic's lines per run, retransmissions on
# both sides, the capture check. Usage: interop-summary.sh DIR BIN QEMU_RC HOST_RC WALL READY CAPTURE.
# The last line is "interop: PASS" or "interop: FAIL (reasons)".
set -u
dir=$1 bin=$2 qrc=$3 hrc=$4 wall=$5 ready=$6 capture=$7
console=$dir/interop-console.log hostlog=$dir/interop-host.log pcap=$dir/interop.pcap
fail=""
echo "interop: wall ${wall}s; VM boot (qemu start to rxe0 ready) ${ready}s; qemu rc=$qrc; spraynic rc=$hrc"
grep -m1 '^interop: seed=' "$hostlog" || true
echo "interop: runs (VM side: ibv_rc_pingpong -c; host side: spraynic interop run)"
printf '  %-5s %-9s %-8s %-6s %-5s %-7s %-9s %-12s %-12s %-10s %-9s %s\n' round vm_role size iters vm host \
  received data_err retx_ours rxe_retries rxe_dups wall_s
n=0
while read -r line; do
  eval "$(echo "$line" | tr ' ' '\n' | grep '=' | sed 's/^\([a-z_]*\)=\(.*\)$/v_\1="\2"/')"
  n=$((n + 1))
  # spraynic's role is the VM's opposite; its n-th line is the same run
  h=$(grep '^INTEROP-HOST ' "$hostlog" | sed -n "${n}p")
  hst=$(echo "$h" | sed -n 's/.* status=\([a-z]*\).*/\1/p')
  rcv=$(echo "$h" | sed -n 's/.* received=\([0-9]*\).*/\1/p')
  de=$(echo "$h" | sed -n 's/.* data_errors=\([0-9]*\).*/\1/p')
  rt=$(echo "$h" | sed -n 's/.* retransmitted=\([0-9]*\).*/\1/p')
  hw=$(echo "$h" | sed -n 's/.* wall_s=\([0-9.]*\).*/\1/p')
  printf '  %-5s %-9s %-8s %-6s %-5s %-7s %-9s %-12s %-12s %-10s %-9s %s\n' "$v_round" "$v_vm_role" "$v_size" \
    "$v_iters" "$v_status" "${hst:-none}" "${rcv:-none}" "${de:-none}" "${rt:-none}" "$v_rxe_retries" \
    "$v_rxe_dup_requests" "${hw:-none}"
  [ "$v_status" = ok ] && [ "$hst" = ok ] || fail="$fail run$n"
done < <(grep '^INTEROP-PINGPONG ' "$console")
sizes=$(grep -m1 '^interop: seed=' "$hostlog" | sed -n 's/.* sizes=\([^ ]*\).*/\1/p')
want=$((4 * $(echo "${sizes:-x}" | tr , '\n' | wc -l)))
[ "$n" = "$want" ] || fail="$fail runs=$n/$want"
grep '^INTEROP-HOST ' "$hostlog" | grep -v 'status=ok' | sed 's/^/  host failure: /'
grep -m1 '^INTEROP-HOST-DONE' "$hostlog" | sed 's/^/  /'
grep -m1 '^INTEROP-COUNTERS' "$console" | sed 's/^/  /'
grep -q '^INTEROP-DONE status=ok' "$console" || fail="$fail vm-not-done"
[ "$qrc" = 0 ] || fail="$fail qemu-rc=$qrc"
[ "$hrc" = 0 ] || fail="$fail spraynic-rc=$hrc"
if [ "$capture" != 0 ]; then
  echo "interop: capture $pcap ($(stat -c %s "$pcap" 2>/dev/null || echo 0) bytes)"
  "$bin" interop check "$pcap" | sed 's/^/  /' || fail="$fail capture-check"
  # tshark's own dissectors (eth, ip, udp, infiniband) over every frame, one pass: RoCEv2 frames, and frames
  # malformed or with an expert error (severity >= 0x800000). Its RPC-over-RDMA heuristic claims SEND payloads
  # that are not RPC (it flags every 1-byte SEND Only, either side's, as malformed), so it is disabled.
  read -r ib mal < <(tshark -r "$pcap" --disable-protocol rpcordma \
    -Y 'infiniband || _ws.malformed || _ws.expert.severity >= "error"' -T fields -e infiniband.bth.opcode \
    -e _ws.expert.severity 2>/dev/null | awk -F'\t' '{ if ($1 != "") ib++; n = split($2, s, ",");
      for (i = 1; i <= n; i++) if (s[i] + 0 >= 8388608) { bad++; break } } END { print ib + 0, bad + 0 }')
  echo "  tshark: infiniband_frames=$ib malformed_or_error=$mal"
  [ "$mal" = 0 ] || fail="$fail tshark-malformed=$mal"
  grep -i 'dropped' "$dir/interop-tshark.log" | sed 's/^/  tshark: /'
fi
if [ -z "$fail" ]; then echo "interop: PASS"; else echo "interop: FAIL ($fail )"; fi

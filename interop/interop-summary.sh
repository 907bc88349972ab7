#!/usr/bin/env bash
# The summary of make interop (interop/interop.sh): the VM's and spraynic's lines per run, retransmissions on
# both sides, the host socket's drops, the capture check. Usage: interop-summary.sh DIR BIN QEMU_RC HOST_RC WALL
# READY CAPTURE ROUNDS. The last line is "interop: PASS" or "interop: FAIL (reasons)".
set -u
dir=$1 bin=$2 qrc=$3 hrc=$4 wall=$5 ready=$6 capture=$7 rounds=$8
console=$dir/interop-console.log hostlog=$dir/interop-host.log pcap=$dir/interop.pcap
fail=""
echo "interop: wall ${wall}s; VM boot (qemu start to rxe0 ready) ${ready}s; qemu rc=$qrc; spraynic rc=$hrc"
grep -m1 '^interop: seed=' "$hostlog" || true
grep -m1 '^interop: socket ' "$hostlog" || true
echo "interop: runs (VM side: ibv_rc_pingpong -c; host side: spraynic interop run)"
printf '  %-5s %-9s %-8s %-6s %-5s %-7s %-9s %-12s %-12s %-10s %-9s %-10s %s\n' round vm_role size iters vm host \
  received data_err retx_ours rxe_retries rxe_dups sock_drops wall_s
n=0 sockdrops=""
while read -r line; do
  eval "$(echo "$line" | tr ' ' '\n' | grep '=' | sed 's/^\([a-z0-9_]*\)=\(.*\)$/v_\1="\2"/')"
  n=$((n + 1))
  # spraynic's role is the VM's opposite; its n-th line is the same run
  h=$(grep '^INTEROP-HOST ' "$hostlog" | sed -n "${n}p")
  hst=$(echo "$h" | sed -n 's/.* status=\([a-z]*\).*/\1/p')
  rcv=$(echo "$h" | sed -n 's/.* received=\([0-9]*\).*/\1/p')
  de=$(echo "$h" | sed -n 's/.* data_errors=\([0-9]*\).*/\1/p')
  rt=$(echo "$h" | sed -n 's/.* retransmitted=\([0-9]*\).*/\1/p')
  hw=$(echo "$h" | sed -n 's/.* wall_s=\([0-9.]*\).*/\1/p')
  sd=$(echo "$h" | sed -n 's/.* socket_drops=\(-*[0-9]*\).*/\1/p')
  printf '  %-5s %-9s %-8s %-6s %-5s %-7s %-9s %-12s %-12s %-10s %-9s %-10s %s\n' "$v_round" "$v_vm_role" "$v_size" \
    "$v_iters" "$v_status" "${hst:-none}" "${rcv:-none}" "${de:-none}" "${rt:-none}" "$v_rxe_retries" \
    "$v_rxe_dup_requests" "${sd:-none}" "${hw:-none}"
  if [ "$v_status" != ok ] || [ "$hst" != ok ]; then
    fail="$fail run$n"
    echo "  run$n in the VM: rxe sent ${v_rxe_pkts:-?} packets, eth0 sent ${v_eth0_tx_pkts:-?} and received" \
      "${v_eth0_rx_pkts:-?}"
  fi
  # frames the host's AF_PACKET socket lost (its receive buffer full): the host's loss, not the peer's; shown,
  # not failed, but named when the round was meant to be lossless
  if [ "${sd:-0}" -gt 0 ] 2>/dev/null && [ "$v_round" = 0 ]; then
    sockdrops="$sockdrops run$n:$sd"
  fi
done < <(grep '^INTEROP-PINGPONG ' "$console")
sizes=$(grep -m1 '^interop: seed=' "$hostlog" | sed -n 's/.* sizes=\([^ ]*\).*/\1/p')
want=$((2 * rounds * $(echo "${sizes:-x}" | tr , '\n' | wc -l)))
[ "$n" = "$want" ] || fail="$fail runs=$n/$want"
grep '^INTEROP-HOST ' "$hostlog" | grep -v 'status=ok' | sed 's/^/  host failure: /'
grep -m1 '^INTEROP-HOST-DONE' "$hostlog" | sed 's/^/  /'
grep -m1 '^INTEROP-COUNTERS' "$console" | sed 's/^/  /'
if [ -n "$sockdrops" ]; then
  echo "interop: NOTE the host's AF_PACKET socket dropped frames in the lossless round (receive buffer full;" \
    "the host's loss, not the peer's; rcvbuf in the socket line):$sockdrops"
fi
grep -q '^INTEROP-DONE status=ok' "$console" || fail="$fail vm-not-done"
[ "$qrc" = 0 ] || fail="$fail qemu-rc=$qrc"
[ "$hrc" = 0 ] || fail="$fail spraynic-rc=$hrc"
if [ "$capture" != 0 ]; then
  echo "interop: capture $pcap ($(stat -c %s "$pcap" 2>/dev/null || echo 0) bytes)"
  # tshark's own count at the end of the capture: any frame the kernel or dumpcap dropped is missing from it
  # ("N packets dropped from IFACE", or dumpcap's "Packets received/dropped on interface 'IFACE': R/D")
  cap_drops=$(grep -o -E '[0-9]+ packets? dropped|received/dropped on interface[^:]*: [0-9]+/[0-9]+' \
    "$dir/interop-tshark.log" 2>/dev/null | sed -E 's|.*/||; s| packets? dropped||' |
    awk '$1 + 0 > n { n = $1 + 0 } END { print n + 0 }')
  sed -n '/captured\|dropped/s/^/  tshark capture: /p' "$dir/interop-tshark.log" 2>/dev/null
  if [ "$cap_drops" != 0 ]; then
    echo "interop: capture incomplete: tshark reports $cap_drops dropped frames ($dir/interop-tshark.log)"
    fail="$fail capture-dropped=$cap_drops"
  fi
  # spraynic's check: every RoCEv2 frame parsed and its ICRC recomputed; its exit status decides
  check=$dir/interop-check.txt
  "$bin" interop check "$pcap" >"$check" 2>&1 && crc=0 || crc=$?
  sed 's/^/  /' "$check"
  roce=$(sed -n 's/^INTEROP-CAPTURE .* roce=\([0-9]*\) .*/\1/p' "$check")
  if [ "$crc" != 0 ]; then
    echo "interop: capture check failed: spraynic interop check exited $crc ($check)"
    fail="$fail capture-check=$crc"
  fi
  # tshark's own dissectors (eth, ip, udp, infiniband) over every frame, one pass: RoCEv2 frames, and frames
  # malformed or with an expert error (severity >= 0x800000). Its RPC-over-RDMA heuristic claims SEND payloads
  # that are not RPC (it flags every 1-byte SEND Only, either side's, as malformed), so it is disabled.
  fields=$dir/interop-tshark-fields.txt terr=$dir/interop-tshark-check.log
  tshark -r "$pcap" --disable-protocol rpcordma \
    -Y 'infiniband || _ws.malformed || _ws.expert.severity >= "error"' -T fields -e infiniband.bth.opcode \
    -e _ws.expert.severity >"$fields" 2>"$terr" && trc=0 || trc=$?
  read -r ib mal < <(awk -F'\t' '{ if ($1 != "") ib++; n = split($2, s, ",");
      for (i = 1; i <= n; i++) if (s[i] + 0 >= 8388608) { bad++; break } } END { print ib + 0, bad + 0 }' "$fields")
  rm -f "$fields"
  echo "  tshark: infiniband_frames=$ib malformed_or_error=$mal exit=$trc"
  if [ "$trc" != 0 ]; then
    echo "interop: tshark failed reading the capture: exit $trc ($terr: $(head -c 200 "$terr" | tr '\n' ' '))"
    fail="$fail tshark-rc=$trc"
  elif [ "$ib" != "${roce:-none}" ]; then
    echo "interop: tshark and spraynic disagree on the capture: $ib infiniband frames, spraynic's roce=${roce:-none}"
    fail="$fail tshark-count=$ib/${roce:-none}"
  fi
  [ "$mal" = 0 ] || fail="$fail tshark-malformed=$mal"
fi
if [ -z "$fail" ]; then echo "interop: PASS"; else echo "interop: FAIL ($fail )"; fi

// Package roce is the spraynic wire format: RoCEv2 (Ethernet II / IPv4 / UDP 4791 / BTH) carrying the spray
// extension header on data packets and AETH + SACK extension on ACK/NAK packets, with the IBTA invariant CRC.
// docs/protocol.md is the specification; this package implements it as gopacket layers plus Build/Parse helpers.
package roce

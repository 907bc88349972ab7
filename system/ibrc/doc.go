// Package ibrc is spraynic's RoCEv2 compatibility mode: one plain IBTA Reliable Connected queue pair (SEND First,
// Middle, Last, Only; AETH ACK/NAK with a real MSN; the IBTA PSN rules; go-back-N), without the spray and SACK
// extensions, so that an unchanged RoCEv2 stack such as Linux rxe can talk to it (docs/interop.md). The endpoint
// is a deterministic model: it reads no clock; every call that depends on time takes the current time as an
// argument. Frames are Ethernet II / IPv4 / UDP 4791 built with system/roce's BTH and AETH layers and its ICRC.
// Two rules answer rxe's behaviour, both within IBTA: the responder acknowledges what it accepted in order before
// each sequence NAK (rxe acts on a second NAK only after an ACK), and the requester probes a peer that stops in
// the middle of a message, everything acknowledged, by sending its own last packet again, or an empty duplicate
// before its first (Config.ProbeAfter).
package ibrc

package ibrc

import (
	"time"

	"github.com/spraynic/spraynic/system/roce"
)

// Receive handles one frame at time now. A frame that is not RoCEv2 to this endpoint's IP and QP returns
// ErrNotForUs; one that fails a check (ICRC) is counted in Stats.Bad and returns its error; the queue pair's
// own failures are reported by Err.
func (e *Endpoint) Receive(frame []byte, now time.Duration) error {
	p, err := Parse(frame)
	if err != nil {
		if p.DestQP == e.cfg.Local.QPN && p.DstIP == e.cfg.Local.IP {
			e.stats.Bad++
			return err
		}
		return ErrNotForUs
	}
	if p.DstIP != e.cfg.Local.IP || p.DestQP != e.cfg.Local.QPN {
		return ErrNotForUs
	}
	if e.err != nil {
		return nil
	}
	switch {
	case p.Opcode == OpAck:
		e.onAck(&p, now)
	case p.Opcode == OpSendFirst || p.Opcode == OpSendMiddle || p.Opcode == OpSendLast || p.Opcode == OpSendOnly:
		e.lastData = now
		e.onData(&p)
	case isRCRequest(p.Opcode) && p.PSN == wire(e.cfg.RecvPSN, e.epsn):
		// an RC request this endpoint does not implement (RDMA WRITE, READ, atomics, immediate data) at the
		// expected PSN: NAK invalid request, as rxe's responder does for an opcode its QP does not support
		e.stats.Bad++
		e.invalid()
	default:
		// another transport's opcode (IBTA's header checks drop it silently, as rxe does), an RC response other than
		// Acknowledge (no READ or atomic was issued), or an unsupported request away from the expected PSN
		e.stats.Unsupported++
	}
	return nil
}

// isRCRequest reports whether op is an RC request opcode (IBTA: SEND, RDMA WRITE and READ request 0x00-0x0C,
// atomics and SEND with Invalidate 0x13-0x17); the responses 0x0D-0x12, the reserved 0x18-0x1F and other
// transports' opcodes (bits 7:5 not 000) are not.
func isRCRequest(op uint8) bool {
	return op>>5 == 0 && (op <= 0x0C || op >= 0x13 && op <= 0x17)
}

// onData applies the responder's PSN rules to a SEND packet: the expected PSN is accepted, a duplicate (behind
// it) is acknowledged again, a packet ahead of it is dropped and NAKed once per gap. Packets accepted since the
// last ACK or NAK are acknowledged before the NAK: rxe's completer ignores a sequence NAK while it retries after an
// earlier one, until an ACK at or past that NAK's PSN ends the retry (rxe_comp.c, started_retry); without the
// ACK, a second gap soon after the first waits for rxe's retransmit timer.
func (e *Endpoint) onData(p *Packet) {
	d := (p.PSN - wire(e.cfg.RecvPSN, e.epsn)) & roce.Max24
	switch {
	case d >= 1<<23:
		e.stats.Duplicates++
		e.ackDue = true
		return
	case d > 0:
		e.stats.OutOfSeq++
		if !e.nakSent {
			e.nakDue, e.nakSent, e.nakSyn = true, true, SynNAKSeq
			e.ackDue = e.ackDue || e.sinceAck > 0
		}
		return
	}
	starts := p.Opcode == OpSendFirst || p.Opcode == OpSendOnly
	ends := p.Opcode == OpSendLast || p.Opcode == OpSendOnly
	full := len(p.Payload) == e.cfg.MTU
	// First and Middle carry exactly MTU bytes, Last 1..MTU, Only 0..MTU (IBTA)
	emptyLast := p.Opcode == OpSendLast && len(p.Payload) == 0
	if starts == e.inMsg || len(p.Payload) > e.cfg.MTU || !ends && !full || emptyLast {
		e.stats.Bad++
		e.invalid()
		return
	}
	e.cur = append(e.cur, p.Payload...)
	e.inMsg = !ends
	e.epsn++
	e.nakSent = false
	e.sinceAck++
	if ends {
		e.recvd = append(e.recvd, e.cur)
		e.cur = nil
		e.msn = (e.msn + 1) & roce.Max24
		e.stats.MsgsRcvd++
	}
	if ends || p.AckReq || e.sinceAck >= e.cfg.AckEvery {
		e.ackDue = true
	}
}

// invalid NAKs "invalid request" at the expected PSN and fails the queue pair (IBTA: the QP goes to error).
func (e *Endpoint) invalid() {
	e.nakDue, e.nakSyn = true, SynNAKInvalid
	e.err = ErrProtocol
}

// response appends the pending ACK and NAK, if any, to out, the ACK first: an ACK carries the last PSN received
// in order, a NAK the expected PSN; both the MSN.
func (e *Endpoint) response(out [][]byte) ([][]byte, error) {
	if !e.ackDue && !e.nakDue {
		return out, nil
	}
	if e.ackDue {
		f, err := Build(&e.hdr, OpAck, wire(e.cfg.RecvPSN, e.epsn-1), false, &roce.AETH{Syndrome: SynACK, MSN: e.msn},
			nil)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		e.stats.AcksSent++
	}
	if e.nakDue {
		f, err := Build(&e.hdr, OpAck, wire(e.cfg.RecvPSN, e.epsn), false, &roce.AETH{Syndrome: e.nakSyn, MSN: e.msn},
			nil)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		e.stats.NAKsSent++
	}
	e.nakDue, e.ackDue, e.sinceAck = false, false, 0
	return out, nil
}

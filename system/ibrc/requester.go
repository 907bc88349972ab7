package ibrc

import (
	"time"

	"github.com/spraynic/spraynic/system/roce"
)

// rnrTimes is the IBTA RNR NAK timer encoding (the AETH's 5-bit field), in microseconds.
var rnrTimes = [32]int64{655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920, 2560,
	3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520}

// Poll returns the frames to send at time now: the responder's ACK and NAK first (at most one of each, the ACK
// first), then a probe when one is due, then data packets of the requester (after a timer expiry, again from the
// oldest unacknowledged packet). It returns nil once the queue pair has failed (Err).
func (e *Endpoint) Poll(now time.Duration) ([][]byte, error) {
	out, err := e.response(nil)
	if err != nil {
		return nil, err
	}
	if e.err != nil {
		return out, nil
	}
	if e.probing() && now >= e.probeAt() {
		f, err := e.probeFrame()
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		e.stats.Probes++
		e.lastProbe = now
	}
	if e.una < e.high && now >= e.deadline {
		e.stats.Timeouts++
		if e.retry() {
			return out, nil
		}
		e.nxt = e.una
		e.deadline = now + e.cfg.Timeout
	}
	for now >= e.holdUntil && e.nxt < e.total && e.nxt-e.una < uint64(e.cfg.Window) {
		f, err := e.packet(e.nxt)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		e.stats.DataSent++
		if e.nxt < e.high {
			e.stats.Retransmitted++
		} else {
			e.probe = f
		}
		if e.una == e.high || e.nxt == e.una {
			e.deadline = now + e.cfg.Timeout
		}
		e.nxt++
		e.high = max(e.high, e.nxt)
	}
	return out, nil
}

// probing reports whether the probe runs: a message from the peer is partly received while everything posted here
// is acknowledged, so that this side's retransmit timer does not run. A peer whose requester stalls there sends
// nothing more: rxe's stops at its limit of packets in flight (65) until its NIC driver frees one of its queue
// pair's packets, and when that wake-up is missed it never resumes, not even on its timer, since everything it sent
// is acknowledged. The probe (probeFrame) is a duplicate that the peer's responder acknowledges again (IBTA), a
// transmission of that queue pair.
func (e *Endpoint) probing() bool {
	return e.cfg.ProbeAfter > 0 && e.inMsg && e.una == e.total && e.err == nil
}

// probeFrame returns the probe: the last data packet sent again, or, before this side sent any, a SEND Only
// without payload at the PSN before SendPSN, with AckReq. To the peer's responder both are duplicates (behind its
// expected PSN), acknowledged again and changing nothing; the second reaches a peer that stalls in its first
// message before this side has anything to send.
func (e *Endpoint) probeFrame() ([]byte, error) {
	if e.probe != nil {
		return e.probe, nil
	}
	return Build(&e.hdr, OpSendOnly, (e.cfg.SendPSN+roce.Max24)&roce.Max24, true, nil, nil)
}

// probeAt is when the next probe is due: ProbeAfter after the latest data packet from the peer or probe.
func (e *Endpoint) probeAt() time.Duration { return max(e.lastData, e.lastProbe) + e.cfg.ProbeAfter }

// retry counts one retry without progress and reports whether the limit is exceeded (the queue pair failed).
func (e *Endpoint) retry() bool {
	e.retries++
	if e.retries > e.cfg.RetryLimit {
		e.err = ErrRetryExceeded
		return true
	}
	return false
}

// packet builds data packet i: its opcode from its place in its message, AckReq on a message's last packet, every
// AckReqEvery packets and on the last packet the window allows.
func (e *Endpoint) packet(i uint64) ([]byte, error) {
	m := e.msgs[0]
	for _, x := range e.msgs {
		if i >= x.first && i < x.first+x.n {
			m = x
			break
		}
	}
	k := i - m.first
	lo := min(int(k)*e.cfg.MTU, len(m.data))
	hi := min(lo+e.cfg.MTU, len(m.data))
	op := uint8(OpSendMiddle)
	switch {
	case m.n == 1:
		op = OpSendOnly
	case k == 0:
		op = OpSendFirst
	case k == m.n-1:
		op = OpSendLast
	}
	ackReq := k == m.n-1 || (i+1)%uint64(e.cfg.AckReqEvery) == 0 || i+1-e.una == uint64(e.cfg.Window)
	return Build(&e.hdr, op, wire(e.cfg.SendPSN, i), ackReq, nil, m.data[lo:hi])
}

// onAck handles an ACK, NAK or RNR NAK from the peer's responder.
func (e *Endpoint) onAck(p *Packet, now time.Duration) {
	d := uint64((p.PSN - wire(e.cfg.SendPSN, e.una)) & roce.Max24)
	inflight := e.high - e.una
	switch p.Syndrome & synTypeMask {
	case synTypeACK:
		e.stats.AcksRcvd++
		if d >= inflight {
			return // an old or duplicate ACK
		}
		e.stats.PeerMSN = p.MSN
		e.advance(e.una+d+1, now)
	case synTypeRNR:
		e.stats.RNRsRcvd++
		if d >= inflight {
			return
		}
		e.advance(e.una+d, now)
		e.rnrRetries++
		if e.cfg.RNRLimit != 7 && e.rnrRetries > e.cfg.RNRLimit {
			e.err = ErrRNRExceeded
			return
		}
		e.holdUntil = now + time.Duration(rnrTimes[p.Syndrome&0x1F])*time.Microsecond
		e.deadline = e.holdUntil + e.cfg.Timeout // the retransmit timer does not run during the wait
		e.nxt = e.una
	case synTypeNAK:
		e.stats.NAKsRcvd++
		if p.Syndrome != SynNAKSeq {
			e.err = ErrRemote
			return
		}
		if d >= inflight {
			return
		}
		if !e.advance(e.una+d, now) && e.retry() {
			return
		}
		e.stats.PeerMSN = p.MSN
		e.nxt = e.una
	}
}

// advance acknowledges every packet before una and completes the messages it covers; it reports progress.
func (e *Endpoint) advance(una uint64, now time.Duration) bool {
	if una <= e.una {
		return false
	}
	e.una = una
	e.nxt = max(e.nxt, una)
	e.retries, e.rnrRetries = 0, 0
	e.deadline = now + e.cfg.Timeout
	for len(e.msgs) > 0 && e.msgs[0].first+e.msgs[0].n <= una {
		e.msgs = e.msgs[1:]
		e.stats.MsgsSent++
	}
	return true
}

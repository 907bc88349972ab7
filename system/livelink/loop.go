package livelink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/spraynic/spraynic/system/ibrc"
)

// linger is how long a run keeps answering after its last message: the peer's last ACK may be lost and its
// retransmissions must still be acknowledged.
const linger = 500 * time.Millisecond

// pp is the iteration state of one run: our messages in flight and the message expected next.
type pp struct {
	r      *Run
	rng    *rand.Rand
	sent   [][]byte // our messages posted, in order
	expect []byte   // the peer's next message
}

// loop drives ep with wall-clock time since start: both sides post receives; the client sends first; each side
// sends its next message once it received the peer's and its own previous send completed (ibv_rc_pingpong's rule).
func (s *Station) loop(ctx context.Context, ep *ibrc.Endpoint, r *Run, rng *rand.Rand, start time.Time,
	limit time.Duration) error {
	p := &pp{r: r, rng: rng}
	if r.Role == RoleServer {
		p.expect = firstPeerMessage(r.Size)
	} else if err := p.post(ep); err != nil {
		return err
	}
	var doneAt time.Duration
	for {
		now := time.Since(start)
		if err := ctx.Err(); err != nil {
			return err
		}
		if now > limit {
			return fmt.Errorf("%s run, %d bytes: timeout after %v: %d of %d messages sent, %d received", r.Role,
				r.Size, limit, r.Sent, r.Iters, r.Received)
		}
		fs, err := ep.Poll(now)
		if err != nil {
			return err
		}
		if err := s.send(fs); err != nil {
			return err
		}
		if err := p.step(ep); err != nil && ep.Err() == nil {
			return err
		}
		done := r.Received == r.Iters && len(p.sent) == r.Iters
		if e := ep.Err(); e != nil {
			if finalAckMissing(e, done, ep.Outstanding(), r) {
				r.FinalAckMissing = true
				return nil
			}
			return e
		}
		if done && ep.Outstanding() == 0 && doneAt == 0 {
			doneAt = now
		}
		if doneAt > 0 && now-doneAt >= linger {
			return nil
		}
		if err := s.wait(ep, now, start); err != nil {
			return err
		}
	}
}

// finalAckMissing reports whether the queue pair's error err is only the ACK of our last message that never came:
// every message went both ways, the last one is the only one outstanding, and the requester ran out of retries
// (the peer exits, and its QP with it, as soon as its own last completion arrives). Any other error fails the run.
func finalAckMissing(err error, done bool, outstanding int, r *Run) bool {
	return errors.Is(err, ibrc.ErrRetryExceeded) && done && outstanding == 1 && r.Sent == r.Iters-1
}

// step takes the received messages, checks them and posts our next message when the rule allows.
func (p *pp) step(ep *ibrc.Endpoint) error {
	r := p.r
	for _, m := range ep.Received() {
		r.Received++
		if !bytes.Equal(m, p.expect) && r.DataErrors == 0 {
			r.FirstDataError = describe(r.Received, m, p.expect)
		}
		if !bytes.Equal(m, p.expect) {
			r.DataErrors++
		}
	}
	r.Sent = len(p.sent) - ep.Outstanding()
	// server: send k after receiving k; client: send k+1 after receiving k; both after our previous completed
	want := r.Received
	if r.Role == RoleClient {
		want++
	}
	if len(p.sent) < r.Iters && len(p.sent) < want && ep.Outstanding() == 0 {
		return p.post(ep)
	}
	return nil
}

// post sends our next message; the peer will send it back as its next.
func (p *pp) post(ep *ibrc.Endpoint) error {
	m := message(p.rng, p.r.Size)
	if err := ep.Post(m); err != nil {
		return err
	}
	p.sent = append(p.sent, m)
	p.expect = m
	return nil
}

// describe names the first difference between a received message and the expected one.
func describe(k int, got, want []byte) string {
	if len(got) != len(want) {
		return fmt.Sprintf("message %d: %d bytes, expected %d", k, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("message %d: byte %d is %#02x, expected %#02x", k, i, got[i], want[i])
		}
	}
	return ""
}

// wait reads the link until the endpoint's next deadline (at most 5 ms) and feeds it what arrived.
func (s *Station) wait(ep *ibrc.Endpoint, now time.Duration, start time.Time) error {
	w := 5 * time.Millisecond
	if d, ok := ep.Deadline(); ok {
		w = min(w, max(d-now, 0))
	}
	fs, err := s.link.Recv(w)
	if err != nil {
		return err
	}
	for _, f := range fs {
		if err := s.input(f, ep, time.Since(start)); err != nil {
			return err
		}
	}
	return nil
}

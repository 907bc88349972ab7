package livelink

import (
	"sync"
	"time"
)

// recorder is a Link that keeps what is sent and receives nothing.
type recorder struct{ sent [][]byte }

func (r *recorder) Send(f []byte) error { r.sent = append(r.sent, f); return nil }

func (r *recorder) Recv(timeout time.Duration) ([][]byte, error) {
	time.Sleep(timeout)
	return nil, nil
}

// pipe is one end of an in-memory Ethernet wire.
type pipe struct {
	mu   *sync.Mutex
	cond *sync.Cond
	in   *[][]byte
	out  *[][]byte
}

// newWire returns the two ends of a wire.
func newWire() (*pipe, *pipe) {
	mu := &sync.Mutex{}
	c := sync.NewCond(mu)
	var ab, ba [][]byte
	return &pipe{mu: mu, cond: c, in: &ba, out: &ab}, &pipe{mu: mu, cond: c, in: &ab, out: &ba}
}

func (p *pipe) Send(f []byte) error {
	p.mu.Lock()
	*p.out = append(*p.out, append([]byte(nil), f...))
	p.mu.Unlock()
	p.cond.Broadcast()
	return nil
}

func (p *pipe) Recv(timeout time.Duration) ([][]byte, error) {
	end := time.Now().Add(timeout)
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(*p.in) == 0 && time.Now().Before(end) {
		t := time.AfterFunc(time.Until(end), p.cond.Broadcast)
		p.cond.Wait()
		t.Stop()
	}
	fs := *p.in
	*p.in = nil
	return fs, nil
}

// dropPipe is a pipe that reports drops frames lost at every Drops call, as a full socket buffer would.
type dropPipe struct {
	*pipe
	drops int
}

func (d *dropPipe) Drops() (int, error) { return d.drops, nil }

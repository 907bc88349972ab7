package cosim

import "fmt"

// Sampler is an optional observer of a lockstep run (functional coverage): it sees every cycle's inputs and the
// golden model's outputs, in order, after the cycle passed the lockstep compare (with a DUT) or after the golden
// model stepped (without). It cannot change the run or any check.
type Sampler[I, O any] interface {
	Sample(cycle int64, in *I, out *O)
}

// samplerFor returns the sampler of a lockstep run (opt.Sampler), or nil. A sampler of the wrong port types is
// an error (it would see nothing).
func samplerFor[I, O any](opt Options) (Sampler[I, O], error) {
	s := opt.Sampler
	if s == nil {
		return nil, nil
	}
	smp, ok := s.(Sampler[I, O])
	if !ok {
		var in I
		var out O
		return nil, fmt.Errorf("functional coverage: sampler %T does not sample %T/%T", s, in, out)
	}
	return smp, nil
}

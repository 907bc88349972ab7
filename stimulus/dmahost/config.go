package dmahost

import "fmt"

// MaxLanes is the byte lanes of the widest data bus (DATA_WIDTH 512).
const MaxLanes = 64

// Poison is every byte of the data of a read whose status carries an injected error.
const Poison = 0xEE

// Config fixes the host's bus, limits, timing and randomness.
type Config struct {
	// DataWidth is the data bus in bits: 64, 128, 256 or 512 (K = DataWidth/8 lanes).
	DataWidth int
	// MTU is the largest descriptor len, bytes (1..65535).
	MTU int
	// MaxOutstanding is the number of operations outstanding per direction, 1..256 (8-bit tags).
	MaxOutstanding int
	// LatencyMin and LatencyMax bound every latency (1 <= min <= max): descriptor to first read beat, last
	// beat to status.
	LatencyMin, LatencyMax int
	// Stall is the probability, per cycle, that a ready is low and that a read beat that could be shown is held
	// back (0: no back-pressure and no gaps; below 1).
	Stall float64
	// RdErrorRate and WrErrorRate are the probabilities that a read or a write gets an error status (0..1).
	RdErrorRate, WrErrorRate float64
	// Seed is the only randomness.
	Seed uint64
}

// lanes is K, the bytes per beat.
func (c Config) lanes() int { return c.DataWidth / 8 }

// validate names the first field outside its range.
func (c Config) validate() error {
	switch {
	case c.DataWidth != 64 && c.DataWidth != 128 && c.DataWidth != 256 && c.DataWidth != 512:
		return fmt.Errorf("dmahost config: DataWidth %d (allowed: 64, 128, 256, 512)", c.DataWidth)
	case c.MTU < 1 || c.MTU > 1<<16-1:
		return fmt.Errorf("dmahost config: MTU %d (allowed: 1..65535)", c.MTU)
	case c.MaxOutstanding < 1 || c.MaxOutstanding > 256:
		return fmt.Errorf("dmahost config: MaxOutstanding %d (allowed: 1..256)", c.MaxOutstanding)
	case c.LatencyMin < 1 || c.LatencyMax < c.LatencyMin:
		return fmt.Errorf("dmahost config: latency %d..%d (allowed: 1 <= LatencyMin <= LatencyMax)",
			c.LatencyMin, c.LatencyMax)
	case !(c.Stall >= 0 && c.Stall < 1):
		return fmt.Errorf("dmahost config: Stall %v (allowed: 0 <= Stall < 1)", c.Stall)
	case !(c.RdErrorRate >= 0 && c.RdErrorRate <= 1):
		return fmt.Errorf("dmahost config: RdErrorRate %v (allowed: 0..1)", c.RdErrorRate)
	case !(c.WrErrorRate >= 0 && c.WrErrorRate <= 1):
		return fmt.Errorf("dmahost config: WrErrorRate %v (allowed: 0..1)", c.WrErrorRate)
	}
	return nil
}

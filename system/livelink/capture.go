package livelink

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/system/ibrc"
)

// CaptureCheck is the check of a capture of the link: every RoCEv2 frame parsed by ibrc.Parse (lengths, BTH,
// AETH) with its ICRC recomputed by system/roce.
type CaptureCheck struct {
	// Frames counts all frames; RoCE those to UDP port 4791.
	Frames, RoCE int
	// BySource counts RoCEv2 frames per source IPv4 address; Opcodes per BTH opcode name.
	BySource map[netip.Addr]int
	Opcodes  map[string]int
	// Bad counts RoCEv2 frames that failed (ICRC or structure); FirstBad describes the first.
	Bad      int
	FirstBad string
}

// opNames names the opcodes of ibrc.
var opNames = map[uint8]string{ibrc.OpSendFirst: "SEND_FIRST", ibrc.OpSendMiddle: "SEND_MIDDLE",
	ibrc.OpSendLast: "SEND_LAST", ibrc.OpSendOnly: "SEND_ONLY", ibrc.OpAck: "ACK"}

// CheckCapture checks frames.
func CheckCapture(frames [][]byte) CaptureCheck {
	c := CaptureCheck{Frames: len(frames), BySource: map[netip.Addr]int{}, Opcodes: map[string]int{}}
	for i, f := range frames {
		if !isRoCE(f) {
			continue
		}
		c.RoCE++
		p, err := ibrc.Parse(f)
		if err != nil {
			c.Bad++
			if c.FirstBad == "" {
				c.FirstBad = fmt.Sprintf("frame %d: %v", i+1, err)
			}
			continue
		}
		c.BySource[p.SrcIP]++
		name, ok := opNames[p.Opcode]
		if !ok {
			name = fmt.Sprintf("opcode_%#02x", p.Opcode)
		}
		c.Opcodes[name]++
	}
	return c
}

// String is the check as key=value pairs.
func (c CaptureCheck) String() string {
	var src, ops []string
	for a, n := range c.BySource {
		src = append(src, fmt.Sprintf("%s:%d", a, n))
	}
	for o, n := range c.Opcodes {
		ops = append(ops, fmt.Sprintf("%s:%d", o, n))
	}
	sort.Strings(src)
	sort.Strings(ops)
	s := fmt.Sprintf("frames=%d roce=%d icrc_or_parse_bad=%d sources=%s opcodes=%s", c.Frames, c.RoCE, c.Bad,
		strings.Join(src, ","), strings.Join(ops, ","))
	if c.FirstBad != "" {
		s += " first_bad=" + fmt.Sprintf("%q", c.FirstBad)
	}
	return s
}

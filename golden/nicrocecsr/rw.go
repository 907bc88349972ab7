package nicrocecsr

import (
	"github.com/spraynic/spraynic/regmap"
)

// read returns what a read of in.ARAddr answers this cycle: data and response.
func (md *Model) read(in In) (uint32, uint8, error) {
	r, ok := Decode(md.m, md.p, in.ARAddr)
	if !ok {
		return 0, SLVERR, nil
	}
	reg := r.Reg
	switch {
	case reg.Access == regmap.WO:
		return 0, OKAY, nil
	case r.Block.Stride != 0 && reg.Name == "CONN_STATUS":
		st := md.l.state
		stMask := uint32((uint64(1)<<st.Width - 1) << st.Lsb)
		return in.ConnInfo[r.Conn]&reg.Mask()&^stMask | uint32(md.state[r.Conn])<<st.Lsb, OKAY, nil
	case r.Block.Stride != 0:
		return md.table[r.Conn][r.Index], OKAY, nil
	case r.Block.Name == "counters":
		return in.Cnt[r.Index] & reg.Mask(), OKAY, nil
	case reg.Name == "PATH_STATUS":
		return in.PathStatus & reg.Mask(), OKAY, nil
	case reg.Name == "PATH_ENTROPY":
		return in.PathEntropy & reg.Mask(), OKAY, nil
	case reg.Name == "PATH_COUNTS":
		return in.PathCounts & reg.Mask(), OKAY, nil
	case reg.Access == regmap.RO:
		v, err := md.constant(reg)
		return v, OKAY, err
	}
	return md.glob[reg.Name], OKAY, nil
}

// constant returns the value of a RO register of constants and parameters (ID, VERSION, CAPS).
func (md *Model) constant(r *regmap.Register) (uint32, error) {
	var v uint32
	for _, f := range r.Fields {
		x := f.Reset
		if f.ResetParam != "" {
			n, err := md.p.Param(f.ResetParam)
			if err != nil {
				return 0, err
			}
			x = uint32(n)
		}
		v |= x << f.Lsb
	}
	return v & r.Mask(), nil
}

// writeOK decides the held write: true for OKAY.
func (md *Model) writeOK() (bool, error) {
	r, ok := Decode(md.m, md.p, md.awAddr)
	if !ok || md.wStrb != 0xF || r.Reg.Access == regmap.RO {
		return false, nil
	}
	legal, err := Legal(md.p, r.Reg, md.wData)
	if err != nil || !legal {
		return false, err
	}
	if r.Block.Stride == 0 {
		return true, nil
	}
	open := md.state[r.Conn] == Open
	if r.Reg.LockedOpen && open {
		return false, nil
	}
	if r.Reg.Name == "CONN_CMD" && get(md.l.cmd, md.wData) == cmdOpen && open {
		return false, nil
	}
	return true, nil
}

// act performs the held write, decided OKAY (EVENTS is done by events).
func (md *Model) act() {
	r, _ := Decode(md.m, md.p, md.awAddr)
	switch {
	case r.Reg.Name == "CNT_CLEAR":
		md.cntClear = true
	case r.Reg.Name == "CONN_CMD":
		md.command(r.Conn, get(md.l.cmd, md.wData) == cmdOpen)
	case r.Block.Stride != 0 && r.Reg.Access == regmap.RW:
		md.table[r.Conn][r.Index] = md.wData
	case r.Reg.Access == regmap.RW:
		md.glob[r.Reg.Name] = md.wData
	}
}

// command opens or closes connection c: the state and the command output.
func (md *Model) command(c int, open bool) {
	t, l := md.table[c], &md.l
	if open || md.state[c] != Closed {
		md.state[c] = Closed
		if open {
			md.state[c] = Open
		}
		md.cmdValid = true
	}
	md.cmd = Cmd{Open: open, Conn: c,
		PeerMAC:  uint64(get(l.peerMacHi, t[l.iMacHi]))<<32 | uint64(t[l.iMacLo]),
		MACCheck: get(l.check, t[l.iMacHi]) == 1, PeerIP: t[l.iIP], PeerQPN: t[l.iQPN], TxPSN: t[l.iTx],
		RxPSN: t[l.iRx]}
}

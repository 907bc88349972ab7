package nicrocecsr

import (
	"github.com/spraynic/spraynic/regmap"
)

// AXI responses.
const (
	OKAY   = 0
	SLVERR = 2
)

// Connection states (CONN_STATUS.state) and CONN_CMD commands.
const (
	Closed = 0
	Open   = 1
	Error  = 2

	cmdOpen = 1
)

// In is the inputs of one cycle.
type In struct {
	Rst                     bool
	AWValid, WValid, BReady bool
	AWAddr, WData           uint32
	WStrb                   uint8
	ARValid, RReady         bool
	ARAddr                  uint32
	ErrValid                bool
	ErrConn                 int
	EvSet                   uint32
	ConnInfo, Cnt           []uint32 // conn_info by connection, cnt_in by counter (map order)
	PathStatus, PathEntropy uint32
	PathCounts              uint32
}

// Cmd is the command output: an open or close of Conn with the entry's registers.
type Cmd struct {
	Open                          bool
	Conn                          int
	PeerMAC                       uint64
	MACCheck                      bool
	PeerIP, PeerQPN, TxPSN, RxPSN uint32
}

// Out is the outputs of a cycle (all registered: they depend on the state only).
type Out struct {
	AWReady, WReady, BValid, ARReady, RValid bool
	BResp, RResp                             uint8
	RData                                    uint32
	Enable                                   bool
	LocalMAC                                 uint64
	LocalIP, DSCP, TTL                       uint32
	CmdValid                                 bool
	Cmd                                      Cmd
	ConnState                                []uint8
	CntClear, IRQ                            bool
	PathConn, PathPath                       uint32
}

// Model is the state of nic_roce_csr.
type Model struct {
	m     *regmap.Map
	p     Params
	l     layout
	glob  map[string]uint32 // RW and W1C registers of the single blocks
	table [][]uint32        // [connection][register index in the window]
	state []uint8

	awFull, wFull, bValid, rValid bool
	awAddr, wData, rData          uint32
	wStrb, bResp, rResp           uint8
	cmdValid, cntClear            bool
	cmd                           Cmd
}

// New returns a model of an instance of p after reset.
func New(p Params) (*Model, error) {
	m := regmap.NicRoCE()
	l, err := newLayout(&m)
	if err != nil {
		return nil, err
	}
	md := &Model{m: &m, p: p, l: l}
	md.reset()
	return md, nil
}

// reset returns every register to its reset value.
func (md *Model) reset() {
	md.glob = map[string]uint32{}
	for _, b := range md.m.Blocks {
		if b.Stride != 0 {
			continue
		}
		for _, r := range b.Registers {
			if r.Access == regmap.RW || r.Access == regmap.W1C {
				md.glob[r.Name] = r.Reset()
			}
		}
	}
	md.table = make([][]uint32, md.p.Conns)
	for c := range md.table {
		md.table[c] = make([]uint32, len(md.l.conn.Registers))
		for i, r := range md.l.conn.Registers {
			md.table[c][i] = r.Reset()
		}
	}
	md.state = make([]uint8, md.p.Conns)
	md.awFull, md.wFull, md.bValid, md.rValid = false, false, false, false
	md.awAddr, md.wData, md.rData, md.wStrb, md.bResp, md.rResp = 0, 0, 0, 0, OKAY, OKAY
	md.cmdValid, md.cntClear, md.cmd = false, false, Cmd{}
}

// Out returns the outputs of the current cycle.
func (md *Model) Out() Out {
	l := &md.l
	tos, sel := md.glob["IP_TOS"], md.glob["PATH_SEL"]
	return Out{
		AWReady: !md.awFull && !md.bValid, WReady: !md.wFull && !md.bValid, BValid: md.bValid, BResp: md.bResp,
		ARReady: !md.rValid, RValid: md.rValid, RData: md.rData, RResp: md.rResp,
		Enable:   get(l.enable, md.glob["CTRL"]) == 1,
		LocalMAC: uint64(get(l.macHi, md.glob["LOCAL_MAC_HI"]))<<32 | uint64(md.glob["LOCAL_MAC_LO"]),
		LocalIP:  md.glob["LOCAL_IP"], DSCP: get(l.dscp, tos), TTL: get(l.ttl, tos),
		CmdValid: md.cmdValid, Cmd: md.cmd, ConnState: append([]uint8(nil), md.state...),
		CntClear: md.cntClear, IRQ: md.glob["EVENTS"] != 0,
		PathConn: get(l.selConn, sel) & uint32(md.p.Conns-1), PathPath: get(l.selPath, sel) & uint32(md.p.Paths-1),
	}
}

// Step advances one clock edge with the inputs in.
func (md *Model) Step(in In) error {
	if in.Rst {
		md.reset()
		return nil
	}
	rd, rresp, err := md.read(in)
	if err != nil {
		return err
	}
	wdo := md.awFull && md.wFull && !md.bValid
	wok := false
	if wdo {
		if wok, err = md.writeOK(); err != nil {
			return err
		}
	}
	awTake, wTake := in.AWValid && !md.awFull && !md.bValid, in.WValid && !md.wFull && !md.bValid
	md.cmdValid, md.cntClear = false, false
	if awTake {
		md.awFull, md.awAddr = true, in.AWAddr
	}
	if wTake {
		md.wFull, md.wData, md.wStrb = true, in.WData, in.WStrb
	}
	if md.bValid && in.BReady {
		md.bValid = false
	}
	md.events(wdo && wok, in.EvSet)
	if in.ErrValid && md.state[in.ErrConn] == Open {
		md.state[in.ErrConn] = Error
	}
	if wdo {
		md.awFull, md.wFull, md.bValid, md.bResp = false, false, true, SLVERR
		if wok {
			md.bResp = OKAY
			md.act()
		}
	}
	if in.ARValid && !md.rValid {
		md.rValid, md.rData, md.rResp = true, rd, rresp
	} else if in.RReady {
		md.rValid = false
	}
	return nil
}

// events applies the EVENTS set inputs and an OKAY write to EVENTS (the set wins).
func (md *Model) events(act bool, set uint32) {
	r, ok := Decode(md.m, md.p, md.awAddr)
	clr := uint32(0)
	if act && ok && r.Reg.Name == "EVENTS" {
		clr = md.wData
	}
	md.glob["EVENTS"] = md.glob["EVENTS"]&^clr | set&md.l.events.Mask()
}

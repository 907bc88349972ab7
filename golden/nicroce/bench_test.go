package nicroce_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/golden/wide"
	"github.com/spraynic/spraynic/stimulus/dmahost"
)

// Register addresses (docs/nic_roce.md "Register map").
const (
	regCtrl    = 0x0010
	regCnt     = 0x0100
	connBase   = 0x1000
	connStride = 0x20
	offMacLo   = 0x00
	offMacHi   = 0x04
	offIP      = 0x08
	offQPN     = 0x0C
	offTxPSN   = 0x10
	offRxPSN   = 0x14
	offCmd     = 0x18
	offStatus  = 0x1C
)

// Counter indices (map order from CNT_SENT).
const (
	cntPeerClosed = 27 + iota
	cntPeerIP
	cntPeerMAC
	cntDisabled
	cntRxNoBuffer
	cntRxOverrun
	cntTxData
	cntTxAck
	cntWrTaken
	cntCplSend
	cntCplRecv
	cntCplError
	cntDmaRdError
	cntDmaWrError
)

// Beat is one beat of a data stream.
type Beat struct {
	Data       nicroce.Data
	Keep       uint64
	Last, User bool
}

// rxPkt is a descriptor the roce_rx stand-in offers, with its payload.
type rxPkt struct {
	ack     bool
	conn    uint32
	psn     uint32
	handle  uint32
	offset  uint32
	first   bool
	last    bool
	srcMAC  uint64
	srcIP   uint32
	payload []byte
	// path, pseq, ackReq, ecn, nak and sack are the remaining descriptor fields.
	path, pseq       uint32
	ackReq, ecn, nak bool
	sack             wide.Vec
}

// txPkt is a packet the roce_tx stand-in took: its descriptor and payload.
type txPkt struct {
	d       nicroce.TopOut
	payload []byte
	poison  bool
	cycle   int64
}

// dmaDesc is a DMA descriptor seen at its handshake.
type dmaDesc struct {
	addr     uint64
	len, tag uint32
	cycle    int64
}

// cplRec is a completion with its cycle.
type cplRec struct {
	nicroce.Cpl
	cycle int64
}

// wr is a request for s_wr or s_rq.
type wr struct {
	conn, id, len uint32
	addr          uint64
}

// bench runs one twin with a dmahost.Host, stand-ins for roce_rx and roce_tx and an AXI4-Lite master.
type bench struct {
	t     *testing.T
	cfg   config.Config
	top   *nicroce.Top
	host  *dmahost.Host
	cycle int64
	in    nicroce.TopIn
	out   nicroce.TopOut
	// rxQ: descriptors roce_rx offers; payQ: payloads taken with their descriptor, not yet streamed.
	rxQ  []rxPkt
	payQ [][]byte
	payB int
	// cur: the packet roce_tx collects; sent and acks what it took.
	cur  *txPkt
	sent []txPkt
	acks []nicroce.TopOut
	// wrQ, rqQ: requests waiting for s_wr and s_rq; cpls the completions; rds, wrs the DMA descriptors.
	wrQ, rqQ []wr
	cpls     []cplRec
	rds, wrs []dmaDesc
	wrSts    []int64
	// axi: pending write or read; rdata the last read's data.
	axiQ      []axiOp
	awDone    bool
	wDone     bool
	arDone    bool
	rdata     uint32
	cplReady  func(cycle int64) bool
	frameBeat []Beat
	// txBeats: frame beats the roce_tx stand-in offers on its m_axis; macTx the beats MAC TX took; macTxStall
	// holds MAC TX tready low.
	txBeats, macTx []Beat
	macTxStall     bool
	// wrAt and ackAt: cycles of the s_wr handshakes and of the m_ack handshakes of roce_rx.
	wrAt, ackAt []int64
	// onWrite, when set, sees every AXI4-Lite write at its response.
	onWrite func(op axiOp)
	// txBase is the CONN_TX_PSN of connection 0 given by openAll.
	txBase uint32
}

// axiOp is an AXI4-Lite write (read false) or read.
type axiOp struct {
	read bool
	addr uint32
	data uint32
}

func newBench(t *testing.T, hc dmahost.Config) *bench { return newBenchOf(t, "ice40", hc) }

// newBenchOf is newBench with the preset named preset.
func newBenchOf(t *testing.T, preset string, hc dmahost.Config) *bench {
	t.Helper()
	cfg, err := config.Preset(preset)
	require.NoError(t, err)
	top, err := nicroce.New(cfg)
	require.NoError(t, err)
	hc.DataWidth, hc.MTU = cfg.DataWidth, cfg.MTU
	if hc.MaxOutstanding == 0 {
		hc.MaxOutstanding = 256
	}
	if hc.LatencyMin == 0 {
		hc.LatencyMin, hc.LatencyMax = 2, 6
	}
	h, err := dmahost.New(hc)
	require.NoError(t, err)
	b := &bench{t: t, cfg: cfg, top: top, host: h, cplReady: func(int64) bool { return true }}
	b.in.Rst = true
	b.step()
	b.in.Rst = false
	return b
}

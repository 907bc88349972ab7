package nicrocecsr

import (
	"errors"

	"github.com/spraynic/spraynic/regmap"
)

// layout is where the model finds the registers and fields it gives a meaning to, looked up by name in the
// map once.
type layout struct {
	conn                                *regmap.Block
	events                              *regmap.Register
	enable, macHi, dscp, ttl            regmap.Field
	selConn, selPath                    regmap.Field
	state, cmd, check, peerMacHi        regmap.Field
	iMacLo, iMacHi, iIP, iQPN, iTx, iRx int
}

// newLayout looks every register and field the model uses up in m.
func newLayout(m *regmap.Map) (layout, error) {
	var l layout
	var errs []error
	fld := func(reg, name string) regmap.Field {
		r, _, err := find(m, reg)
		if err != nil {
			errs = append(errs, err)
			return regmap.Field{}
		}
		f, err := fieldOf(r, name)
		errs = append(errs, err)
		return f
	}
	idx := func(reg string) int {
		r, b, err := find(m, reg)
		if err != nil {
			errs = append(errs, err)
			return 0
		}
		l.conn = b
		return int(r.Offset / 4)
	}
	l.enable, l.macHi, l.dscp, l.ttl = fld("CTRL", "enable"), fld("LOCAL_MAC_HI", "value"),
		fld("IP_TOS", "dscp"), fld("IP_TOS", "ttl")
	l.selConn, l.selPath = fld("PATH_SEL", "conn"), fld("PATH_SEL", "path")
	l.state, l.cmd = fld("CONN_STATUS", "state"), fld("CONN_CMD", "cmd")
	l.check, l.peerMacHi = fld("CONN_PEER_MAC_HI", "check"), fld("CONN_PEER_MAC_HI", "value")
	l.iMacLo, l.iMacHi, l.iIP = idx("CONN_PEER_MAC_LO"), idx("CONN_PEER_MAC_HI"), idx("CONN_PEER_IP")
	l.iQPN, l.iTx, l.iRx = idx("CONN_PEER_QPN"), idx("CONN_TX_PSN"), idx("CONN_RX_PSN")
	ev, _, err := find(m, "EVENTS")
	errs = append(errs, err)
	l.events = ev
	if l.conn != nil {
		for i, r := range l.conn.Registers {
			if r.Offset != uint32(4*i) {
				errs = append(errs, errors.New("nicrocecsr: the conn window's registers are not dense in order"))
			}
		}
	}
	return l, errors.Join(errs...)
}

package system

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseFailure parses a path failure PATH@AT_US[-UNTIL_US] (no UNTIL: the path stays down).
func ParseFailure(s string) (Failure, error) {
	bad := fmt.Errorf("--fail %q: want PATH@AT_US or PATH@AT_US-UNTIL_US, e.g. 3@100 or 3@100-250", s)
	path, when, ok := strings.Cut(s, "@")
	if !ok {
		return Failure{}, bad
	}
	p, err := strconv.Atoi(path)
	if err != nil {
		return Failure{}, bad
	}
	at, until, healed := strings.Cut(when, "-")
	f := Failure{Path: p}
	if f.AtUS, err = strconv.ParseFloat(at, 64); err != nil {
		return Failure{}, bad
	}
	if healed {
		if f.UntilUS, err = strconv.ParseFloat(until, 64); err != nil {
			return Failure{}, bad
		}
	}
	return f, nil
}

// ParseReconnect parses a connection manager's reconnect CONN@AT_US.
func ParseReconnect(s string) (Reconnect, error) {
	conn, at, ok := strings.Cut(s, "@")
	var r Reconnect
	var err1, err2 error
	r.Conn, err1 = strconv.Atoi(conn)
	r.AtUS, err2 = strconv.ParseFloat(at, 64)
	if !ok || err1 != nil || err2 != nil {
		return Reconnect{}, fmt.Errorf("--reconnect %q: want CONN@AT_US, e.g. 3@100", s)
	}
	return r, nil
}

// ParseSlowPath parses a slow fabric path PATH:GBPS.
func ParseSlowPath(s string) (SlowPath, error) {
	p, g, ok := strings.Cut(s, ":")
	var sp SlowPath
	var err1, err2 error
	sp.Path, err1 = strconv.Atoi(p)
	sp.Gbps, err2 = strconv.Atoi(g)
	if !ok || err1 != nil || err2 != nil {
		return SlowPath{}, fmt.Errorf("--slow %q: want PATH:GBPS, e.g. 0:50", s)
	}
	return sp, nil
}

// ParseReset parses an endpoint reset SIDE@AT_US, SIDE A or B.
func ParseReset(s string) (Reset, error) {
	side, at, ok := strings.Cut(s, "@")
	r := Reset{Side: strings.Index("AB", strings.ToUpper(side))}
	var err error
	if r.AtUS, err = strconv.ParseFloat(at, 64); !ok || err != nil || len(side) != 1 || r.Side < 0 {
		return Reset{}, fmt.Errorf("--reset %q: want SIDE@AT_US with SIDE A or B, e.g. B@100", s)
	}
	return r, nil
}

// parseAll parses every value with parse.
func parseAll[T any](vs []string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, v := range vs {
		x, err := parse(v)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// Schedule is the text form of the scheduled events of a run, as the command line gives them.
type Schedule struct {
	// Failures (PATH@AT_US[-UNTIL_US]), Reconnects (CONN@AT_US), Slow paths (PATH:GBPS), Resets (SIDE@AT_US).
	Failures, Reconnects, Slow, Resets []string
}

// Apply parses the schedule into o.
func (s Schedule) Apply(o *Options) error {
	var err error
	if o.Reconnects, err = parseAll(s.Reconnects, ParseReconnect); err != nil {
		return err
	}
	if o.Slow, err = parseAll(s.Slow, ParseSlowPath); err != nil {
		return err
	}
	if o.Resets, err = parseAll(s.Resets, ParseReset); err != nil {
		return err
	}
	o.Failures, err = parseAll(s.Failures, ParseFailure)
	return err
}

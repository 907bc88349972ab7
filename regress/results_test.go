package regress_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"testing"

	"github.com/spraynic/spraynic/regress"
	"github.com/stretchr/testify/require"
)

func rec(test string, seed uint64, st regress.Status) regress.Record {
	r := regress.Record{Test: test, Config: "default", Seed: seed, RequestedCycles: 100,
		Cycles: 100, Transactions: 7, Status: st, Repro: "spraynic run --test " + test,
		Seconds: 0.5}
	if st != regress.StatusPass {
		r.Error = "lockstep mismatch at cycle 3\n  reproduce: " + r.Repro
	}
	return r
}

func TestMerge(t *testing.T) {
	a := regress.Results{Suite: "s", FirstSeed: 1, Shard: "1/2", Total: 3,
		Runs: []regress.Record{rec("rx_a", 1, regress.StatusPass), rec("rx_b", 1, regress.StatusFail)}}
	b := regress.Results{Suite: "s", FirstSeed: 1, Shard: "2/2", Total: 3,
		Runs: []regress.Record{rec("rx_a", 2, regress.StatusPass)}}
	other := b
	other.Suite = "t"
	three := b
	three.Shard = "2/3"
	overlap := b
	overlap.Runs = []regress.Record{rec("rx_a", 1, regress.StatusPass)}
	short := b
	short.Runs = nil
	for _, tc := range []struct {
		name  string
		parts []regress.Results
		runs  int
		err   string
	}{
		{name: "two shards", parts: []regress.Results{a, b}, runs: 3},
		{name: "order free", parts: []regress.Results{b, a}, runs: 3},
		{name: "one shard only", parts: []regress.Results{a}, runs: 2},
		{name: "other suite", parts: []regress.Results{a, other}, err: "is suite t"},
		{name: "other shard count", parts: []regress.Results{a, three}, err: "has 2 shards"},
		{name: "same shard twice", parts: []regress.Results{a, a}, err: "are both shard 1/2"},
		{name: "overlapping runs", parts: []regress.Results{a, overlap}, err: "is in both"},
		{name: "missing runs", parts: []regress.Results{a, short}, err: "hold 2 runs, but the suite has 3"},
		{name: "nothing", err: "no results files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var names []string
			for i := range tc.parts {
				names = append(names, string(rune('A'+i))+".json")
			}
			m, err := regress.Merge(tc.parts, names)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, m.Runs, tc.runs, "merged runs")
			require.Equal(t, 1, m.Failed(), "one failure survives the merge")
		})
	}
}

func TestReadResults(t *testing.T) {
	good := `{"suite":"s","first_seed":1,"total":1,` +
		`"runs":[{"test":"rx_a","config":"default","seed":1,"requested_cycles":10,"status":"PASS"}]}`
	run := `{"test":"a","config":"c","requested_cycles":1,"status":"PASS"}`
	for _, tc := range []struct {
		name, body, err string
	}{
		{name: "good", body: good},
		{name: "not json", body: "table\n", err: "not a spraynic results file"},
		{name: "no suite", body: `{"runs":[]}`, err: "field suite: empty"},
		{name: "bad status",
			body: `{"suite":"s","total":1,"runs":[{"test":"a","config":"c","requested_cycles":1,"status":"OK"}]}`,
			err:  `field status: value "OK"`},
		{name: "no cycles", body: `{"suite":"s","total":1,"runs":[{"test":"a","config":"c","status":"PASS"}]}`,
			err: "field requested_cycles"},
		{name: "duplicate", body: `{"suite":"s","total":2,"runs":[` + run + `,` + run + `]}`, err: "appears twice"},
		{name: "total too small", body: `{"suite":"s","total":0,"runs":[` + run + `]}`, err: "field total"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "r.json")
			require.NoError(t, os.WriteFile(f, []byte(tc.body), 0o644))
			rs, err := regress.ReadResults(f)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				require.ErrorContains(t, err, f, "the error names the file")
				return
			}
			require.NoError(t, err)
			require.Len(t, rs.Runs, 1)
			// A round trip keeps every field.
			g := filepath.Join(t.TempDir(), "g.json")
			require.NoError(t, regress.WriteResults(g, rs))
			back, err := regress.ReadResults(g)
			require.NoError(t, err)
			require.Equal(t, rs, back, "results survive a write and a read")
		})
	}
}

func TestJUnit(t *testing.T) {
	rs := regress.Results{Suite: "smoke", Total: 2,
		Runs: []regress.Record{rec("rx_a", 1, regress.StatusPass), rec("rx_b", 2, regress.StatusTimeout)}}
	var b bytes.Buffer
	require.NoError(t, regress.WriteJUnit(&b, rs))
	var doc struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Time    string `xml:"time,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b.Bytes(), &doc), "JUnit output is XML:\n%s", b.String())
	require.Len(t, doc.Suites, 1)
	s := doc.Suites[0]
	require.Equal(t, "spraynic.smoke", s.Name)
	require.Equal(t, 2, s.Tests)
	require.Equal(t, 1, s.Failures)
	require.Equal(t, "rx_a/default/1", s.Cases[0].Name, "testcase named test/config/seed")
	require.Equal(t, "0.500", s.Cases[0].Time)
	require.Nil(t, s.Cases[0].Failure)
	require.NotNil(t, s.Cases[1].Failure)
	require.Equal(t, "TIMEOUT", s.Cases[1].Failure.Type)
	require.Equal(t, "lockstep mismatch at cycle 3", s.Cases[1].Failure.Message)
	require.Contains(t, s.Cases[1].Failure.Text, "reproduce: spraynic run --test rx_b",
		"the failure carries the reproduce command")
}

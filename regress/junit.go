package regress

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/spraynic/spraynic/outfile"
)

// The JUnit XML elements CI systems read (Jenkins, GitLab, GitHub test reporters).
type (
	// junitSuites is the document root.
	junitSuites struct {
		XMLName xml.Name     `xml:"testsuites"`
		Suites  []junitSuite `xml:"testsuite"`
	}
	// junitSuite is one regression.
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Time     string      `xml:"time,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	// junitCase is one run: test/config/seed.
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitFailure `xml:"failure,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	// junitFailure carries the error: message is its first line, the body the whole text.
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes rs as JUnit XML: one testcase per run named test/config/seed, a failure (type = status) with
// the error text and reproduce command, and the run's time.
func WriteJUnit(w io.Writer, rs Results) error {
	s := junitSuite{Name: "spraynic." + rs.Suite}
	total := 0.0
	for _, r := range rs.Runs {
		c := junitCase{Name: fmt.Sprintf("%s/%s/%d", r.Test, r.Config, r.Seed),
			Classname: "spraynic." + rs.Suite + "." + r.Test, Time: fmt.Sprintf("%.3f", r.Seconds),
			SystemOut: fmt.Sprintf("cycles=%d transactions=%d %s\nreproduce: %s", r.Cycles, r.Transactions, r.Detail,
				r.Repro)}
		if r.Status != StatusPass {
			msg, _, _ := strings.Cut(r.Error, "\n")
			text := r.Error
			if !strings.Contains(text, r.Repro) {
				text += "\n  reproduce: " + r.Repro
			}
			c.Failure = &junitFailure{Message: msg, Type: string(r.Status), Text: text}
			s.Failures++
		}
		total += r.Seconds
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	s.Time = fmt.Sprintf("%.3f", total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitSuite{s}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteJUnitFile writes rs as JUnit XML to file.
func WriteJUnitFile(file string, rs Results) error {
	return outfile.WriteWith(file, func(w io.Writer) error { return WriteJUnit(w, rs) })
}

package app

import (
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

// A total Solve cannot read names the row's own label, in the page's
// language, with the text as typed: "worst-total: “10s31s” is not valid"
// named the CLI's flag.
func TestSolveErrorNamesTheRow(t *testing.T) {
	for _, c := range []struct {
		l          i18n.Lang
		typed      string
		expected   bool
		want, flag string
	}{
		{i18n.En, "10s31s", false, "Fit the base to a total of: “10s31s” is not valid: want a duration", "worst-total"},
		{i18n.Ru, "10 с31 с", true, "Подобрать основу под общее ожидание: «10 с31 с» не подходит: нужна длительность", "expected-total"},
	} {
		g := backoff.Goal{Knob: backoff.ParamBase, Target: backoff.WorstTotal}
		if c.expected {
			g.Target = backoff.ExpectedTotal
		}
		_, err := backoff.ParseDuration(g.Target.String(), i18n.CanonDuration(c.typed), backoff.MaxDeadline)
		if err == nil {
			t.Fatalf("%q read", c.typed)
		}
		p := &policyPanel{Lang: c.l, solve: solveState{knob: backoff.ParamBase, total: c.typed, expected: c.expected, err: err}}
		got := p.solveStatus(backoff.ParamBase)
		if !strings.HasPrefix(got, c.want) || strings.Contains(got, c.flag) {
			t.Errorf("%s: %q, want it to start %q and not name %s", c.l.Code(), got, c.want, c.flag)
		}
	}
	// An error of the knob itself still names the knob.
	pol := backoff.Default()
	_, err := backoff.Solve(pol, backoff.Goal{Knob: backoff.ParamBase, Target: backoff.WorstTotal, Total: time.Nanosecond})
	if err != nil {
		p := &policyPanel{Lang: i18n.En, solve: solveState{knob: backoff.ParamBase, total: "1ns", err: err}}
		if got := p.solveStatus(backoff.ParamBase); strings.Contains(got, "Fit the base") {
			t.Errorf("a knob's error %q named the row", got)
		}
	}
}

package app

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Each group of scenarios is one row under one label, wherever its
// scenarios are listed ("Chains and channels:" showed twice, the two
// clients after the fleet's row), and every scenario has its button once.
func TestScenarioRowsOneLabelEach(t *testing.T) {
	for _, l := range i18n.Langs {
		html := app.HTMLString(&scenarioButtons{Lang: l})
		seen := map[string]bool{}
		for _, sc := range scenarios {
			if label := l.T("scenario.group-" + sc.group); !seen[label] {
				seen[label] = true
				if n := strings.Count(html, ">"+label+"<"); n != 1 {
					t.Errorf("%s: %q shows %d times", l.Code(), label, n)
				}
			}
			if n := strings.Count(html, `id="scenario-`+sc.name+`"`); n != 1 {
				t.Errorf("%s: scenario %s has %d buttons", l.Code(), sc.name, n)
			}
		}
		if rows := strings.Count(html, `class="take-away"`); rows != len(seen) {
			t.Errorf("%s: %d rows for %d groups", l.Code(), rows, len(seen))
		}
	}
}

// The page runs a scenario as the CLI's --scenario does: the state its
// query gives runs the config sim.Scenario.Config gives, field for field.
func TestScenarioConfigsMatchCLI(t *testing.T) {
	for _, sc := range sim.Scenarios() {
		st, notes := parseQuery(sc.Query)
		if len(notes) > 0 {
			t.Errorf("%s: notices %v", sc.Name, notes)
		}
		want, err := sc.Config()
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		if got := st.Herd.config(st.Policy); got != want {
			t.Errorf("%s: the page runs\n%+v\nthe CLI\n%+v", sc.Name, got, want)
		}
	}
}

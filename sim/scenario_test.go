package sim

import (
	"net/url"
	"slices"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// Every scenario is a valid config whose query uses only known keys, each
// once, and whose names are unique; fleet-crash is the fleet the page's
// lesson describes.
func TestScenarios(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Scenarios() {
		if seen[s.Name] {
			t.Errorf("%s twice", s.Name)
		}
		seen[s.Name] = true
		q, err := url.ParseQuery(s.Query)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range q {
			if len(v) != 1 || k != ScenarioPreset && !slices.Contains(ParamNames, k) && !slices.Contains(backoff.ParamNames, k) {
				t.Errorf("%s: key %s=%v", s.Name, k, v)
			}
		}
		if _, err := s.Config(); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
	c, err := mustScenario(t, "fleet-crash").Config()
	if err != nil || c.Servers != 2 || c.Balance != RoundRobin || c.Concurrency != 5 || c.Policy.Attempts != 4 ||
		c.Faults[0].Kind != FaultCrash || c.Faults[0].Servers != 1 || c.Rate != 70 {
		t.Errorf("fleet-crash: %+v, %v", c, err)
	}
	if _, err := LookupScenario("nope"); err == nil || err.Error() != `scenario: "nope" is not valid: want one of metastable, metastable-budget, hedge, open, closed, chain, chain-top, aloha, slotted, ethernet, fleet-crash, fleet-least, two-clients, cache-flush` {
		t.Errorf("unknown scenario: %v", err)
	}
}

func mustScenario(t *testing.T, name string) Scenario {
	s, err := LookupScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

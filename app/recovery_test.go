package app

import (
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// A recovery the moment the fault ends says so in words: fleet-least's
// verdict read "Recovered 0 after the crash ended", a number without its
// unit. The scenario's own run is the case.
func TestRecoveryText(t *testing.T) {
	p := newPlayground()
	p.load("scenario=fleet-least")
	c := p.st.Herd.config(p.st.Policy)
	r, err := sim.Run(c, p.st.Seed)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := sim.VerdictOf(c, r)
	if !ok || v.RecoveredAt == nil || *v.RecoveredAt != v.End {
		t.Fatalf("fleet-least: %+v, want a recovery as the crash ends", v)
	}
	for _, c := range []struct {
		l    i18n.Lang
		want string
	}{
		{i18n.En, "Recovered as soon as the crash ended (at 10s)."},
		{i18n.Ru, "Восстановился сразу после конца падения (в 10\u00a0с)."},
	} {
		if got := recoveryText(c.l, v); got != c.want {
			t.Errorf("%s: %q, want %q", c.l.Code(), got, c.want)
		}
	}
	later := 12.5
	v.RecoveredAt = &later
	if got := recoveryText(i18n.En, v); got != "Recovered 2.5s after the crash ended (at 12.5s)." {
		t.Errorf("later: %q", got)
	}
}

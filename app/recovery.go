package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// recoveryText words a run's recovery verdict (sim.VerdictOf) in l.
func recoveryText(l i18n.Lang, v sim.Verdict) string {
	what := l.T("fault-word." + v.Fault.String())
	switch {
	case v.RecoveredAt != nil && *v.RecoveredAt <= v.End:
		// "Recovered 0 after" read as a number without its unit.
		return l.F("req.verdict-recovered-at-once", what, l.Seconds(*v.RecoveredAt))
	case v.RecoveredAt != nil:
		return l.F("req.verdict-recovered", l.Seconds(*v.RecoveredAt-v.End), what, l.Seconds(*v.RecoveredAt))
	case v.Load == 0:
		return l.F("req.verdict-none", what)
	case v.RetriesHold:
		return l.F("req.verdict-held", what, l.Float(v.Load, 1)+"×")
	}
	return l.F("req.verdict-load", what, l.Float(v.Load, 2)+"×")
}

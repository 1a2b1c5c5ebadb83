package chart

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// HerdVerdictText words a herd's verdict (sim.HerdVerdictOf) in l, as the
// steady traffic's recovery is worded: "All 5,000 clients gave up 28s
// before the server came back.", "The last client succeeded 41s after the
// outage ended (at 51s)." The page's #herd-verdict and the CLI's verdict
// line are this text.
func HerdVerdictText(l i18n.Lang, v sim.HerdVerdict) string {
	n := func(k int) string { return l.Int(int64(k)) }
	gaveUp := func(key string, k int) string {
		rel, d := v.Since(v.LastGaveUp)
		return l.F(key+rel, n(k), l.Seconds(d))
	}
	var s string
	switch {
	case v.AllGaveUp():
		s = gaveUp("herd.verdict-all-gave-up-", v.Clients)
	case v.Succeeded > 0:
		// A success is placed after the return or at its time: one before
		// the server went down says nothing of its return.
		if rel, d := v.Since(v.LastSuccess); rel == sim.After {
			s = l.F("herd.verdict-last-success-after", l.Seconds(d), l.Seconds(v.LastSuccess))
		} else {
			s = l.F("herd.verdict-last-success-at", l.Seconds(v.LastSuccess))
		}
		if v.GaveUp > 0 {
			s += " " + gaveUp("herd.verdict-some-gave-up-", v.GaveUp)
		}
	case v.GaveUp > 0: // the rest still trying
		s = gaveUp("herd.verdict-some-gave-up-", v.GaveUp)
	}
	if v.Unfinished > 0 {
		if s != "" {
			s += " "
		}
		s += l.F("herd.verdict-unfinished", n(v.Unfinished))
	}
	return s
}

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
	var s string
	switch {
	case v.AllGaveUp():
		switch {
		case v.Outage && v.LastGaveUp < v.Back:
			s = l.F("herd.verdict-all-gave-up-before", n(v.Clients), l.Seconds(v.Back-v.LastGaveUp))
		case v.Outage:
			s = l.F("herd.verdict-all-gave-up-after", n(v.Clients), l.Seconds(v.LastGaveUp-v.Back))
		default:
			s = l.F("herd.verdict-all-gave-up-at", n(v.Clients), l.Seconds(v.LastGaveUp))
		}
	case v.Succeeded > 0:
		if v.Outage && v.LastSuccess >= v.Back {
			s = l.F("herd.verdict-last-success-after", l.Seconds(v.LastSuccess-v.Back), l.Seconds(v.LastSuccess))
		} else {
			s = l.F("herd.verdict-last-success-at", l.Seconds(v.LastSuccess))
		}
		if v.GaveUp > 0 {
			switch {
			case v.Outage && v.LastGaveUp < v.Back:
				s += " " + l.F("herd.verdict-some-gave-up-before", n(v.GaveUp), l.Seconds(v.Back-v.LastGaveUp))
			case v.Outage:
				s += " " + l.F("herd.verdict-some-gave-up-after", n(v.GaveUp), l.Seconds(v.LastGaveUp-v.Back))
			default:
				s += " " + l.F("herd.verdict-some-gave-up-at", n(v.GaveUp), l.Seconds(v.LastGaveUp))
			}
		}
	case v.GaveUp > 0: // the rest still trying
		if v.Outage && v.LastGaveUp < v.Back {
			s = l.F("herd.verdict-some-gave-up-before", n(v.GaveUp), l.Seconds(v.Back-v.LastGaveUp))
		} else if v.Outage {
			s = l.F("herd.verdict-some-gave-up-after", n(v.GaveUp), l.Seconds(v.LastGaveUp-v.Back))
		} else {
			s = l.F("herd.verdict-some-gave-up-at", n(v.GaveUp), l.Seconds(v.LastGaveUp))
		}
	}
	if v.Unfinished > 0 {
		if s != "" {
			s += " "
		}
		s += l.F("herd.verdict-unfinished", n(v.Unfinished))
	}
	return s
}

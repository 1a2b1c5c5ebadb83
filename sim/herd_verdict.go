package sim

// HerdEnds are when a herd's last clients ended, in seconds of simulated
// time: the last success and the last give-up, 0 when there was none.
// They are the events' own times (the timeline has them only to a bucket).
// A request-level run leaves them 0: its verdict is Verdict's. They stay
// out of the totals' JSON, whose herd keys are as they were: a front end
// writes them with the verdict.
type HerdEnds struct {
	LastSuccess float64 `json:"-"`
	LastGaveUp  float64 `json:"-"`
}

// HerdVerdict is what a herd run says of its clients and the server's
// return, as facts a front end words in its language: "all 5,000 clients
// gave up 28s before the server came back", "the last client succeeded
// 41s after the outage ended".
type HerdVerdict struct {
	Clients, Succeeded, GaveUp, Unfinished int
	// Returned is set when the server was down and came back, at Back
	// (the end of the dead time its model brings). Without it Back is 0.
	Returned bool
	Back     float64
	// LastSuccess and LastGaveUp are HerdEnds': when the last client that
	// succeeded did, and when the last one that gave up did.
	LastSuccess, LastGaveUp float64
}

// AllGaveUp reports whether every client gave up (none succeeded, none
// was still trying).
func (v HerdVerdict) AllGaveUp() bool { return v.GaveUp == v.Clients && v.Clients > 0 }

// The three ways a verdict places a moment: before or after the server's
// return, or at a time of the run when there was no return to measure
// from. A front end words each (its catalog's -before, -after and -at).
const (
	Before = "before"
	After  = "after"
	At     = "at"
)

// Since places t against the server's return: Before with d = Back - t,
// After with d = t - Back, or At with d = t when the server never went
// down.
func (v HerdVerdict) Since(t float64) (rel string, d float64) {
	switch {
	case !v.Returned:
		return At, t
	case t < v.Back:
		return Before, v.Back - t
	}
	return After, t - v.Back
}

// HerdVerdictOf is r's herd verdict; ok is false for a request-level run
// (Verdict words those) or a run without clients.
func HerdVerdictOf(c Config, r *Result) (v HerdVerdict, ok bool) {
	if r == nil || r.Totals.RequestLevel || r.Totals.Clients == 0 {
		return HerdVerdict{}, false
	}
	t := &r.Totals
	v = HerdVerdict{Clients: t.Clients, Succeeded: t.Succeeded, GaveUp: t.GaveUp, Unfinished: t.Unfinished,
		LastSuccess: t.LastSuccess, LastGaveUp: t.LastGaveUp}
	if _, end, down := c.OwnOutage(); down {
		v.Returned, v.Back = true, end
	}
	return v, true
}

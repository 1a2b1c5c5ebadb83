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
	// Outage is set for the outage server; Back is then when it came back
	// (the outage's end). Without an outage Back is 0, the run's start.
	Outage bool
	Back   float64
	// LastSuccess and LastGaveUp are HerdEnds': when the last client that
	// succeeded did, and when the last one that gave up did.
	LastSuccess, LastGaveUp float64
}

// AllGaveUp reports whether every client gave up (none succeeded, none
// was still trying).
func (v HerdVerdict) AllGaveUp() bool { return v.GaveUp == v.Clients && v.Clients > 0 }

// GaveUpBeforeBack is how long before the server came back the last
// give-up was: positive when every client that gave up had done so while
// the server was still down, and 0 without an outage.
func (v HerdVerdict) GaveUpBeforeBack() float64 {
	if !v.Outage {
		return 0
	}
	return v.Back - v.LastGaveUp
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
	if r.OutageEnd > r.OutageStart { // the model's own outage
		v.Outage, v.Back = true, r.OutageEnd
	}
	return v, true
}

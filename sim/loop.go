package sim

import "math"

// The run loop. Advance begins every client, then pops events in (time,
// sequence) order and hands each to handle by the client's phase: try
// sends a call, the server model answers it (server.go), answer and reply
// bring the answer back, and decide turns it into the client's next try or
// its end, asking the breaker and the budget on the way. With no budget or
// breaker (fast) nothing a client does on an answer affects the others, so
// the answer and the next try are worked out when the server answers.

// Advance handles at most maxEvents events (at least one) and reports
// whether the run is over. A page calls it in slices of a few milliseconds.
func (s *Sim) Advance(maxEvents int) (done bool) {
	if s.done {
		return true
	}
	if s.req != nil {
		return s.advanceRequests(maxEvents)
	}
	for n := 0; n < max(1, maxEvents); n++ {
		if s.begun < s.clients {
			s.begin()
			continue
		}
		// At most 4 sequence numbers per try and MaxCalls tries keep
		// them below 1<<32 (read.seq); the second test is a guard.
		if s.q.len() == 0 || s.tries >= s.maxCalls || s.q.seq >= 1<<32-8 {
			if s.q.len() > 0 {
				s.stop(StopCalls, s.now)
			}
			s.finish()
			return true
		}
		e := s.q.pop()
		if e.t < s.now {
			s.violations++
		}
		if e.t > s.horizon {
			s.stop(StopHorizon, s.horizon)
			s.finish()
			return true
		}
		s.now = e.t
		s.seen(e.t)
		s.handle(e.client(), &e.c, e.t, e.key>>clientBits)
	}
	s.updateProgress()
	return false
}

// stop records that the run was cut short, by what and when: the first
// cause counts.
func (s *Sim) stop(by string, at float64) {
	if !s.truncated {
		s.truncated, s.truncBy, s.stoppedAt = true, by, at
	}
}

// advanceRequests is Advance for a request-level run (engine.go).
func (s *Sim) advanceRequests(maxEvents int) bool {
	done := s.req.advance(maxEvents)
	s.progress, s.violations = s.req.progress, s.req.violations
	if done {
		s.done, s.res = true, s.req.res
	}
	return done
}

// handle is client i's event at t, carrying the client's state c; seq is
// the event's queue sequence number.
func (s *Sim) handle(i int, c *client, t float64, seq uint64) {
	switch c.phase() & phMask {
	case phSend:
		s.try(i, c, t)
	case phArrive:
		ok, ra := s.srv.serve(t)
		s.served(t, ok)
		s.answer(i, c, t, outcomeOf(ok, ra))
	case phReplyOK:
		s.reply(i, c, t, outOK)
	case phReplyFail:
		s.reply(i, c, t, outFail)
	case phReplyRA:
		s.reply(i, c, t, outRetryAfter)
	case phWrite:
		ok := s.srv.occ.write(i, t, seq)
		s.served(t, ok)
		s.answer(i, c, t, outcomeOf(ok, false))
	}
}

// try: client i starts a try at t (a read for occ), and goes on trying for
// as long as each try's fate is known without the queue: a call refused by
// the open breaker, or (fast path) one that reaches the server during the
// outage, fails whatever else happens, so the client's next try is worked
// out at once. A loop, not recursion: unlimited attempts stay flat.
func (s *Sim) try(i int, c *client, t float64) {
	for {
		if t > s.horizon {
			s.stop(StopHorizon, s.horizon) // the client stays unfinished
			return
		}
		if s.tries >= s.maxCalls {
			s.stop(StopCalls, t)
			return
		}
		s.seen(t)
		if c.tries() == 0 {
			c.first = t
			s.tl.at(t).started++
			s.active++
		}
		c.addTry()
		s.tries++
		if s.fair.trace != nil {
			s.fair.record(i, t, TraceTry)
		}
		out := outFail
		if s.br.kind != NoBreaker {
			allowed, probe := s.br.allow(t)
			if probe {
				c.setPhase(c.phase() | phProbe)
			}
			if !allowed {
				s.blocked++
				s.tl.at(t).blocked++
				out = outBlocked
			}
		}
		tr := t // when the client learns the outcome
		if out != outBlocked {
			ta := t + s.hop()
			if s.srv.twoStep() {
				s.tryOCC(i, c, ta)
				return
			}
			s.countCall(i, c, t)
			if !s.fast || !s.srv.doomed(ta) {
				s.schedule(i, c, ta, phArrive)
				return
			}
			s.tl.at(ta).rejected++
			s.srv.failed++
			s.srv.down++
			if s.srv.ra {
				out = outRetryAfter
			}
			tr = ta + s.hop()
			s.seen(tr)
		}
		next, again := s.decide(i, c, tr, out)
		if !again {
			return
		}
		if s.br.kind != NoBreaker {
			s.schedule(i, c, next, phSend)
			return
		}
		t = next
	}
}

// countCall counts the call client i starts at t (occ: its write, when
// sent).
func (s *Sim) countCall(i int, c *client, t float64) {
	s.calls++
	if s.trace != nil {
		s.trace.call(i, c.tries(), t)
	}
	b := s.tl.at(t)
	b.calls++
	if c.tries() > 1 {
		b.retries++
	}
}

// served counts the server's answer at t.
func (s *Sim) served(t float64, ok bool) {
	b := s.tl.at(t)
	if ok {
		b.ok++
		s.srv.served++
	} else {
		b.rejected++
		s.srv.failed++
	}
}

// answer sends the server's answer back to client i. On the fast path
// nothing shared waits for it, so the client handles it now.
func (s *Sim) answer(i int, c *client, t float64, out outcome) {
	tr := t + s.hop()
	if !s.fast {
		ph := phReplyFail
		switch out {
		case outOK:
			ph = phReplyOK
		case outRetryAfter:
			ph = phReplyRA
		}
		s.schedule(i, c, tr, ph)
		return
	}
	s.seen(tr)
	if next, again := s.decide(i, c, tr, out); again {
		s.try(i, c, next)
	}
}

// reply is a reply event: the slow path's answer reaching client i.
func (s *Sim) reply(i int, c *client, t float64, out outcome) {
	next, again := s.decide(i, c, t, out)
	switch {
	case !again:
	case s.br.kind != NoBreaker:
		// The breaker's state when the retry is sent decides it.
		s.schedule(i, c, next, phSend)
	default:
		// Nothing shared changes when a retry is sent (the ratio budget
		// counted it already), so send it now.
		s.try(i, c, next)
	}
}

// decide: the outcome of client i's try reaches it at t. It finishes
// (again false) or names the time of its next try.
func (s *Sim) decide(i int, c *client, t float64, out outcome) (next float64, again bool) {
	ok, ra := out == outOK, out == outRetryAfter
	wasRetry := c.tries() > 1
	if s.trace != nil {
		o := CallRefused
		if ok {
			o = CallOK
		}
		s.trace.report(i, t, o)
	}
	if s.br.kind != NoBreaker && out != outBlocked {
		probe := c.phase()&phProbe != 0
		c.setPhase(c.phase() &^ phProbe)
		s.br.record(t, ok, probe)
	}
	if s.budget.kind != NoBudget {
		s.budget.answered(wasRetry, ok)
	}
	if ok {
		s.succeeded++
		// Not the last one met: the fast path works out a client's answer
		// and its tries in the outage ahead of the events' order.
		s.ends.LastSuccess = max(s.ends.LastSuccess, t)
		s.completions = append(s.completions, t-c.first)
		s.fair.ended(i, true, c.tries(), t-c.first)
		if s.fair.trace != nil {
			s.fair.record(i, t, TraceSuccess)
		}
		s.end(t)
		return 0, false
	}
	n := c.tries()
	if a := s.c.Policy.Attempts; a > 0 && n >= a {
		s.giveUp(i, c, t)
		return 0, false
	}
	var prev float64
	pp := &prev
	if s.hist {
		pp = &s.state[i]
	}
	d := s.delays.Next(n, pp, s.src.float64())
	if ra && s.c.HonorRetryAfter {
		var keep bool
		if d, keep = s.policy.WithRetryAfter(d, s.c.RetryAfter.Seconds()); !keep {
			s.giveUp(i, c, t)
			return 0, false
		}
	}
	next = s.align(t + d)
	if dl := s.c.Policy.Deadline; dl > 0 && next-c.first > dl.Seconds() {
		s.giveUp(i, c, t)
		return 0, false
	}
	if s.budget.kind != NoBudget && !s.budget.retry(s.active) {
		s.giveUp(i, c, t)
		return 0, false
	}
	return next, true
}

// giveUp: client i ran out of attempts, deadline or budget at t.
func (s *Sim) giveUp(i int, c *client, t float64) {
	s.gaveUp++
	s.ends.LastGaveUp = max(s.ends.LastGaveUp, t)
	s.fair.ended(i, false, c.tries(), t-c.first)
	if s.fair.trace != nil {
		s.fair.record(i, t, TraceGaveUp)
	}
	s.end(t)
}

// end: a client finished at t (its state is simply dropped).
func (s *Sim) end(t float64) {
	s.tl.at(t).finished++
	s.active--
}

// hop is one network delay, seconds.
func (s *Sim) hop() float64 {
	if s.sd == 0 {
		return s.lat
	}
	x, ok := normFast(s.src.Uint64())
	if !ok {
		s.src.unread()
		x = s.rng.NormFloat64()
	}
	return math.Abs(s.lat + s.sd*x)
}

// schedule puts client i's next event, carrying its state c, on the queue
// at t with the phase; a probe's mark stays on until its answer.
func (s *Sim) schedule(i int, c *client, t float64, phase uint8) {
	if t < s.now {
		s.violations++
	}
	c.setPhase(phase | c.phase()&phProbe)
	s.q.push(t, i, *c)
}

// seen records that something happened at t (the makespan).
func (s *Sim) seen(t float64) {
	if t > s.last {
		s.last = t
	}
}

// updateProgress is Progress after a slice of Advance.
func (s *Sim) updateProgress() {
	p := float64(s.succeeded+s.gaveUp) / float64(s.clients)
	p = math.Max(p, float64(s.tries)/float64(s.maxCalls))
	if p > 0.999 {
		p = 0.999 // 1 only when done
	}
	s.progress = math.Max(s.progress, p)
}

package sim

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Every discipline's text form: what Set reads, what Get gives back
// (trailing defaults left out), and the error naming the field, the whole
// value, the argument at fault and the allowed range.
func TestDisciplineText(t *testing.T) {
	ms := func(n float64) float64 { return n * 1e6 }
	forms := []string{"fifo", "lifo", "bounded:N", "codel[:N[:M]]", "adaptive-lifo[:N]"}
	for _, tc := range []struct {
		in, get string
		kind    string
		args    PartArgs
		code    string
		part    string
		errArgs []string
	}{
		{in: "fifo", get: "fifo", kind: "fifo"},
		{in: "LIFO", get: "lifo", kind: "lifo"},
		{in: "bounded:50", get: "bounded:50", kind: "bounded", args: PartArgs{50}},
		{in: "bounded: 7", get: "bounded:7", kind: "bounded", args: PartArgs{7}},
		{in: "bounded:1000000000", get: "bounded:1000000000", kind: "bounded", args: PartArgs{1e9}},
		{in: "codel", get: "codel", kind: "codel", args: PartArgs{ms(100), ms(5)}},
		{in: "codel:200ms", get: "codel:200ms", kind: "codel", args: PartArgs{ms(200), ms(5)}},
		{in: "codel:100ms:10ms", get: "codel:100ms:10ms", kind: "codel", args: PartArgs{ms(100), ms(10)}},
		{in: "codel:0.1s:5ms", get: "codel", kind: "codel", args: PartArgs{ms(100), ms(5)}},
		{in: "codel:1s:0s", get: "codel:1s:0s", kind: "codel", args: PartArgs{ms(1000), 0}},
		{in: "adaptive-lifo", get: "adaptive-lifo", kind: "adaptive-lifo", args: PartArgs{ms(100)}},
		{in: "adaptive-lifo:0s", get: "adaptive-lifo:0s", kind: "adaptive-lifo", args: PartArgs{0}},
		{in: "adaptive-lifo:1h", get: "adaptive-lifo:1h", kind: "adaptive-lifo", args: PartArgs{3600e9}},

		{in: "", code: backoff.CodeFormat, errArgs: forms},
		{in: "random", code: backoff.CodeFormat, errArgs: forms},
		{in: "fifo:1", code: backoff.CodeFormat, errArgs: forms},
		{in: "lifo:", code: backoff.CodeFormat, errArgs: forms},
		{in: "bounded", code: backoff.CodeFormat, errArgs: forms},
		{in: "bounded:1:2", code: backoff.CodeFormat, errArgs: forms},
		{in: "codel:1s:1ms:1ms", code: backoff.CodeFormat, errArgs: forms},
		{in: "bounded:0", code: backoff.CodeInt, part: "N", errArgs: []string{"1", "1000000000"}},
		{in: "bounded:2.5", code: backoff.CodeInt, part: "N", errArgs: []string{"1", "1000000000"}},
		{in: "bounded:1000000001", code: backoff.CodeInt, part: "N", errArgs: []string{"1", "1000000000"}},
		{in: "codel:0s", code: backoff.CodeDuration, part: "N", errArgs: []string{"1µs", "1h"}},
		{in: "codel:", code: backoff.CodeDuration, part: "N", errArgs: []string{"1µs", "1h"}},
		{in: "codel:100ms:2h", code: backoff.CodeDuration, part: "M", errArgs: []string{"0s", "1h"}},
		{in: "codel:100ms:-1ms", code: backoff.CodeDuration, part: "M", errArgs: []string{"0s", "1h"}},
		{in: "adaptive-lifo:soon", code: backoff.CodeDuration, part: "N", errArgs: []string{"0s", "1h"}},
	} {
		c := DefaultConfig()
		c.Server = Queue
		before := c
		err := c.Set(ParamDiscipline, tc.in)
		if tc.code != "" {
			fe, ok := err.(*backoff.FieldError)
			if !ok {
				t.Errorf("%q: error %T %v, want a FieldError", tc.in, err, err)
				continue
			}
			if fe.Field != ParamDiscipline || fe.Value != tc.in || fe.Code != tc.code || fe.Part != tc.part || !slices.Equal(fe.Args, tc.errArgs) {
				t.Errorf("%q: %+v, want code %s part %q args %q", tc.in, fe, tc.code, tc.part, tc.errArgs)
			}
			if c != before {
				t.Errorf("%q: a failed Set changed the config", tc.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		d := c.Discipline
		if got := c.Get(ParamDiscipline); got != tc.get || d.QueueDiscipline().Name() != tc.kind || d.Args != tc.args {
			t.Errorf("%q: Get %q, kind %s, args %v; want %q, %s, %v", tc.in, got, d.QueueDiscipline().Name(), d.Args, tc.get, tc.kind, tc.args)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%q: %v", tc.in, err)
		}
	}
}

// The CLI's and the error's words come from each part's declaration.
func TestDisciplineSyntax(t *testing.T) {
	want := map[string][2]string{
		"fifo":          {"fifo", ""},
		"lifo":          {"lifo", ""},
		"bounded":       {"bounded:N", "N from 1 to 1000000000"},
		"codel":         {"codel[:N[:M]]", "N from 1µs to 1h (default 100ms), M from 0s to 1h (default 5ms)"},
		"adaptive-lifo": {"adaptive-lifo[:N]", "N from 0s to 1h (default 100ms)"},
	}
	if got := DisciplineNames(); !slices.Equal(got, []string{"fifo", "lifo", "bounded", "codel", "adaptive-lifo"}) {
		t.Errorf("DisciplineNames() = %q", got)
	}
	for _, d := range Disciplines() {
		w := want[d.Name()]
		if DisciplineSyntax(d) != w[0] || DisciplineRanges(d) != w[1] || d.Help() == "" {
			t.Errorf("%s: syntax %q, ranges %q, help %q; want %q, %q", d.Name(), DisciplineSyntax(d), DisciplineRanges(d), d.Help(), w[0], w[1])
		}
	}
}

// Only the queue server has a queue: another model with a discipline is
// refused, naming the server; fifo (the zero value) is every model's.
func TestDisciplineNeedsQueue(t *testing.T) {
	for _, name := range ServerNames() {
		c := DefaultConfig()
		if err := c.Set(ParamServer, name); err != nil {
			t.Fatal(err)
		}
		if name != "occ" {
			c.Timeout = time.Second // every model's request-level run
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := c.Set(ParamDiscipline, "lifo"); err != nil {
			t.Fatal(err)
		}
		err := c.Validate()
		if name == "queue" {
			if err != nil {
				t.Errorf("queue with lifo: %v", err)
			}
			continue
		}
		fe, ok := err.(*backoff.FieldError)
		if !ok || fe.Field != ParamDiscipline || fe.Value != "lifo" || fe.Code != backoff.CodeNeeds || fe.Other != ParamServer ||
			!slices.Equal(fe.Args, []string{name, "fifo", "fifo"}) {
			t.Errorf("%s with lifo: %#v", name, err)
		}
	}
	// A config built in code is checked as Set would have.
	c := DefaultConfig()
	c.Server = Queue
	c.Discipline = Discipline{Kind: 2, Args: PartArgs{0}}
	if fe, ok := c.Validate().(*backoff.FieldError); !ok || fe.Field != ParamDiscipline || fe.Part != "N" || fe.Code != backoff.CodeInt {
		t.Errorf("bounded:0 built in code: %v", c.Validate())
	}
	c.Discipline = Discipline{Kind: 99}
	if fe, ok := c.Validate().(*backoff.FieldError); !ok || fe.Field != ParamDiscipline || fe.Code != backoff.CodeFormat {
		t.Errorf("kind 99 built in code: %v", c.Validate())
	}
}

// FuzzParseDiscipline: no text makes the parser panic; every error is a
// FieldError about the discipline; what it reads prints back to itself.
func FuzzParseDiscipline(f *testing.F) {
	for _, s := range []string{"fifo", "lifo", "bounded:5", "codel", "codel:1s", "codel:1s:0s", "adaptive-lifo:0s",
		"codel::", ":", "bounded:-0", "codel:1e400s", "bounded:0x10", "adaptive-lifo:1h0m0.000000001s", "codel:1µs:1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDiscipline(s)
		if err != nil {
			if fe, ok := err.(*backoff.FieldError); !ok || fe.Field != ParamDiscipline || len(fe.Value) > 70 {
				t.Fatalf("%q: %#v", s, err)
			}
			return
		}
		back, err := parseDiscipline(d.text())
		if err != nil || back != d {
			t.Fatalf("%q: read %+v, printed %q, read back %+v, %v", s, d, d.text(), back, err)
		}
		c := DefaultConfig()
		c.Server, c.Discipline = Queue, d
		if err := c.Discipline.validate(&c); err != nil {
			t.Fatalf("%q: read, then refused: %v", s, err)
		}
	})
}

// lawWatch holds a run's queue servers to their discipline's laws as
// they move, from what it sees itself: when each queue last went from
// empty to not, which calls wait, and when each arrived.
type lawWatch struct {
	d      Discipline
	since  map[uint8]float64 // each server's queue non-empty since
	limit  int               // Config.QueueLimit
	allow  map[qkey]float64  // codel: each queued call's allowed wait
	most   int               // the longest queue seen
	took   int               // calls taken from a queue
	newest int               // of them, taken while an older one waited
	shed   int               // calls refused as overdue
	err    error

	a       Admission
	let     map[uint8][]float64 // each server's admission times
	limited int                 // 429s seen
}

func (w *lawWatch) admitted(sv *rserver, t float64, ok bool, ra float64) {
	rule := w.a.Rule().Name()
	if !ok {
		w.limited++
		// The rate limits know when a call would be let in; the
		// concurrency limits cannot.
		if ra < 0 || (ra > 0) != (rule != "concurrency" && rule != "aimd") {
			w.fail("%s refused a call at %g s with Retry-After %g s", rule, t, ra)
		}
		return
	}
	w.let[sv.k] = append(w.let[sv.k], t)
	if inside := sv.live + sv.busy; rule == "concurrency" && inside >= int(w.a.Arg(0)) {
		w.fail("concurrency:%g let a call in at %g s with %d inside", w.a.Arg(0), t, inside)
	}
}

// admissionLaws: each server's admissions keep the rule's law, stated
// from its arguments: a token bucket lets in at most RATE x span + BURST
// over any span, a fixed window at most N in each aligned window of W, a
// sliding window at most N in any window of W.
func (w *lawWatch) admissionLaws() error {
	x, y := w.a.Arg(0), w.a.Arg(1)
	for k, ts := range w.let {
		switch w.a.Rule().Name() {
		case "token-bucket":
			// i..j let in (j - i + 1) over ts[j] - ts[i]: with
			// f(i) = i - RATE ts[i], f(j) - f(i) <= BURST - 1 for all i <= j.
			least := math.Inf(1)
			for j, tj := range ts {
				f := float64(j) - x*tj
				least = math.Min(least, f)
				if f-least > y-1+1e-9*(1+x*tj) {
					return fmt.Errorf("token-bucket:%g:%g: server %d let in more than RATE x span + BURST by %g s", x, y, k, tj)
				}
			}
		case "fixed-window":
			n := map[float64]int{}
			for _, t := range ts {
				if n[math.Floor(t/y)]++; n[math.Floor(t/y)] > int(x) {
					return fmt.Errorf("fixed-window:%g:%gs: server %d let in %d in the window of %g s", x, y, k, n[math.Floor(t/y)], t)
				}
			}
		case "sliding-window":
			for j := int(x); j < len(ts); j++ {
				if ts[j]-ts[j-int(x)] < y*(1-1e-12) {
					return fmt.Errorf("sliding-window:%g:%gs: server %d let in %g calls within %g s at %g s", x, y, k, x+1, ts[j]-ts[j-int(x)], ts[j])
				}
			}
		}
	}
	return nil
}

type qkey struct {
	k         uint8
	id, stamp uint32
	copy      uint8
}

func (w *lawWatch) fail(format string, a ...any) {
	if w.err == nil {
		w.err = fmt.Errorf(format, a...)
	}
}

// name is the run's discipline's name: the laws are the discipline's,
// stated here from its declared arguments, not from its code.
func (w *lawWatch) name() string { return w.d.QueueDiscipline().Name() }

func (w *lawWatch) queued(sv *rserver, t float64, e *qentry) {
	if sv.live == 1 {
		w.since[sv.k] = t
	}
	w.most = max(w.most, sv.live)
	if w.limit > 0 && sv.live > w.limit {
		w.fail("queue-limit %d: %d waiting at %g s", w.limit, sv.live, t)
	}
	switch w.name() {
	case "bounded":
		if n := int(w.d.Arg(0)); sv.live > n {
			w.fail("bounded:%d: %d waiting at %g s", n, sv.live, t)
		}
	case "codel":
		// Its wait is set as it arrives: M if the queue had not been
		// empty for N before it came (it is not the first waiting), else N.
		n, m := w.d.Arg(0), w.d.Arg(1)
		allowed := n
		if sv.live > 1 && t-w.since[sv.k] > n {
			allowed = m
		}
		w.allow[qkey{sv.k, e.id, e.stamp, e.copy}] = allowed
	}
}

func (w *lawWatch) taken(sv *rserver, t float64, e *qentry, overdue bool) {
	waited := t - e.t
	var older, newer bool // a live call still waiting came before e, after e
	for p := sv.q.head; p < sv.q.tail; p++ {
		if o := sv.q.at(p); !o.dead {
			older = older || o.t < e.t
			newer = newer || o.t > e.t
		}
	}
	lifo := false
	switch w.name() {
	case "lifo":
		lifo = true
	case "adaptive-lifo":
		lifo = t-w.since[sv.k] > w.d.Arg(0) // since: before e left, the queue was not empty
	case "codel":
		key := qkey{sv.k, e.id, e.stamp, e.copy}
		allowed, ok := w.allow[key]
		delete(w.allow, key)
		if !ok {
			w.fail("codel: a call taken at %g s was never queued", t)
		}
		if overdue != (waited > allowed) {
			w.fail("codel: a call that waited %g s of its %g s was overdue %v at %g s", waited, allowed, overdue, t)
		}
	}
	if overdue {
		w.shed++
		if w.name() != "codel" {
			w.fail("%s refused a call as overdue", w.name())
		}
		return
	}
	w.took++
	if older {
		w.newest++
	}
	if lifo && newer || !lifo && older {
		w.fail("%s (lifo %v): took a call of %g s at %g s with an older %v or newer %v one waiting", w.name(), lifo, e.t, t, older, newer)
	}
}

// randomDisciplineConfig is a random queue server config (one server or
// a fleet; open, loop or closed traffic; timeouts, hedges, faults, a
// queue limit) with a random discipline: overloaded in most draws.
func randomDisciplineConfig(rng *rand.Rand) Config {
	c := DefaultConfig()
	set := func(k, v string) {
		if err := c.Set(k, v); err != nil {
			panic(k + "=" + v + ": " + err.Error())
		}
	}
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	ms := func(lo, hi int) string { return strconv.Itoa(lo+rng.IntN(hi-lo+1)) + "ms" }
	set("server", "queue")
	set("concurrency", strconv.Itoa(1+rng.IntN(12)))
	set("service", ms(5, 150))
	set("service-dist", pick("exp", "fixed", "lognormal:1", "bimodal:0.1:300ms"))
	if rng.IntN(3) == 0 {
		set("servers", strconv.Itoa(2+rng.IntN(3)))
		set("balance", pick(BalanceNames()...))
	}
	switch pick("closed", "open", "open", "loop") {
	case "closed":
		set("clients", strconv.Itoa(1+rng.IntN(400)))
		set("arrival", pick("burst", "uniform:2s"))
		set("timeout", ms(100, 2000))
	case "open":
		set("traffic", "open:"+strconv.Itoa(10+rng.IntN(400)))
		set("duration", strconv.Itoa(1+rng.IntN(15))+"s")
	default:
		set("traffic", "loop:"+strconv.Itoa(1+rng.IntN(80))+":"+ms(0, 200))
		set("duration", strconv.Itoa(1+rng.IntN(15))+"s")
	}
	set("discipline", pick("fifo", "lifo", "bounded:"+strconv.Itoa(1+rng.IntN(40)), "codel", "codel:"+ms(1, 300)+":"+ms(0, 30),
		"adaptive-lifo", "adaptive-lifo:"+ms(0, 300)))
	if rng.IntN(4) == 0 {
		set("queue-limit", strconv.Itoa(1+rng.IntN(60)))
	}
	set("admission", pick("none", "none", "token-bucket:"+strconv.Itoa(5+rng.IntN(200))+":"+strconv.Itoa(1+rng.IntN(30)),
		"fixed-window:"+strconv.Itoa(1+rng.IntN(50))+":"+ms(10, 1000), "sliding-window:"+strconv.Itoa(1+rng.IntN(50))+":"+ms(10, 1000),
		"concurrency:"+strconv.Itoa(1+rng.IntN(40)), "aimd", "aimd:"+ms(0, 300)))
	set("honor-retry-after", pick("true", "false"))
	set("latency", ms(0, 50))
	set("attempts", strconv.Itoa(1+rng.IntN(4)))
	if rng.IntN(2) == 0 {
		set("timeout", ms(50, 2000))
		set("drop-expired", pick("true", "false"))
	}
	if rng.IntN(4) == 0 {
		set("hedge", pick("p90", "100ms"))
		set("hedge-cancel", pick("true", "false"))
	}
	if rng.IntN(3) == 0 {
		from := rng.IntN(8)
		set("fault", fmt.Sprintf("%s@%ds-%ds", pick("stall", "slow:3", "capacity:0.5", "crash", "errors:0.5"), from, from+1+rng.IntN(5)))
	}
	if rng.IntN(2) == 0 {
		set("drain", "true")
	}
	set("retry-after-s", pick("0s", "1s"))
	return c
}

// TestDisciplineLaws holds random runs of every discipline to its laws,
// watched call by call: bounded:N never holds more than N waiting (nor
// any queue more than queue-limit); codel serves no call that waited
// longer than its allowed wait (M if the queue had not been empty for N
// when it came, else N) and refuses exactly those; fifo, bounded and
// codel take the oldest waiting call, lifo the newest, adaptive-lifo the
// newest while the queue has not been empty for N and the oldest
// otherwise. Every call that reached a server ended there once (served,
// refused, refused while down, dropped, cancelled or lost); the queue's
// refusals are a part of the refusals; the run keeps TestLaws' laws; the
// same seed gives the same bytes.
func TestDisciplineLaws(t *testing.T) {
	n := 300
	if runtime.GOARCH == "wasm" {
		n = 50
	}
	rng := rand.New(rand.NewPCG(26, 2015))
	seen := map[string][3]int{} // per discipline: runs, calls taken while older ones waited, calls shed
	for i := range n {
		c := randomDisciplineConfig(rng)
		seed := rng.Uint64()
		s, err := New(c, seed)
		if err != nil {
			t.Fatalf("config %d (discipline %s): %v", i, c.Get(ParamDiscipline), err)
		}
		w := &lawWatch{d: c.Discipline, since: map[uint8]float64{}, limit: c.QueueLimit, allow: map[qkey]float64{},
			a: c.Admission, let: map[uint8][]float64{}}
		s.req.watch = w
		for !s.Advance(1 << 16) {
		}
		r := s.Result()
		desc := fmt.Sprintf("config %d (%s, seed %d)", i, describeForTest(c), seed)
		if w.err == nil {
			w.err = w.admissionLaws()
		}
		if w.err != nil {
			t.Errorf("%s: %v", desc, w.err)
			continue
		}
		if err := checkLaws(c, r); err != nil {
			t.Errorf("%s: %v", desc, err)
			continue
		}
		tt := r.Totals
		if tt.Shed+tt.Limited > tt.Refused || tt.Shed < w.shed || tt.Limited != w.limited {
			t.Errorf("%s: shed %d and limited %d of %d refused; %d overdue, %d 429s seen", desc, tt.Shed, tt.Limited, tt.Refused, w.shed, w.limited)
		}
		if c.QueueLimit == 0 && w.name() != "bounded" && w.name() != "codel" && tt.Shed != 0 {
			t.Errorf("%s: %s with no limit shed %d", desc, w.name(), tt.Shed)
		}
		if !r.Truncated && (c.Traffic == Closed || c.Drain) {
			ended := tt.Served + tt.Refused + tt.OutageFails + tt.Dropped + tt.Cancelled + tt.Lost
			if ended != tt.Calls {
				t.Errorf("%s: %d calls (%d of them hedges) reached the server, %d ended there (served %d refused %d outage %d dropped %d cancelled %d lost %d)",
					desc, tt.Calls, tt.Hedges, ended, tt.Served, tt.Refused, tt.OutageFails, tt.Dropped, tt.Cancelled, tt.Lost)
			}
		}
		if i%10 == 0 {
			a, _ := json.Marshal(r)
			b, _ := json.Marshal(run(t, c, seed))
			if !bytes.Equal(a, b) {
				t.Errorf("%s: two runs differ", desc)
			}
		}
		x := seen[w.name()]
		seen[w.name()] = [3]int{x[0] + 1, x[1] + w.newest, x[2] + tt.Shed}
		x = seen[w.a.Rule().Name()]
		seen[w.a.Rule().Name()] = [3]int{x[0] + 1, 0, x[2] + tt.Limited}
	}
	// The draws reached what the laws are about: every discipline, queues
	// that reordered calls and queues that shed them.
	for _, name := range DisciplineNames() {
		x := seen[name]
		t.Logf("%s: %d runs, %d calls taken before older ones, %d shed", name, x[0], x[1], x[2])
		if x[0] < n/20 || (name == "lifo" || name == "adaptive-lifo") && x[1] == 0 || (name == "bounded" || name == "codel") && x[2] == 0 {
			t.Errorf("%s: %d runs, %d reordered, %d shed: the draws miss its laws", name, x[0], x[1], x[2])
		}
	}
	for _, name := range AdmissionNames() {
		x := seen[name]
		t.Logf("admission %s: %d runs, %d refused", name, x[0], x[2])
		if x[0] < n/25 || name != "none" && x[2] == 0 {
			t.Errorf("admission %s: %d runs, %d refused: the draws miss its law", name, x[0], x[2])
		}
	}
}

// describeForTest names a config's parameters that differ from the
// default, for a failing law's message.
func describeForTest(c Config) string {
	def := DefaultConfig()
	s := ""
	for _, name := range append(slices.Clone(ParamNames), backoff.ParamNames...) {
		if v := c.Get(name); v != def.Get(name) {
			s += name + "=" + v + " "
		}
	}
	return s
}

// The published behaviour (Maurer, "Fail at Scale", ACM Queue 2015): a
// queue server offered more than it can serve, its callers giving up
// after a timeout. Ten workers of mean 100 ms (exponential) serve 100
// calls/s; open traffic of 150 requests/s for 60 s, no retries, a 1 s
// timeout, no network delay.
//
// FIFO: the queue grows at 150 - 100 = 50 calls/s, so a call arriving at
// t waits about t/2 s; from t = 2 s every call waits past its caller's
// timeout and is served for nobody. Goodput is then at most the 150 x 2 =
// 300 requests of the first two seconds over 60 s: 5/s; allow 8/s.
//
// LIFO, adaptive LIFO, bounded:20 and CoDel keep the server busy (at
// 150/s it idles only when no call waits, which a standing queue makes
// rare) with calls whose callers still wait. Throughput is 100/s less
// the idle time, within 4 standard deviations of a Poisson count
// (sqrt(6000)/60 = 1.3/s); goodput is that less the few calls served too
// late: at least 90% of capacity for LIFO, adaptive LIFO and bounded:20
// (whose longest wait, 20 calls over 10 workers of 100 ms, is 0.3 s with
// its service, under the timeout). CoDel's 5 ms allowance under a
// standing queue leaves workers idle when no call came in the last 5 ms
// (0.75 calls expected): at least 85%. FIFO behind the AIMD limit
// (target 50 ms) keeps the queue near its target, so the calls it serves
// are in time, but each cut can take the limit below the ten workers and
// idle some: at least 70%.
func TestOverloadedQueueDisciplines(t *testing.T) {
	const capacity = 100.0
	for _, tc := range []struct {
		discipline string
		lo, hi     float64 // goodput per second
		shed       bool
		busy       bool   // no worker idles while calls wait
		admission  string // "": none
	}{
		{"fifo", 0, 8, false, true, ""},
		{"lifo", 0.9 * capacity, capacity, false, true, ""},
		{"adaptive-lifo", 0.9 * capacity, capacity, false, true, ""},
		{"bounded:20", 0.9 * capacity, capacity, true, true, ""},
		{"codel", 0.85 * capacity, capacity, true, false, ""},
		{"fifo", 0.7 * capacity, capacity, false, false, "aimd"},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			c := DefaultConfig()
			for _, kv := range [][2]string{{"server", "queue"}, {"concurrency", "10"}, {"service", "100ms"}, {"traffic", "open:150"},
				{"duration", "60s"}, {"timeout", "1s"}, {"attempts", "1"}, {"latency", "0s"}, {"discipline", tc.discipline}, {"admission", cmp.Or(tc.admission, "none")}} {
				if err := c.Set(kv[0], kv[1]); err != nil {
					t.Fatal(err)
				}
			}
			r := run(t, c, seed)
			tt := r.Totals
			name := tc.discipline + " " + tc.admission
			t.Logf("%s seed %d: goodput %.1f/s, throughput %.1f/s, shed %d, limited %d, timeouts %d", name, seed, tt.GoodputPerS,
				tt.ThroughputPerS, tt.Shed, tt.Limited, tt.Timeouts)
			if tt.GoodputPerS < tc.lo || tt.GoodputPerS > tc.hi {
				t.Errorf("%s seed %d: goodput %.1f/s, want %.0f to %.0f", name, seed, tt.GoodputPerS, tc.lo, tc.hi)
			}
			sd := math.Sqrt(capacity*60) / 60
			if tc.busy && tt.ThroughputPerS < capacity-4*sd || tt.ThroughputPerS > capacity+4*sd {
				t.Errorf("%s seed %d: throughput %.1f/s, want about %g", name, seed, tt.ThroughputPerS, capacity)
			}
			if (tt.Shed > 0) != tc.shed || (tt.Limited > 0) != (tc.admission != "") {
				t.Errorf("%s seed %d: shed %d, limited %d", name, seed, tt.Shed, tt.Limited)
			}
		}
	}
}

// The metastable failure of Bronson et al. (HotOS 2021), which the
// disciplines of Maurer's "Fail at Scale" end: open traffic of 280
// requests/s for 120 s into a queue server of 30 workers of 100 ms (300
// calls/s), callers timing out after 1 s and trying twice; the server
// stalls from 20 s to 30 s.
//
// FIFO: the stall leaves a queue longer than the timeout; every call
// served after it waited past its caller's timeout, whose retry keeps
// the load near twice capacity, so the queue never drains and goodput
// after 30 s is nothing: at most the 280 x 20 s of before the stall over
// 120 s, 46.7/s (and 2% of noise), never recovered.
//
// LIFO, adaptive LIFO, bounded:30 and CoDel serve calls whose callers
// still wait, so the backlog stops feeding retries and every request
// offered outside the stall succeeds: 280 x 110 / 120 = 256.7/s, within
// 3% (requests of the stall's last second that retry after it may
// succeed too), recovered as the stall ends (30 s).
func TestMetastableDisciplines(t *testing.T) {
	seeds := uint64(3)
	if runtime.GOARCH == "wasm" {
		seeds = 1
	}
	const rate, total = 280.0, 120.0
	for _, d := range []string{"fifo", "lifo", "adaptive-lifo", "bounded:30", "codel"} {
		for seed := uint64(1); seed <= seeds; seed++ {
			c := DefaultConfig()
			for _, kv := range [][2]string{{"server", "queue"}, {"concurrency", "30"}, {"service", "100ms"}, {"traffic", "open:280"},
				{"duration", "2m"}, {"timeout", "1s"}, {"attempts", "2"}, {"fault", "stall@20s-30s"}, {"discipline", d}} {
				if err := c.Set(kv[0], kv[1]); err != nil {
					t.Fatal(err)
				}
			}
			tt := run(t, c, seed).Totals
			at := "never"
			if tt.RecoveredAt != nil {
				at = strconv.FormatFloat(*tt.RecoveredAt, 'g', -1, 64) + " s"
			}
			t.Logf("%s seed %d: goodput %.1f/s, %s, recovered at %s", d, seed, tt.GoodputPerS, tt.Recovery, at)
			if d == "fifo" {
				if most := rate * 20 / total * 1.02; tt.GoodputPerS > most || tt.Recovery != NotRecovered {
					t.Errorf("fifo seed %d: goodput %.1f/s (want at most %.1f), %s: want no recovery", seed, tt.GoodputPerS, most, tt.Recovery)
				}
				continue
			}
			want := rate * 110 / total
			if math.Abs(tt.GoodputPerS-want) > 0.03*want || tt.Recovery != Recovered || tt.RecoveredAt == nil || *tt.RecoveredAt > 31 {
				t.Errorf("%s seed %d: goodput %.1f/s (want %.1f ± 3%%), %s at %s: want recovered by 31 s", d, seed, tt.GoodputPerS, want, tt.Recovery, at)
			}
		}
	}
}

// FullValue writes every argument of a part, the defaults too, where Get
// leaves trailing defaults out.
func TestFullValueWritesDefaults(t *testing.T) {
	for _, c := range []struct{ param, set, get, full string }{
		{ParamDiscipline, "codel", "codel", "codel:100ms:5ms"},
		{ParamDiscipline, "codel:50ms", "codel:50ms", "codel:50ms:5ms"},
		{ParamDiscipline, "adaptive-lifo", "adaptive-lifo", "adaptive-lifo:100ms"},
		{ParamDiscipline, "fifo", "fifo", "fifo"},
		{ParamAdmission, "aimd", "aimd", "aimd:50ms"},
		{ParamAdmission, "token-bucket:100:10", "token-bucket:100:10", "token-bucket:100:10"},
		{ParamServer, "queue", "queue", "queue"},
	} {
		cfg := DefaultConfig()
		if err := cfg.Set(c.param, c.set); err != nil {
			t.Fatal(err)
		}
		if got := cfg.Get(c.param); got != c.get {
			t.Errorf("Get(%s) after %q = %q, want %q", c.param, c.set, got, c.get)
		}
		if got := cfg.FullValue(c.param); got != c.full {
			t.Errorf("FullValue(%s) after %q = %q, want %q", c.param, c.set, got, c.full)
		}
	}
}

package sim

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// gateModel is a model that exists only in the tests, written as the
// package doc's recipe says, to prove that a model is its file: nothing
// else in the package names it. The gate is open for the first part of
// every second, its own parameter gate-open (half by default), where a
// token bucket of Capacity serves calls; in the rest it refuses every
// call. It honours outages, stalls, crashes and errors, but not the
// faults that change a rate (slow, capacity).
type gateModel struct{ rated }

var (
	gateServer = Register(&gateModel{})
	gateOpen   = RegisterParam(gateServer, ModelParam{Name: "gate-open", Kind: FloatParam, Min: 0.01, Max: 1, Default: 0.5,
		Help: "gate server: the share of each second the gate is open, from its start"})
)

// gateFields are its fields: a fixed slice, as Fields is asked on every
// render of the page.
var gateFields = []string{ParamCapacity, ParamCapacityWindow, gateOpen.Name}

func (*gateModel) Fields(*Config) []string { return gateFields }

func (*gateModel) Name() string                 { return "gate" }
func (*gateModel) Labels() (short, long string) { return "server.gate", "server.gate-long" }

func (*gateModel) Traits() Traits {
	t := (&rated{}).Traits()
	t.Faults = FaultSet(FaultOutage, FaultStall, FaultErrors, FaultCrash)
	return t
}

// Validate: its own rule on a shared field, a capacity of at least 2
// calls/s, so that the open half serves one.
func (m *gateModel) Validate(c *Config) error {
	if err := m.rated.Validate(c); err != nil {
		return err
	}
	if c.Capacity < 2 {
		return &backoff.FieldError{Field: ParamCapacity, Value: formatFloat(c.Capacity), Code: backoff.CodeNeeds,
			Other: ParamServer, Args: []string{c.Server.String(), "2", formatFloat(MaxCapacity)},
			Allowed: "at least 2 calls per second for the gate server"}
	}
	return nil
}

func (*gateModel) Describe(c *Config) string {
	return "server gate (" + strconv.FormatFloat(c.Capacity, 'g', 8, 64) + " calls/s, open " + c.Get(gateOpen.Name) + " of every second)"
}

// NewTaker reads the open share once, as the run starts.
func (*gateModel) NewTaker(c *Config) Taker {
	return &gateTaker{bucketTaker{b: newBucket(c), rate: c.Capacity}, gateOpen.Float(c)}
}

type gateTaker struct {
	bucketTaker
	open float64
}

func (g *gateTaker) Take(t float64) bool { return t-math.Floor(t) < g.open && g.bucketTaker.Take(t) }

// estServe: the bucket, for the part of the wave that finds it open.
func (*gateModel) estServe(e *estimator, x *estWave) float64 {
	return e.tokens(x, e.c.Capacity, gateOpen.Float(e.c), x.first)
}

// The registry holds the built-in models at their constants and the
// test's after them; Set, Get and Validate read it.
func TestRegistry(t *testing.T) {
	want := []string{"capacity", "outage", "collapse", "occ", "queue", "channel", "gate"}
	if got := ServerNames(); !slices.Equal(got, want) {
		t.Fatalf("ServerNames() = %v, want %v", got, want)
	}
	if gateServer != ServerModel(6) || gateServer.String() != "gate" || ServerModel(7).Model() != nil || ServerModel(7).String() != "unknown" {
		t.Fatalf("gate is %d %q; model 7 is %v", gateServer, gateServer, ServerModel(7).Model())
	}
	for i, m := range Models() {
		if short, long := m.Labels(); short != "server."+m.Name() || long != short+"-long" {
			t.Errorf("%s's labels are %q, %q", m.Name(), short, long)
		}
		if ServerModel(i).Model() != m {
			t.Errorf("model %d is not %s", i, m.Name())
		}
	}
	c := DefaultConfig()
	if err := c.Set(ParamServer, "gate"); err != nil || c.Server != gateServer || c.Get(ParamServer) != "gate" {
		t.Fatalf("Set server gate: %v, %d, %q", err, c.Server, c.Get(ParamServer))
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second model named gate was registered")
		}
	}()
	Register(&gateModel{})
}

// A model's fields are what a form shows and help lists: each model's
// own, and every field that is no model's for all.
func TestFields(t *testing.T) {
	want := []string{ParamCapacity, ParamCapacityWindow, ParamOutageStart, ParamOutageEnd, ParamCollapseFactor,
		ParamCollapseWindow, ParamConcurrency, ParamService, ParamServiceDist, ParamQueueLimit, ParamDiscipline,
		ParamAdmission, ParamDropExpired, ParamChannel, ParamFrame, ParamSlot, "gate-open"}
	if got := ServerFields(); !slices.Equal(got, want) {
		t.Errorf("ServerFields() = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		server ServerModel
		edit   func(*Config)
		uses   []string
	}{
		{Capacity, nil, []string{ParamCapacity, ParamCapacityWindow}},
		{Outage, nil, []string{ParamCapacity, ParamCapacityWindow, ParamOutageStart, ParamOutageEnd}},
		{Collapse, nil, []string{ParamCapacity, ParamCapacityWindow, ParamCollapseFactor, ParamCollapseWindow}},
		{OCC, nil, nil},
		{Queue, nil, []string{ParamConcurrency, ParamService, ParamServiceDist, ParamQueueLimit, ParamDiscipline, ParamAdmission}},
		{Queue, func(c *Config) { c.Timeout = time.Second }, []string{ParamConcurrency, ParamService, ParamServiceDist, ParamQueueLimit,
			ParamDiscipline, ParamAdmission, ParamDropExpired}},
		{Channel, nil, []string{ParamChannel, ParamFrame}},
		{Channel, func(c *Config) { c.Channel = Ethernet }, []string{ParamChannel, ParamFrame, ParamSlot}},
		{gateServer, nil, []string{ParamCapacity, ParamCapacityWindow, "gate-open"}},
	} {
		c := DefaultConfig()
		c.Server = tc.server
		if tc.edit != nil {
			tc.edit(&c)
		}
		var uses []string
		for _, f := range want {
			if c.UsesField(f) {
				uses = append(uses, f)
			}
		}
		if !slices.Equal(uses, tc.uses) {
			t.Errorf("%s (channel %s, timeout %s) uses %v, want %v", c.Server, c.Channel, c.Timeout, uses, tc.uses)
		}
		if !c.UsesField(ParamClients) || !c.UsesField(ParamFault) {
			t.Errorf("%s does not use clients or fault", c.Server)
		}
	}
}

// Every model describes itself in the CLI's words.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		server ServerModel
		want   string
	}{
		{Capacity, "server capacity (100 calls/s)"},
		{Outage, "server outage (down 0s-10s, then 100 calls/s)"},
		{Collapse, "server collapse (100 calls/s)"},
		{OCC, "server occ"},
		{Queue, "server queue (10 workers, 100ms exp)"},
		{Channel, "a shared channel (aloha, frames of 1ms)"},
		{gateServer, "server gate (100 calls/s, open 0.5 of every second)"},
	} {
		c := DefaultConfig()
		c.Server = tc.server
		if got := tc.server.Model().Describe(&c); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.server, got, tc.want)
		}
	}
}

// The test-only model validates its own rule, and the faults it does not
// honour are refused naming it; the ones it honours pass.
func TestGateValidate(t *testing.T) {
	check := func(edit func(*Config), field, code string, args []string) {
		t.Helper()
		c := DefaultConfig()
		c.Server = gateServer
		edit(&c)
		err := c.Validate()
		var fe *backoff.FieldError
		if field == "" {
			if err != nil {
				t.Errorf("%v", err)
			}
			return
		}
		if !errors.As(err, &fe) || fe.Field != field || fe.Code != code || !slices.Equal(fe.Args, args) {
			t.Errorf("got %v (%#v), want %s %s %v", err, fe, field, code, args)
		}
	}
	check(func(c *Config) { c.Capacity = 1.5 }, ParamCapacity, backoff.CodeNeeds, []string{"gate", "2", "1e+09"})
	check(func(c *Config) { c.Capacity = 0 }, ParamCapacity, backoff.CodePositive, []string{"1e+09"})
	want := "outage@START-END, stall@START-END, errors:F@START-END, crash@START-END or none"
	for _, f := range []string{"slow:2@1s-2s", "capacity:0.5@1s-2s"} {
		check(func(c *Config) { c.Faults, _ = parseFaults(f) }, ParamFault, backoff.CodeNeeds, []string{"gate", want, want})
	}
	for _, f := range []string{"outage@1s-2s", "stall@1s-2s", "errors:0.5@1s-2s", "crash@1s-2s"} {
		check(func(c *Config) { c.Faults, _ = parseFaults(f) }, "", "", nil)
	}
	check(func(c *Config) { c.Servers = 3 }, "", "", nil)
}

// Both engines run the test-only model through its Taker: every call
// reaching it in the second half of a second is refused, every one in
// the first half served (its bucket is far from empty), and
// EstimateCalls bounds the herd's tries.
func TestGateRuns(t *testing.T) {
	herd := DefaultConfig()
	herd.Server, herd.Capacity = gateServer, 1e6
	herd.Clients, herd.Arrival, herd.ArrivalWindow = 2000, Uniform, 10*time.Second
	herd.LatencySD, herd.Bucket = 0, 500*time.Millisecond
	open := herd
	if err := open.Set(ParamTraffic, "open:100"); err != nil {
		t.Fatal(err)
	}
	open.Duration = 10 * time.Second
	for _, c := range []Config{herd, open} {
		r, err := Run(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Totals.RequestLevel != (c.Traffic == Open) {
			t.Fatalf("RequestLevel = %v for traffic %s", r.Totals.RequestLevel, c.Get(ParamTraffic))
		}
		var ok, refused int
		for _, b := range r.Timeline {
			half := math.Mod(b.Start, 1) == 0.5
			if half && b.OK != 0 || !half && b.Rejected != 0 {
				t.Errorf("traffic %s: bucket at %gs: %d ok, %d rejected", c.Get(ParamTraffic), b.Start, b.OK, b.Rejected)
			}
			ok += b.OK
			refused += b.Rejected
		}
		if ok == 0 || refused == 0 {
			t.Errorf("traffic %s: %d ok, %d refused: the gate was not both open and shut", c.Get(ParamTraffic), ok, refused)
		}
		if est := EstimateCalls(c); !(est >= float64(r.Totals.Calls)) || est > 20*float64(r.Totals.Calls) {
			t.Errorf("traffic %s: EstimateCalls = %g for %d calls", c.Get(ParamTraffic), est, r.Totals.Calls)
		}
	}
}

// The built-in models with a Taker answer through it exactly as the
// herd's fast path does: the same results, seed for seed.
func TestTakersMatchFastPath(t *testing.T) {
	for _, m := range []ServerModel{Capacity, Outage, Collapse} {
		for _, jitter := range []string{"none", "full"} {
			c := DefaultConfig()
			c.Server, c.Clients = m, 3000
			if err := c.Set(backoff.ParamJitter, jitter); err != nil {
				t.Fatal(err)
			}
			if m == Collapse {
				c.CollapseFactor = 3
			}
			fast, err := Run(c, 7)
			if err != nil {
				t.Fatal(err)
			}
			viaTakers = true
			slow, err := Run(c, 7)
			viaTakers = false
			if err != nil {
				t.Fatal(err)
			}
			if fast.Totals.Succeeded == 0 || fast.Totals.Calls <= c.Clients {
				t.Fatalf("%s %s: %+v: not a test of the server", m, jitter, fast.Totals)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Errorf("%s, jitter %s: the taker's run differs: %+v\nfast path: %+v", m, jitter, slow.Totals, fast.Totals)
			}
		}
	}
}

// The gate's own parameter goes the way of every parameter: into
// ParamNames (the CLI's flags, the URL's keys, the JSON's keys), through
// Set and Get, refused out of range naming the field, the value and the
// range by Set and by Validate, shown where the gate is the server, and
// read by the runs.
func TestGateOpen(t *testing.T) {
	if n := len(ParamNames); ParamNames[n-1] != "gate-open" || ParamOwn("gate-open") != gateOpen || ParamOwn(ParamCapacity) != nil {
		t.Fatalf("ParamNames ends %v; ParamOwn(gate-open) = %v", ParamNames[n-3:], ParamOwn("gate-open"))
	}
	c := DefaultConfig()
	if got := c.Get("gate-open"); got != "0.5" || gateOpen.Float(&c) != 0.5 {
		t.Fatalf("default gate-open = %q", got)
	}
	if c.UsesField("gate-open") {
		t.Error("the outage server shows gate-open")
	}
	if err := c.Set("gate-open", "0,25"); err != nil || c.Get("gate-open") != "0.25" || gateOpen.Float(&c) != 0.25 {
		t.Fatalf("Set gate-open 0,25: %v, %q", err, c.Get("gate-open"))
	}
	want := &backoff.FieldError{Field: "gate-open", Value: "1.5", Code: backoff.CodeNumber, Args: []string{"0.01", "1"},
		Allowed: "a number from 0.01 to 1"}
	before := c
	if err := c.Set("gate-open", "1.5"); !reflect.DeepEqual(err, want) || c != before {
		t.Errorf("Set gate-open 1.5: %#v, want %#v (config changed: %v)", err, want, c != before)
	}
	c.Server = gateServer
	c.Own[gateOpen.slot] = 1.5
	if err := c.Validate(); !reflect.DeepEqual(err, want) {
		t.Errorf("Validate with gate-open 1.5: %#v, want %#v", err, want)
	}
	var fe *backoff.FieldError
	if err := c.Set("gate-opne", "1"); !errors.As(err, &fe) || fe.Code != backoff.CodeUnknown || !slices.Contains(fe.Args, "gate-open") {
		t.Errorf("an unknown name's error does not list gate-open: %v", err)
	}

	// With one attempt each and calls spread evenly over the seconds, the
	// share served is the share of the second the gate is open: 20000
	// calls give a standard error of at most 0.0036, so 0.02 is over 5
	// of them. Both engines read it.
	for _, open := range []string{"0.25", "0.75"} {
		herd := DefaultConfig()
		herd.Server, herd.Capacity = gateServer, 1e6
		herd.Clients, herd.Arrival, herd.ArrivalWindow = 20000, Uniform, 10*time.Second
		for name, v := range map[string]string{"gate-open": open, backoff.ParamAttempts: "1"} {
			if err := herd.Set(name, v); err != nil {
				t.Fatal(err)
			}
		}
		steady := herd
		if err := steady.Set(ParamTraffic, "open:1000"); err != nil {
			t.Fatal(err)
		}
		steady.Duration, steady.Drain = 20*time.Second, true
		share, _ := strconv.ParseFloat(open, 64)
		for _, c := range []Config{herd, steady} {
			r, err := Run(c, 3)
			if err != nil {
				t.Fatal(err)
			}
			got := float64(r.Totals.Succeeded) / float64(r.Totals.Calls)
			if r.Totals.Calls < 19000 || math.Abs(got-share) > 0.02 {
				t.Errorf("traffic %s, gate-open %s: %d of %d calls served (%.4f), want %.2f ± 0.02",
					c.Get(ParamTraffic), open, r.Totals.Succeeded, r.Totals.Calls, got, share)
			}
			t.Logf("traffic %s, gate-open %s: %d of %d served (%.4f)", c.Get(ParamTraffic), open, r.Totals.Succeeded, r.Totals.Calls, got)
			if est := EstimateCalls(c); !(est >= float64(r.Totals.Calls)) {
				t.Errorf("traffic %s: EstimateCalls = %g for %d calls", c.Get(ParamTraffic), est, r.Totals.Calls)
			}
		}
	}
}

// Fields are fixed slices: the page asks for them on every render. And
// every own parameter is among its model's fields, or no form shows it.
func TestFieldsFixed(t *testing.T) {
	for _, m := range Models() {
		for _, edit := range []func(*Config){nil, func(c *Config) { c.Timeout, c.Channel = time.Second, Ethernet }} {
			c := DefaultConfig()
			if edit != nil {
				edit(&c)
			}
			if n := testing.AllocsPerRun(10, func() { m.Fields(&c); m.Fields(nil) }); n != 0 {
				t.Errorf("%s's Fields allocates %g times", m.Name(), n)
			}
		}
	}
	for _, p := range ownParams {
		if !slices.Contains(p.Model.Model().Fields(nil), p.Name) {
			t.Errorf("%s is not among %s's fields", p.Name, p.Model)
		}
	}
}

// No line outside a model's own file asks which built-in model a config
// has, nor outside a node kind's file which kind a node is: the engines,
// the results, the topology's walk, the CLI and the page read Traits and
// hooks, so a new model or kind is its file, its strings and its test.
func TestNoModelSwitch(t *testing.T) {
	for _, part := range []struct {
		what      string
		asks, own *regexp.Regexp
	}{
		{"a model", regexp.MustCompile(`(==|!=)\s*(sim\.)?(Capacity|Outage|Collapse|OCC|Queue|Channel)\b|case\s+(sim\.)?(Capacity|Outage|Collapse|OCC|Queue|Channel)\b`),
			regexp.MustCompile(`^server_(capacity|outage|collapse|occ|queue|channel)\.go$`)},
		{"a node kind", regexp.MustCompile(`(==|!=)\s*(sim\.)?[kK]ind(Server|Balancer|Cache|Service)\b|case\s+(sim\.)?[kK]ind(Server|Balancer|Cache|Service)\b|Kind\s*(==|!=)\s*"[a-z]`),
			regexp.MustCompile(`^node_(server|balancer|cache|service)\.go$`)},
	} {
		n := 0
		for _, dir := range []string{".", "../app", "../app/chart", "../cmd/backoff", "../cmd/playground"} {
			files, err := filepath.Glob(filepath.Join(dir, "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if strings.HasSuffix(f, "_test.go") || dir == "." && part.own.MatchString(filepath.Base(f)) {
					continue
				}
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				n++
				for i, line := range strings.Split(string(b), "\n") {
					if code, _, _ := strings.Cut(line, "//"); part.asks.MatchString(code) {
						t.Errorf("%s:%d asks for %s: %s", f, i+1, part.what, strings.TrimSpace(line))
					}
				}
			}
		}
		if n < 50 {
			t.Errorf("read %d files", n)
		}
	}
}

package sim

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// gateModel is a model that exists only in the tests, written as the
// package doc's recipe says, to prove that a model is its file: nothing
// else in the package names it. The gate is open for the first half of
// every second, where a token bucket of Capacity serves calls; in the
// other half it refuses every call. It honours outages, stalls, crashes
// and errors, but not the faults that change a rate (slow, capacity).
type gateModel struct{ rated }

var gateServer = Register(&gateModel{})

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
	return "server gate (" + strconv.FormatFloat(c.Capacity, 'g', 8, 64) + " calls/s, the first half of every second)"
}

func (*gateModel) NewTaker(c *Config) Taker {
	return &gateTaker{bucketTaker{b: newBucket(c), rate: c.Capacity}}
}

type gateTaker struct{ bucketTaker }

func (g *gateTaker) Take(t float64) bool { return t-math.Floor(t) < 0.5 && g.bucketTaker.Take(t) }

// estServe: the bucket, for the half of the wave that finds it open.
func (*gateModel) estServe(e *estimator, x *estWave) float64 {
	return e.tokens(x, e.c.Capacity, 0.5, x.first)
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
		ParamCollapseWindow, ParamConcurrency, ParamService, ParamServiceDist, ParamQueueLimit, ParamDropExpired,
		ParamChannel, ParamFrame, ParamSlot}
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
		{Queue, nil, []string{ParamConcurrency, ParamService, ParamServiceDist, ParamQueueLimit}},
		{Queue, func(c *Config) { c.Timeout = time.Second }, []string{ParamConcurrency, ParamService, ParamServiceDist, ParamQueueLimit, ParamDropExpired}},
		{Channel, nil, []string{ParamChannel, ParamFrame}},
		{Channel, func(c *Config) { c.Channel = Ethernet }, []string{ParamChannel, ParamFrame, ParamSlot}},
		{gateServer, nil, []string{ParamCapacity, ParamCapacityWindow}},
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
		{gateServer, "server gate (100 calls/s, the first half of every second)"},
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

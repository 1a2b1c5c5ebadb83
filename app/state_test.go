package app

import (
	"net/url"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

func TestDefaultQuery(t *testing.T) {
	s := defaultState()
	got := s.query()
	want := "base=1s&factor=2&cap=30s&jitter=full&attempts=6&seed=1&clients=1000&server=outage"
	if got != want {
		t.Fatalf("default query\n got %s\nwant %s", got, want)
	}
}

func TestQueryRoundTrip(t *testing.T) {
	for _, q := range []string{
		"",
		"base=1s&factor=2&cap=30s&attempts=6&jitter=none",
		"preset=aws-standard&base=1s&factor=2&cap=30s&attempts=6&jitter=full&seed=1&clients=1000&server=outage",
		"preset=cenkalti&jitter=proportional&jitter-lo=0.3&jitter-hi=1.7&seed=42",
		"preset=sidekiq&attempts=4&scale=log",
		"jitter=decorrelated&deadline=1m&cap-mode=after&seed=7",
		"clients=100000&server=collapse&collapse-factor=2&budget=tokens:500:5:1&breaker=consecutive:5:5s&arrival=uniform:10s",
		"honor-retry-after=true&retry-after-s=2s&latency=10ms",
	} {
		s, notes := parseQuery(q)
		if len(notes) > 0 {
			t.Errorf("%q: unexpected notices %v", q, notes)
		}
		enc := s.query()
		s2, notes2 := parseQuery(enc)
		if len(notes2) > 0 {
			t.Errorf("%q: re-parse of %q gave notices %v", q, enc, notes2)
		}
		if s2 != s {
			t.Errorf("%q: round trip via %q changed the state:\n%+v\n%+v", q, enc, s, s2)
		}
		if enc2 := s2.query(); enc2 != enc {
			t.Errorf("%q: encoding not stable: %q then %q", q, enc, enc2)
		}
	}
}

func TestParseQueryRestoresValues(t *testing.T) {
	s, notes := parseQuery("base=250ms&factor=1.5&cap=2m&attempts=4&jitter=equal&seed=99&clients=10")
	if len(notes) != 0 {
		t.Fatal(notes)
	}
	p := s.Policy
	if p.Base.String() != "250ms" || p.Factor != 1.5 || p.Cap.String() != "2m0s" || p.Attempts != 4 ||
		p.Jitter != backoff.Equal || s.Seed != 99 || s.Herd.Config.Clients != 10 {
		t.Fatalf("restored %+v seed %d clients %d", p, s.Seed, s.Herd.Config.Clients)
	}
}

func TestParseQueryNotices(t *testing.T) {
	cases := []struct {
		q, key string
	}{
		{"bogus=1", "bogus"},
		{"base=fast", "base"},
		{"attempts=-3", "attempts"},
		{"preset=nope", "preset"},
		{"seed=x", "seed"},
		{"scale=cubic", "scale"},
		{"clients=0", "clients"},
		{"cap=100ms", "cap"}, // below base: fine alone, wrong together
		{"server=occ&server=outage", "server"},
		{"outage-start=20s&outage-end=5s", "outage-end"},
	}
	for _, c := range cases {
		s, notes := parseQuery(c.q)
		found := false
		for _, n := range notes {
			found = found || n.Key == c.key
		}
		if !found {
			t.Errorf("%q: no notice for %s, got %v", c.q, c.key, notes)
		}
		if err := s.Policy.Validate(); err != nil {
			t.Errorf("%q: invalid policy kept: %v", c.q, err)
		}
		cfg := s.Herd.config(s.Policy)
		if err := cfg.Validate(); err != nil {
			t.Errorf("%q: invalid herd kept: %v", c.q, err)
		}
	}
	// The valid parts of a partly bad query are kept.
	s, _ := parseQuery("base=2s&cap=100ms&attempts=3")
	if s.Policy.Base.String() != "2s" || s.Policy.Attempts != 3 || s.Policy.Cap != backoff.Default().Cap {
		t.Fatalf("kept %+v", s.Policy)
	}
}

func TestModified(t *testing.T) {
	s, _ := parseQuery("preset=envoy")
	if s.modified() {
		t.Fatal("a plain preset reads as modified")
	}
	s, _ = parseQuery("preset=envoy&attempts=5")
	if !s.modified() {
		t.Fatal("an edited preset reads as unmodified")
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"", "base=1s&factor=2&cap=30s&attempts=6&jitter=full&seed=1",
		"preset=aws-standard&clients=1000&server=outage", "a=%zz&b", "jitter=proportional&jitter-lo=2&jitter-hi=1",
		"budget=tokens:1:2:3&breaker=ratio:0.5:20:10s:5s&arrival=clock:1m", strings.Repeat("x=1&", 50),
		"preset=aws-standard&b.preset=gax&b.attempts=4&runs=3&lang=ru", "b.jitter=proportional&b.jitter-lo=2",
		"b.preset=nope&b.cap=1ms&b.base=1s", "lang=xx&runs=0&attempts=4&attempts=9",
		"export=grpc-json&embed=herd", "export=nope&embed=page&embed=table",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		s, _ := parseQuery(q)
		if err := s.Policy.Validate(); err != nil {
			t.Fatalf("%q: invalid policy: %v", q, err)
		}
		if err := s.B.Policy.Validate(); s.B.On && err != nil {
			t.Fatalf("%q: invalid second policy: %v", q, err)
		}
		if s.Herd.Runs < 1 || s.Herd.Runs > maxPageRuns {
			t.Fatalf("%q: runs %d", q, s.Herd.Runs)
		}
		cfg := s.Herd.config(s.Policy)
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%q: invalid herd: %v", q, err)
		}
		enc := s.query()
		if _, err := url.ParseQuery(enc); err != nil {
			t.Fatalf("%q: encoded %q does not parse: %v", q, enc, err)
		}
		s2, notes := parseQuery(enc)
		if len(notes) > 0 {
			t.Fatalf("%q: encoded %q gives notices %v", q, enc, notes)
		}
		if s2 != s {
			t.Fatalf("%q: round trip via %q changed the state", q, enc)
		}
	})
}

package app

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
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
		"export=grpc-json&embed=herd&import=1",
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
		"c.body=" + strings.Repeat("%D0%B6", 1900) + "&c.headers=" + strings.Repeat("a", 2100) + "&attempts=4",
		strings.Repeat("c.key=", 2) + strings.Repeat("k", 9000) + "&seed=5",
		"export=grpc-json&embed=herd", "export=nope&embed=page&embed=table", "import=1&import=0", "import=yes",
		"server=queue&traffic=open:100&discipline=codel:50ms&admission=token-bucket:50:5&honor-retry-after=true",
		"discipline=lifo&admission=aimd", "server=queue&discipline=bounded:0&admission=sliding-window:1:0s",
		"duration=20s&topology=%7B%22nodes%22%3A%7B%22lb%22%3A%7B%22kind%22%3A%22balancer%22%2C%22to%22%3A%5B%22a%22%2C%22b%22%5D%7D%2C%22a%22%3A%7B%22kind%22%3A%22server%22%7D%2C%22b%22%3A%7B%22kind%22%3A%22server%22%7D%7D%7D",
		"topology=nodes%3A%0A++a%3A+%7Bkind%3A+server%2C+workers%3A+0%7D%0A", "servers=2&server=queue&names=lb,x,y", "names=a,b&topology=x",
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
		enc, left := s.link()
		if _, err := url.ParseQuery(enc); err != nil {
			t.Fatalf("%q: encoded %q does not parse: %v", q, enc, err)
		}
		if len(enc) > maxQueryLen {
			t.Fatalf("%q: a link of %d bytes, over %d", q, len(enc), maxQueryLen)
		}
		s2, notes := parseQuery(enc)
		if len(notes) > 0 {
			t.Fatalf("%q: encoded %q gives notices %v", q, enc, notes)
		}
		def, mine := classifyCases[0].in.fields(), s.Cls.fields()
		for i, k := range classifyKeys {
			if slices.Contains(left, k) {
				*mine[i] = *def[i] // left out of the link: the default comes back
			}
		}
		if s2 != s {
			t.Fatalf("%q: round trip via %q changed the state", q, enc)
		}
	})
}

// A link the page writes reads back whole: a classification field too long
// for one is left out (and the panel says so), never cut. A 2,000-character
// Russian body once made a 10,678-byte link that reopened with 1,534
// characters and no notice.
func TestLongLink(t *testing.T) {
	ru := strings.Repeat("ж", maxFieldLen)
	for _, c := range []struct {
		name string
		cls  classifyInput
		left []string
	}{
		{"a short body", classifyInput{Status: "400", Method: "GET", Body: "temporarily unavailable"}, nil},
		{"2,000 ASCII characters", classifyInput{Status: "400", Method: "GET", Body: strings.Repeat("a", maxFieldLen)}, nil},
		{"2,001 characters", classifyInput{Status: "400", Method: "GET", Body: strings.Repeat("a", maxFieldLen+1)}, []string{"c.body"}},
		{"2,000 Russian characters", classifyInput{Status: "400", Method: "GET", Body: ru}, []string{"c.body"}},
		{"two long fields, the longer left out", classifyInput{Status: "503", Method: "GET", Headers: strings.Repeat("X-A: b\n", 280), Body: ru[:3000]},
			[]string{"c.body"}},
		{"two fields, too long together", classifyInput{Status: "503", Method: "GET", Headers: ru[:2800], Body: ru[:3000]},
			[]string{"c.body", "c.headers"}},
	} {
		s := defaultState()
		s.Cls = c.cls
		s.Lang = "ru"
		q, left := s.link()
		if len(q) > maxQueryLen || !slices.Equal(left, c.left) {
			t.Errorf("%s: a link of %d bytes leaving out %v; want at most %d bytes leaving out %v", c.name, len(q), left, maxQueryLen, c.left)
		}
		back, notes := parseQuery(q)
		if len(notes) > 0 {
			t.Errorf("%s: the link reads back with notices %v", c.name, notes)
		}
		want := c.cls
		def, mine := classifyCases[0].in.fields(), want.fields()
		for i, k := range classifyKeys {
			if slices.Contains(c.left, k) {
				*mine[i] = *def[i]
			}
		}
		if back.Cls != want || back.Lang != "ru" {
			t.Errorf("%s: the link reads back as %.60q (lang %q), want %.60q", c.name, back.Cls, back.Lang, want)
		}
	}
}

// A hand-made link over maxQueryLen bytes: every parameter after that point
// is named in a notice of its own, in the page's language, and a pair is
// never cut in two; a field over maxFieldLen characters is said to be cut.
func TestQueryPastLimit(t *testing.T) {
	head := "attempts=4&c.body=" + strings.Repeat("b", 8170) // ends at byte 8188
	raw := head + "&seed=77&lang=ru&c.key=" + strings.Repeat("k", 300) + "&jitter=none"
	s, notes := parseQuery(raw)
	if s.Policy.Attempts != 4 || s.Cls.Body != strings.Repeat("b", maxFieldLen) {
		t.Errorf("the parameters before the limit: attempts %d, body of %d characters", s.Policy.Attempts, len(s.Cls.Body))
	}
	if s.Seed != 1 || s.Lang != "" || s.Cls.Key != "" {
		t.Errorf("the parameters past the limit applied: seed %d, lang %q, key %.10q", s.Seed, s.Lang, s.Cls.Key)
	}
	var got []string
	for _, n := range notes {
		got = append(got, n.Key)
	}
	if want := []string{"c.key", "jitter", "c.body", "seed", "lang"}; !sameSet(got, want) {
		t.Errorf("notices for %v, want one for each of %v", got, want)
	}
	for _, n := range notes {
		if n.Key == "seed" {
			if en, ru := n.text(i18n.En), n.text(i18n.Ru); !strings.Contains(en, "seed=77 ignored: it comes after the first 8192 bytes") ||
				!strings.Contains(ru, "seed=77 не применён: он стоит после первых 8192 байт") {
				t.Errorf("the notice for seed: %q / %q", en, ru)
			}
		}
		if n.Key == "c.body" && !strings.Contains(n.text(i18n.En), "c.body is longer than 2000 characters: only its first 2000 are used") {
			t.Errorf("the notice for the cut body: %q", n.text(i18n.En))
		}
	}
	// A hostile link: ten notices by name, the rest counted.
	_, notes = parseQuery("x=" + strings.Repeat("x", maxQueryLen) + strings.Repeat("&y=1", 5000))
	if len(notes) != maxPastNotices+1 || notes[0].Key != "x" || !strings.Contains(notes[maxPastNotices].text(i18n.En), "4991 more parameters after the first 8192 bytes") ||
		!strings.Contains(notes[maxPastNotices].text(i18n.Ru), "ещё параметры после первых 8192 байт ссылки (4991)") {
		t.Errorf("%d notices, the last %q; want %d named and one counting 4991 more", len(notes), notes[len(notes)-1].text(i18n.En), maxPastNotices)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestCutQuery(t *testing.T) {
	for _, c := range []struct {
		raw, kept string
		past      []string
		more      int
	}{
		{"a=1&b=2&c=3", "a=1&b=2", []string{"c=3"}, 0},
		{"a=1&bb=22", "a=1", []string{"bb=22"}, 0},
		{"a=12345678", "", []string{"a=12345678"}, 0},
		{"a=1&&b=2&c=3&d=4&e=5", "a=1&", []string{"b=2", "c=3"}, 2},
	} {
		kept, past, more := cutQuery(c.raw, 7, 2)
		if kept != c.kept || !slices.Equal(past, c.past) || more != c.more {
			t.Errorf("cutQuery(%q) = %q %q %d, want %q %q %d", c.raw, kept, past, more, c.kept, c.past, c.more)
		}
	}
}

// TestFloorB: the second policy's floor has no box on its card (the card
// holds the main knobs only), so b.floor is its one way in: it is read into
// B's policy apart from A's, and written back into the link.
func TestFloorB(t *testing.T) {
	s, notes := parseQuery("floor=1s&b.preset=aws-standard&b.floor=4s")
	if len(notes) != 0 {
		t.Fatal(notes)
	}
	if !s.B.On || s.B.Policy.Floor != 4*time.Second || s.Policy.Floor != time.Second {
		t.Fatalf("B on %v, B floor %v, A floor %v; want true, 4s, 1s", s.B.On, s.B.Policy.Floor, s.Policy.Floor)
	}
	if q := s.query(); !strings.Contains(q, "&b.floor=4s") || !strings.Contains(q, "floor=1s&") {
		t.Errorf("link %q lacks floor=1s or b.floor=4s", q)
	}
	if _, notes := parseQuery("b.preset=aws-standard&b.floor=30s"); len(notes) != 1 || notes[0].Key != "b.floor" || notes[0].Value != "30s" {
		t.Errorf("b.floor above b.cap: notices %+v, want one on b.floor=30s", notes)
	}
}

// The Import panel is a part of the link, as Export and Embed are:
// ?import=1 opens it (it was "an unknown parameter"), and a page with it
// open writes it back; its text never goes into a link.
func TestImportInTheLink(t *testing.T) {
	s, notes := parseQuery("import=1")
	if len(notes) > 0 || !s.Import {
		t.Fatalf("import=1: open %v, notices %v", s.Import, notes)
	}
	if q := s.query(); !strings.HasSuffix(q, "&import=1") {
		t.Errorf("written back as %q", q)
	}
	if c := s.content(); c.Import {
		t.Error("an image or an embed keeps the panel open")
	}
	if s, notes := parseQuery("import=maybe"); s.Import || len(notes) != 1 || notes[0].Key != keyImport {
		t.Errorf("import=maybe: open %v, notices %v", s.Import, notes)
	}
}

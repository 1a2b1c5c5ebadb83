package app

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// A document applied in the page lowers to the config the CLI runs for
// it, under the page's policy unless it gives retry:; an error names the
// line, the node, the key, the value and what is allowed, in the page's
// language.
func TestLowerTopology(t *testing.T) {
	doc := "traffic: open:150\nduration: 30s\ntimeout: 1s\nnodes:\n  lb: {kind: balancer, rule: p2c, to: [a, b]}\n" +
		"  a: {kind: server, model: queue, workers: 5}\n  b: {kind: server, model: queue, workers: 5}\nfaults:\n  - crash@10s-15s/b\n"
	pol := backoff.Default()
	pol.Attempts = 7
	ch, err := lowerTopology(doc, pol)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Retry || ch.Config.Servers != 2 || ch.Config.Concurrency != 5 || ch.Config.Get("fault") != "crash@10s-15s/2" || ch.Config.Names != "lb,a,b" {
		t.Errorf("lowered %+v", ch)
	}
	if got := ch.Config.Topology().String(); got != doc {
		t.Errorf("the page's document of it:\n%s\nwant\n%s", got, doc)
	}
	ch, err = lowerTopology("retry: {attempts: 2}\n"+doc, pol)
	if err != nil || !ch.Retry || ch.Policy.Attempts != 2 || ch.Config.Policy != backoff.Default() {
		t.Errorf("retry: %+v, %v", ch, err)
	}
	for _, tc := range []struct {
		doc  string
		l    i18n.Lang
		want string
	}{
		{"nodes:\n  a: {kind: server, workers: 0}\n", i18n.En,
			"Line 2: node a, workers: “0” is not valid: want a whole number from 1 to 1,000,000"},
		{"nodes:\n  a: {kind: server, workers: 0}\n", i18n.Ru,
			"Строка 2: узел a, workers: «0» не подходит: нужно целое число от 1 до 1\u202f000\u202f000"},
		{"nodes:\n  app: {kind: cache, miss: db}\n", i18n.En,
			"Line 2: node app, miss: “db” is not valid: want one of: app"},
	} {
		_, err := lowerTopology(tc.doc, pol)
		if err == nil {
			t.Errorf("%q: no error", tc.doc)
			continue
		}
		if got := topologyErrText(tc.l, err); tc.want != "" && got != tc.want {
			t.Errorf("%q in %s:\n got %s\nwant %s", tc.doc, tc.l.Code(), got, tc.want)
		}
	}
}

// A link's topology= is lowered onto the herd its other keys give; the
// page's link for it is the shorthand's keys and the node names, which
// read back to the same state; a bad document is a notice with its line,
// node and key.
func TestTopologyLink(t *testing.T) {
	doc := `{"traffic": "open:150", "nodes": {"lb": {"kind": "balancer", "rule": "p2c", "to": ["a", "b"]}, ` +
		`"a": {"kind": "server", "model": "queue", "workers": 5}, "b": {"kind": "server", "model": "queue", "workers": 5}}, "faults": ["crash@10s-15s/b"]}`
	s, notes := parseQuery("duration=20s&lang=ru&topology=" + url.QueryEscape(doc))
	if len(notes) > 0 {
		t.Fatalf("notices %v", notes)
	}
	c := s.Herd.Config
	if c.Servers != 2 || c.Balance != sim.PowerOfTwo || c.Concurrency != 5 || c.Get("duration") != "20s" || c.Get("fault") != "crash@10s-15s/2" || c.Names != "lb,a,b" {
		t.Fatalf("lowered %+v", c)
	}
	q := s.query()
	if strings.Contains(q, "topology") || !strings.Contains(q, "servers=2") || !strings.Contains(q, "names=lb%2Ca%2Cb") {
		t.Errorf("the page's link %q", q)
	}
	if s2, notes := parseQuery(q); s2 != s || len(notes) > 0 {
		t.Errorf("%q reads back as %+v, %v", q, s2.Herd, notes)
	}
	_, notes = parseQuery("topology=" + url.QueryEscape("nodes:\n  a: {kind: server, workers: 0}\n"))
	if len(notes) != 1 || notes[0].text(i18n.En) != `topology=nodes:
  a: {kind: server, worke… ignored: Line 2: node a, workers: “0” is not valid: want a whole number from 1 to 1,000,000` {
		t.Errorf("notices %q", notes)
	}
	// Names that do not fit the shape are a notice.
	if _, notes := parseQuery("names=a,b"); len(notes) != 1 || notes[0].Key != "names" {
		t.Errorf("names=a,b for one server: %v", notes)
	}
}

// The node controls speak the page's language: the fault's times were Go's
// "10s" and its kinds' factors "(0.5)" on the Russian page.
func TestTopologyControlsLocal(t *testing.T) {
	for _, c := range []struct {
		query, start, end, kind string
	}{
		{"lang=ru", "10 с", "20 с", "ошибки (0,5)"},
		{"", "10s", "20s", "errors (0.5)"},
	} {
		// The no-break space, as the test's HTML writes it (escaped).
		html := strings.NewReplacer("\u00a0", " ", `\u00a0`, " ").Replace(renderWith(t, c.query, func(*playground) {}))
		for id, want := range map[string]string{"topology-fault-start": c.start, "topology-fault-end": c.end} {
			box := regexp.MustCompile(`<input[^>]*id="` + id + `"[^>]*>`).FindString(html)
			if !strings.Contains(box, `value="`+want+`"`) {
				t.Errorf("%q: %s is %s, want the value %q", c.query, id, box, want)
			}
		}
		if !strings.Contains(html, c.kind) {
			t.Errorf("%q: no fault kind %q", c.query, c.kind)
		}
	}
}

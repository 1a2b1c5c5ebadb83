//go:build browser && !wasm

package main

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/backoff-playground/playground/sim"
)

// The topology panel: a document typed in #topology-text and applied
// runs, and the figures under its nodes are the native run's; a bad
// document's error shows beside the box, in the page's language.

// topoFleet is a p2c balancer over two queue servers, b crashing.
const topoFleet = "traffic: open:150\nduration: 20s\ntimeout: 1s\nnodes:\n  lb: {kind: balancer, rule: p2c, to: [a, b]}\n" +
	"  a: {kind: server, model: queue, workers: 5}\n  b: {kind: server, model: queue, workers: 5}\nfaults:\n  - crash@5s-10s/b\n"

// typeTopology puts doc in the box as typing does, and applies it.
func typeTopology(tb testing.TB, t *tab, doc string) {
	tb.Helper()
	eval[bool](tb, t, fmt.Sprintf(`(() => { const e = document.getElementById('topology-text'); e.focus(); e.value = %s;
  e.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, strconv.Quote(doc)))
	click(tb, t, "topology-apply")
}

// topoFigures are the figures the drawing shows: node -> key -> value.
func topoFigures(tb testing.TB, t *tab) map[string]map[string]string {
	tb.Helper()
	rows := eval[[][3]string](tb, t, `[...document.querySelectorAll('#topology-view .topo-node')].flatMap(g =>
  [...g.querySelectorAll('.topo-fig')].map(f => [g.dataset.node, f.dataset.fig, f.dataset.value]))`)
	out := map[string]map[string]string{}
	for _, r := range rows {
		if out[r[0]] == nil {
			out[r[0]] = map[string]string{}
		}
		out[r[0]][r[1]] = r[2]
	}
	return out
}

func TestBrowserTopologyApply(t *testing.T) {
	tp, err := sim.ParseTopology(topoFleet)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tp.Config(sim.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{}
	for _, n := range r.Totals.PerNode {
		want[n.Name] = map[string]float64{}
		for _, f := range n.Figures {
			want[n.Name][f.Key] = f.Value
		}
	}
	if len(want) != 3 || len(want["b"]) != 8 {
		t.Fatalf("precondition: the run's per-node figures %v", r.Totals.PerNode)
	}
	if r.Totals.PerServer[1].Lost == 0 {
		t.Fatal("precondition: b's crash loses calls")
	}

	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	poll[bool](t, tb, "the first run", settledJS)
	before := topoFigures(t, tb)
	typeTopology(t, tb, topoFleet)
	poll[bool](t, tb, "the topology's run", `(() => { const p = document.getElementById('herd-progress');
  return (!p || p.hidden) && !!document.querySelector('#topology-view [data-node="b"] [data-fig="lost"]'); })()`)
	got := topoFigures(t, tb)
	for node, figs := range want {
		for key, w := range figs {
			v, err := strconv.ParseFloat(got[node][key], 64)
			if err != nil || math.Abs(v-w) > 1e-12*math.Max(1, math.Abs(w)) {
				t.Errorf("node %s %s: %q, want %v (native)", node, key, got[node][key], w)
			}
		}
	}
	if len(got["b"]) != len(want["b"]) || fmt.Sprint(got) == fmt.Sprint(before) {
		t.Errorf("figures %v (before: %v)", got, before)
	}
	// The page's state is the document's: the link's shorthand keys, and
	// the box shows its canonical text. The address follows an edit
	// urlEvery later, and the run may end sooner.
	poll[bool](t, tb, "the address", `new URLSearchParams(location.search).get('servers') === '2'`)
	for k, v := range map[string]string{"servers": "2", "balance": "p2c", "fault": "crash@5s-10s/2", "concurrency": "5"} {
		if p := exParam(t, tb, k); p != v {
			t.Errorf("URL %s=%q, want %q", k, p, v)
		}
	}
	if box := eval[string](t, tb, `document.getElementById('topology-text').value`); box != topoFleet {
		t.Errorf("the box after applying:\n%s\nwant\n%s", box, topoFleet)
	}
	// The list for screen readers says b's figures.
	if li := eval[string](t, tb, `[...document.querySelectorAll('#topology-list li')].map(l => l.textContent).join('\n')`); !strings.Contains(li,
		fmt.Sprintf("b · server: Server: queue with workers, Workers: 5. calls: %s, served: %s", commas(int(want["b"]["calls"])), commas(r.Totals.PerServer[1].Served))) {
		t.Errorf("the list:\n%s", li)
	}
}

// commas writes n with thousands separated by commas, as the English page does.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestBrowserTopologyErrors(t *testing.T) {
	for _, tc := range []struct{ lang, doc, want string }{
		{"en", "nodes:\n  a: {kind: server, workers: 0}\n", "Line 2: node a, workers: “0” is not valid: want a whole number from 1 to 1,000,000"},
		{"ru", "nodes:\n  a: {kind: server, workers: 0}\n", "Строка 2: узел a, workers: «0» не подходит: нужно целое число от 1 до 1\u202f000\u202f000"},
		{"en", "nodes:\n  lb: {kind: balancer, to: [a, x]}\n  a: {kind: server}\n", "Line 2: node lb, to: “x” is not valid: want one of: lb, a"},
		// YAML the page's reader leaves out: named, with its line.
		{"en", "nodes:\n  a: &s {kind: server}\n", "Line 2: Topology (topology): “an anchor or an alias (&)” is not valid: want the form KEY: VALUE, KEY: {K: V, ...}, KEY: [A, B], - ITEM"},
	} {
		tb := newTab(t, 1280, 900)
		tb.open(t, "lang="+tc.lang)
		poll[bool](t, tb, "the first run", settledJS)
		url := eval[string](t, tb, `location.href`)
		typeTopology(t, tb, tc.doc)
		got := poll[string](t, tb, "the error", `(() => { const e = document.getElementById('topology-text-error'); return e && !e.hidden && e.textContent; })()`)
		if got != tc.want {
			t.Errorf("%s %q:\n got %s\nwant %s", tc.lang, tc.doc, got, tc.want)
		}
		if !eval[bool](t, tb, `document.getElementById('topology-text').getAttribute('aria-invalid') === 'true' && document.getElementById('topology-text').value.includes('kind')`) {
			t.Errorf("%s %q: the box is not marked invalid, or lost the text", tc.lang, tc.doc)
		}
		if now := eval[string](t, tb, `location.href`); now != url {
			t.Errorf("a bad document changed the page: %s -> %s", url, now)
		}
	}
}

// choose sets a select's value as a person choosing an entry does, and
// waits for the frame that redraws what depends on it (go-app renders a
// change in the next animation frame).
func choose(tb testing.TB, t *tab, id, value string) {
	tb.Helper()
	if !eval[bool](tb, t, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q;
  e.dispatchEvent(new Event('change', {bubbles: true})); return e.value === %q; })()`, id, value, value)) {
		tb.Fatalf("#%s has no entry %q", id, value)
	}
	eval[bool](tb, t, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
}

// typeIn sets a text box's value as typing does.
func typeIn(tb testing.TB, t *tab, id, value string) {
	tb.Helper()
	eval[bool](tb, t, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q;
  e.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, id, value))
}

// The controls edit the topology without its text: a server added by
// the keyboard, a knob set on every server, one server's knob refused
// (the shorthand runs alike servers) with the lowering's error, a fault
// removed and one added at the new server; the run's figures are then
// the native run's of that config, and axe finds nothing wrong.
func TestBrowserTopologyControls(t *testing.T) {
	sc, err := sim.LookupScenario("fleet-crash")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sc.Config()
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"servers", "3"}, {"concurrency", "7"}, {"fault", "crash@1s-3s/3"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}

	tb := newTab(t, 1280, 900)
	tb.open(t, "scenario=fleet-crash&lang=en")
	poll[bool](t, tb, "the first run", settledJS)
	if err := chromedp.Do(tb.ctx, chromedp.Focus(chromedp.ID("topology-server-add"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	exPollParam(t, tb, "servers", "3")
	poll[bool](t, tb, "the controls to show three servers", `document.getElementById('topology-servers').textContent === 'Servers: 3'`)

	choose(t, tb, "topology-node", "")
	choose(t, tb, "topology-key", "workers")
	typeIn(t, tb, "topology-value", "7")
	click(t, tb, "topology-set")
	exPollParam(t, tb, "concurrency", "7")

	// A value out of range: the lowering's error, beside the knob.
	typeIn(t, tb, "topology-value", "0")
	click(t, tb, "topology-set")
	got := poll[string](t, tb, "the knob's error", `(() => { const e = document.getElementById('topology-knob-error'); return e && !e.hidden && e.textContent; })()`)
	if want := "node s1, workers: “0” is not valid: want a whole number from 1 to 1,000,000"; got != want {
		t.Errorf("the knob's error %q, want %q", got, want)
	}
	// A flush is the cache's: at a server, the shorthand cannot run it.
	choose(t, tb, "topology-fault-kind", "flush")
	choose(t, tb, "topology-fault-node", "s2")
	click(t, tb, "topology-fault-add")
	got = poll[string](t, tb, "the fault's error", `(() => { const e = document.getElementById('topology-fault-error'); return e && !e.hidden && e.textContent; })()`)
	if !strings.HasPrefix(got, "Faults (faults): “flush@10s-20s/s2” is not valid") {
		t.Errorf("the fault's error %q", got)
	}
	if exParam(t, tb, "concurrency") != "7" || strings.Contains(exParam(t, tb, "fault"), "flush") {
		t.Error("a refused edit changed the page")
	}
	axeCheck(t, tb, axeScript(t), "the topology controls with an error")

	click(t, tb, "topology-fault-remove-0")
	poll[bool](t, tb, "the fault to go", `!new URLSearchParams(location.search).has('fault')`)
	choose(t, tb, "topology-fault-kind", "crash")
	typeIn(t, tb, "topology-fault-start", "1s")
	typeIn(t, tb, "topology-fault-end", "3s")
	choose(t, tb, "topology-fault-node", "s3")
	click(t, tb, "topology-fault-add")
	exPollParam(t, tb, "fault", "crash@1s-3s/3")
	poll[bool](t, tb, "the run", `(() => { const p = document.getElementById('herd-progress');
  return (!p || p.hidden) && !!document.querySelector('#topology-view [data-node="s3"] [data-fig="lost"]'); })()`)
	figs := topoFigures(t, tb)
	for _, n := range r.Totals.PerNode {
		for _, f := range n.Figures {
			v, err := strconv.ParseFloat(figs[n.Name][f.Key], 64)
			if err != nil || math.Abs(v-f.Value) > 1e-12*math.Max(1, math.Abs(f.Value)) {
				t.Errorf("node %s %s: %q, want %v (native)", n.Name, f.Key, figs[n.Name][f.Key], f.Value)
			}
		}
	}
}

// A link's topology= runs as applied; the page writes its link with the
// shorthand keys; a bad one is a notice with its line, node and key.
func TestBrowserTopologyLink(t *testing.T) {
	tb := newTab(t, 412, 915)
	tb.open(t, "lang=ru&topology="+url.QueryEscape(`{"traffic":"open:150","duration":"20s","timeout":"1s","nodes":{"lb":{"kind":"balancer","rule":"p2c","to":["a","b"]},`+
		`"a":{"kind":"server","model":"queue","workers":5},"b":{"kind":"server","model":"queue","workers":5}},"faults":["crash@5s-10s/b"]}`))
	poll[bool](t, tb, "the topology's run", `(() => { const p = document.getElementById('herd-progress');
  return (!p || p.hidden) && !!document.querySelector('#topology-view [data-node="b"] [data-fig="lost"]'); })()`)
	if box := eval[string](t, tb, `document.getElementById('topology-text').value`); !strings.Contains(box, "lb: {kind: balancer, rule: p2c, to: [a, b]}") {
		t.Errorf("the box:\n%s", box)
	}
	// The page's next link: the shorthand's keys and the names, no
	// topology=.
	click(t, tb, "topology-server-add")
	exPollParam(t, tb, "servers", "3")
	if exHasParam(t, tb, "topology") || exParam(t, tb, "names") != "lb,a,b,s1" || exParam(t, tb, "fault") != "crash@5s-10s/2" {
		t.Errorf("the page's link %s", eval[string](t, tb, `location.search`))
	}
	tb.open(t, "lang=ru&topology="+url.QueryEscape("nodes:\n  a: {kind: server, workers: 0}\n"))
	got := poll[string](t, tb, "the notice", `(() => { const e = document.getElementById('notice'); return e && !e.hidden && e.textContent; })()`)
	if want := "узел a, workers: «0» не подходит: нужно целое число от 1 до 1\u202f000\u202f000"; !strings.Contains(got, "Строка 2: "+want) {
		t.Errorf("notice %q, want it to say %q", got, want)
	}
}

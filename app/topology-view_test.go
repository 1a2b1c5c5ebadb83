package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// The view draws the config's topology: the clients over the entry, a
// level per hop, the fleet's servers side by side under their balancer,
// each with the run's exact figures under it, worded from the catalog.
func TestTopologyView(t *testing.T) {
	c := sim.DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:150"}, {"duration", "10s"}, {"timeout", "1s"}, {"server", "queue"},
		{"servers", "3"}, {"balance", "p2c"}, {"concurrency", "5"}, {"fault", "crash@3s-5s/2"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	nodes := topoNodes(i18n.En, &c, &r.Totals)
	var got []string
	for _, n := range nodes {
		got = append(got, n.Title+"@"+string(rune('0'+n.Level)))
	}
	if want := "clients@0 lb · balancer@1 s1 · server@2 s2 · server@2 s3 · server@2"; strings.Join(got, " ") != want {
		t.Errorf("nodes %q, want %q", strings.Join(got, " "), want)
	}
	if len(nodes[0].Calls) != 1 || nodes[0].Calls[0] != 1 || len(nodes[1].Calls) != 3 {
		t.Errorf("calls: clients %v, lb %v", nodes[0].Calls, nodes[1].Calls)
	}
	s2 := nodes[3]
	ps := r.Totals.PerServer[1]
	if len(s2.Figures) != len(r.Totals.PerNode[2].Figures) {
		t.Fatalf("s2's figures %v, want the run's %v", s2.Figures, r.Totals.PerNode[2])
	}
	for i, f := range s2.Figures {
		if w := r.Totals.PerNode[2].Figures[i]; f.Key != w.Key || f.Value != w.Value {
			t.Errorf("s2 %s = %v, want %s = %v", f.Key, f.Value, w.Key, w.Value)
		}
	}
	if v, _ := r.Totals.PerNode[2].Figure("lost"); v != float64(ps.Lost) || ps.Lost == 0 {
		t.Errorf("s2 lost %v, its PerServer %d (the crash should lose calls)", v, ps.Lost)
	}
	svg := topoSVG(t, nodes)
	m := regexp.MustCompile(`<g class="topo-node" data-node="s2">.*?data-fig="lost" data-value="([0-9.]+)"`).FindStringSubmatch(svg)
	if m == nil || m[1] != exact(float64(ps.Lost)) {
		t.Errorf("s2's lost in the drawing: %v, want %d", m, ps.Lost)
	}
	if got := topoSentence(i18n.En, s2); !strings.HasPrefix(got, "s2 · server: Server: queue with workers, Workers: 5. calls: ") {
		t.Errorf("s2 in words: %q", got)
	}
	if got := topoSentence(i18n.Ru, topoNodes(i18n.Ru, &c, &r.Totals)[3]); !strings.Contains(got, "s2 · сервер: ") || !strings.Contains(got, "загрузка: ") {
		t.Errorf("s2 in Russian: %q", got)
	}
	// No run yet: the boxes without figures.
	for _, n := range topoNodes(i18n.En, &c, nil) {
		if len(n.Figures) > 0 {
			t.Errorf("%s has figures before a run", n.Title)
		}
	}
}

func topoSVG(t *testing.T, nodes []chart.TopoNode) string {
	t.Helper()
	return chart.Topology(nodes, "x")
}

// Every node kind has its name in both languages, and every figure the
// view shows its label.
func TestTopologyWords(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.En, i18n.Ru} {
		for _, k := range sim.NodeKindNames() {
			if key := "node." + k; l.T(key) == key {
				t.Errorf("%s: no %s", l.Code(), key)
			}
		}
		for _, k := range []string{"calls", "served", "refused", "errors", "outage", "timeouts", "lost", "utilization", "hits", "misses", "hit_ratio"} {
			if key := "node.fig." + k; l.T(key) == key {
				t.Errorf("%s: no %s", l.Code(), key)
			}
		}
	}
}

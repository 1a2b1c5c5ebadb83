package chart

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// A fleet behind a balancer, its knobs as long as the page's Russian
// ones.
var topoFleet = []TopoNode{
	{Name: "clients", Title: "клиенты", Knobs: []string{"Трафик: 70 запросов/с (открытая нагрузка)"}, Level: 0, Calls: []int{1}},
	{Name: "lb", Title: "lb · балансировщик", Knobs: []string{"Балансировщик: меньше всего ждущих", "Вызывает: s1, s2"}, Level: 1, Calls: []int{2, 3}},
	{Name: "s1", Title: "s1 · сервер", Knobs: []string{"Сервер: очередь и обработчики", "Обработчики: 5", "Распределение времени обслуживания: постоянное"}, Level: 2},
	{Name: "s2", Title: "s2 · сервер", Knobs: []string{"Сервер: очередь и обработчики", "Обработчики: 5"}, Level: 2},
}

// Every line stays inside its box, a long knob going on to a second line
// (they were cut by a count that let "Балансировщик: меньше всего жд…"
// run past both sides of its box).
func TestTopologyTextInBoxes(t *testing.T) {
	svg := Topology(topoFleet, "path")
	boxes := regexp.MustCompile(`<rect class="topo-box" x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"`).FindAllStringSubmatch(svg, -1)
	groups := strings.Split(svg, `<g class="topo-node"`)[1:]
	if len(boxes) != 4 || len(groups) != 4 {
		t.Fatalf("%d boxes, %d groups", len(boxes), len(groups))
	}
	text := regexp.MustCompile(`<text class="topo-(?:title|knob)"[^>]*>([^<]*)</text>`)
	for i, g := range groups {
		w, _ := strconv.ParseFloat(boxes[i][2], 64)
		var lines []string
		for _, m := range text.FindAllStringSubmatch(g, -1) {
			lines = append(lines, m[1])
			if n := float64(utf8.RuneCountInString(m[1])) * topoCharW; n > w-10 {
				t.Errorf("box %d (%g wide): %q is %g wide", i, w, m[1], n)
			}
		}
		if i == 1 && !slicesContain(lines, "ждущих") {
			t.Errorf("the balancer's rule was cut: %q", lines)
		}
	}
}

func slicesContain(lines []string, word string) bool {
	for _, l := range lines {
		if strings.Contains(l, word) {
			return true
		}
	}
	return false
}

// The balancer's arrows come into the tops of the two servers under it:
// into their sides, they met between the two as if joined.
func TestTopologyArrowsFanOut(t *testing.T) {
	svg := Topology(topoFleet, "path")
	edges := regexp.MustCompile(`<path class="topo-edge"[^>]* d="([^"]*)"`).FindAllStringSubmatch(svg, -1)
	boxes := regexp.MustCompile(`<rect class="topo-box" x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)"`).FindAllStringSubmatch(svg, -1)
	if len(edges) != 3 {
		t.Fatalf("%d edges", len(edges))
	}
	f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	for k, e := range edges[1:] {
		b := boxes[k+2]
		cx, top := f(b[1])+f(b[3])/2, f(b[2])
		if !strings.HasSuffix(e[1], "H"+num(cx)+"V"+num(top)) {
			t.Errorf("the arrow to s%d is %s, want one ending down into its top (%s, %s)", k+1, e[1], num(cx), num(top))
		}
	}
}

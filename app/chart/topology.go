package chart

import (
	"html"
	"strconv"
	"strings"
)

// TopoNode is one box of a topology drawing: its title (the node's name
// and kind, or the clients), the lines of its knobs inside the box, its
// figures under it, its level (0: the clients, then one a hop) and the
// nodes it calls, by index.
type TopoNode struct {
	Name, Title string
	Knobs       []string
	Figures     []TopoFigure
	Level       int
	Calls       []int
}

// TopoFigure is one figure under a box: its key and exact value (the
// data-fig and data-value attributes a test reads) and its words.
type TopoFigure struct {
	Key   string
	Value float64
	Text  string
}

// The drawing's geometry, in SVG units: it is drawn about its own width
// on a phone (340 units in 360 to 400 px) and at most half as large
// again on a desktop (playground.css), so 12-unit text stays 11 to 18 px.
const (
	topoW      = 340.0
	topoSingle = 220.0 // a level's only box
	topoColW   = 146.0 // two boxes side by side
	topoGutter = topoW - 2*topoColW - 2*topoPad
	topoPad    = 8.0
	topoLine   = 15.0
	topoGap    = 34.0 // between rows: room for an arrow
	topoCharW  = 7.4  // a 12-unit character's width, at most (Cyrillic's widest): a longer line is cut to its box (the list says it whole)
)

// topoBox is where a node's box is: its left, top, width and height,
// and the height of its figures under it.
type topoBox struct{ x, y, w, h, figH float64 }

func (b topoBox) cx() float64 { return b.x + b.w/2 }

// chars is how many characters a line of the box holds, within a margin
// of 5 units on either side.
func (b topoBox) chars() int { return int((b.w - 10) / topoCharW) }

// knobLines are a box's knobs as the lines it draws: a knob longer than
// a line goes on to a second at a space, and only a longer one is cut
// ("Balancer: least waiting" was cut to "Balancer: least wa…").
func knobLines(knobs []string, chars int) []string {
	var out []string
	for _, k := range knobs {
		r := []rune(k)
		if len(r) <= chars {
			out = append(out, k)
			continue
		}
		at := strings.LastIndex(string(r[:chars+1]), " ")
		if at <= 0 {
			out = append(out, cut(k, chars))
			continue
		}
		out = append(out, k[:at], cut(strings.TrimSpace(k[at:]), chars))
	}
	return out
}

// topoLayout places the nodes: a level's only node centred, two or more
// in rows of two on either side of a spine down the middle, where their
// arrows come in from the side.
func topoLayout(nodes []TopoNode) (boxes []topoBox, height float64) {
	boxes = make([]topoBox, len(nodes))
	levels := 0
	for _, n := range nodes {
		levels = max(levels, n.Level+1)
	}
	y := topoPad
	for lv := range levels {
		var at []int
		for i, n := range nodes {
			if n.Level == lv {
				at = append(at, i)
			}
		}
		for r := 0; r < len(at); r += 2 {
			row := at[r:min(r+2, len(at))]
			rowH := 0.0
			for j, i := range row {
				b := topoBox{y: y, figH: topoLine * float64(len(nodes[i].Figures))}
				switch {
				case len(at) == 1:
					b.x, b.w = (topoW-topoSingle)/2, topoSingle
				default:
					b.x, b.w = topoPad+float64(j)*(topoColW+topoGutter), topoColW
				}
				b.h = 8 + topoLine*float64(1+len(knobLines(nodes[i].Knobs, b.chars())))
				boxes[i] = b
				rowH = max(rowH, b.h+b.figH)
			}
			y += rowH + topoGap
		}
	}
	return boxes, y - topoGap + topoPad
}

// Topology draws a request path: a box per node with its title and
// knobs, its figures under it, and an arrow for each call. label is the
// drawing's accessible name (the page gives the list beside it, which
// says everything the drawing shows).
func Topology(nodes []TopoNode, label string) string {
	boxes, h := topoLayout(nodes)
	// top is each level's first row.
	top := map[int]float64{}
	for i, n := range nodes {
		if y, ok := top[n.Level]; !ok || boxes[i].y < y {
			top[n.Level] = boxes[i].y
		}
	}
	var w svgWriter
	w.open(frame{W: topoW, H: h}, "topology", label)
	w.WriteString(`<defs><marker id="topo-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
		`<path class="topo-head" d="M0 0L8 4L0 8z"></path></marker></defs>`)
	for i, n := range nodes {
		from := boxes[i]
		for _, k := range n.Calls {
			if k < 0 || k >= len(nodes) {
				continue
			}
			to := boxes[k]
			var d pathData
			x0, y0 := from.cx(), from.y+from.h+from.figH // below its figures
			switch {
			case to.w == topoSingle || to.w == 0:
				d.op('M', x0, y0)
				d.op('V', to.y)
			case to.y == top[nodes[k].Level] && y0 < to.y:
				// The level's first row: down, across above it, and into
				// the box's top (into the sides, two boxes' arrows met in
				// the gap between them, as if the two were joined).
				mid := to.y - topoGap/2
				d.op('M', x0, y0)
				d.op('V', mid)
				d.op('H', to.cx())
				d.op('V', to.y)
			default:
				// Down the spine, then into the box's side at its title.
				spine := topoW / 2
				side := to.x + to.w
				if to.x > spine {
					side = to.x
				}
				d.op('M', x0, y0)
				d.op('V', to.y+topoLine)
				if x0 != spine {
					d.op('H', spine)
				}
				d.op('H', side)
			}
			w.WriteString(`<path class="topo-edge" marker-end="url(#topo-arrow)" d="` + d.String() + `"></path>`)
		}
	}
	for i, n := range nodes {
		b := boxes[i]
		name := html.EscapeString(n.Name)
		w.WriteString(`<g class="topo-node" data-node="` + name + `">`)
		w.WriteString(`<rect class="topo-box" x="` + num(b.x) + `" y="` + num(b.y) + `" width="` + num(b.w) + `" height="` + num(b.h) + `" rx="6"></rect>`)
		chars := b.chars()
		w.text("topo-title", b.cx(), b.y+topoLine, "middle", cut(n.Title, chars))
		for j, k := range knobLines(n.Knobs, chars) {
			w.text("topo-knob", b.cx(), b.y+topoLine*float64(j+2), "middle", k)
		}
		for j, f := range n.Figures {
			w.WriteString(`<text class="topo-fig" data-fig="` + html.EscapeString(f.Key) + `" data-value="` +
				strconv.FormatFloat(f.Value, 'f', -1, 64) + `" x="` + num(b.cx()) + `" y="` + num(b.y+b.h+topoLine*float64(j+1)-2) +
				`" text-anchor="middle">` + html.EscapeString(cut(f.Text, chars)) + `</text>`)
		}
		w.WriteString(`</g>`)
	}
	w.close()
	return w.String()
}

// cut shortens a line to n runes, ending it with "…".
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

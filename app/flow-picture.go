package app

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// The flow's drawing: where each call's dot is at a moment (flowPlace),
// the frame the live view writes at each animation frame (flowDots,
// flowWaits), the topology under the dots (flowPicture), and the same
// frames written once as an animated SVG (flowAnimated): what /svg/flow.svg
// and the view's download play in an <img>, with no script.

// flowLayout is what the drawing needs of a flow besides its calls: the
// nodes drawn (flowNodes), whether a balancer stands before them (a
// fleet), and the run's faults with the fleet's size, for the shading.
type flowLayout struct {
	nodes, serverNames []string
	servers            int
	faults             []sim.Fault
	work               flowWorkers
}

// flowWorkers are the drawn nodes' busy workers over the run, as its
// timeline counts them at the end of each bucket of widthS seconds: busy[k]
// is node k's (nil for a node without workers: a cache, a server with a
// rate instead of workers), of workers each.
type flowWorkers struct {
	widthS  float64
	workers int
	busy    [][]int
}

// layoutOf is the layout of flow f of run c, whose result is r.
func layoutOf(f *sim.Flow, c sim.Config, r *sim.Result) flowLayout {
	g := flowLayout{flowNodes(f, c), c.ServerNodeNames(), c.Servers, r.Faults, flowWorkers{widthS: r.BucketWidth, workers: c.Concurrency}}
	g.work.busy = make([][]int, len(g.nodes))
	for k := range g.nodes {
		sk := slices.Index(g.serverNames, g.nodes[k])
		if sk < 0 {
			continue
		}
		busy := make([]int, len(r.Timeline))
		any := false
		for i, b := range r.Timeline {
			if c.Servers > 1 && sk < len(b.Servers) {
				busy[i] = b.Servers[sk].Busy
			} else if c.Servers <= 1 {
				busy[i] = b.Busy
			}
			any = any || busy[i] > 0
		}
		if any { // only a server with workers has any busy
			g.work.busy[k] = busy
		}
	}
	return g
}

// busyAt is node k's busy workers at t, as of the last bucket's end at
// or before it (none before the first: at 0 the picture said "5 of 5
// workers busy" beside "in flight 0", the end of the first bucket), and
// whether it has workers.
func (g flowLayout) busyAt(k int, t float64) (int, bool) {
	b := g.work.busy[k]
	if b == nil || g.work.widthS <= 0 {
		return 0, false
	}
	i := min(int(t/g.work.widthS), len(b))
	if i <= 0 {
		return 0, true
	}
	return b[i-1], true
}

// busyW is the width of the bar of n busy workers.
func (g flowLayout) busyW(n int) float64 {
	return math.Round(flowBusyW*float64(min(n, g.work.workers))/float64(max(g.work.workers, 1))*10) / 10
}

// flowBusyW is the width of a node's bar of busy workers, all busy.
const flowBusyW = 90.0

// faultAt says whether a fault holds node k at t.
func (g flowLayout) faultAt(k int, t float64) bool {
	sk := slices.Index(g.serverNames, g.nodes[k])
	return sk >= 0 && faultOn(g.faults, sk, g.servers, t)
}

func (g flowLayout) lb() bool { return g.servers > 1 }

// nodeY is node k's height of n.
func nodeY(k, n int) float64 {
	return flowTop + (flowBottom-flowTop)*(float64(k)+0.5)/float64(n)
}

// clientY is request r's cell's height.
func clientY(r int) float64 {
	return flowTop + (flowBottom-flowTop)*(float64((r-1)%flowRows)+0.5)/flowRows
}

// flowMarks are the dots' kinds, each drawn as one path of all its
// dots (a frame is a handful of elements, not hundreds): a call not yet
// answered, then each outcome's shape. A mark is drawn relative to its
// dot's centre.
var flowMarks = []struct{ class, mark string }{
	{"flow-call", "m-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0"},
	{"flow-call ok", "m-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0"},
	{"flow-call error", "m-4-4h8v8h-8z"},
	{"flow-call refused", "m0-5l5 9h-10z"},
	{"flow-call timeout", "m0-5l5 5l-5 5l-5-5z"},
	{"flow-call lost", "m-5-1h4l1-4l1 4h4l-4 2l2 4l-3-3l-3 3l2-4z"},
}

// flowMark is the kind of a call's dot: not yet answered (0), or its
// outcome's once shown.
func flowMark(outcome string) int {
	switch outcome {
	case sim.CallOK:
		return 1
	case sim.CallError:
		return 2
	case sim.CallRefused:
		return 3
	case sim.CallTimeout, sim.CallDropped:
		return 4
	case sim.CallLost:
		return 5
	}
	return 0 // cancelled, unfinished: no answer to show
}

// flowPlace puts each call in flight at t (inFlight, f.InFlight's) where
// it is drawn, calling put with its index, its mark (flowMarks) and its
// centre: out and at its node as not yet answered, back (or, for a call
// no answer will end, in the last third of its wait) as its outcome.
// at counts the calls at each node, for their stack.
func flowPlace(f *sim.Flow, g flowLayout, at []int, inFlight []int, t float64, put func(i, mark int, x, y float64)) {
	for k := range at {
		at[k] = 0
	}
	for _, i := range inFlight {
		c := &f.Calls[i]
		p := f.Pos(i, t)
		k := slices.Index(g.nodes, c.Node)
		nx, ny := flowNodeX-34, nodeY(k, len(g.nodes))
		cx, cy := flowClientX+16, clientY(c.Request)
		mark := 0
		var x, y float64
		switch p.Leg {
		case sim.LegOut:
			x, y = flowPath(cx, cy, nx, ny, g.lb(), p.Frac)
		case sim.LegBack:
			x, y = flowPath(nx, ny, cx, cy, g.lb(), p.Frac)
			mark = flowMark(c.Outcome)
		default:
			// The node's stack: a column of slots beside it, the tenth
			// and on drawn over the ninth.
			n := at[k]
			at[k]++
			x, y = nx-float64(n/10)*9, ny+14-float64(n%10)*8
			if n >= 90 {
				x, y = nx-81, ny-58
			}
			if m := flowMark(c.Outcome); m >= 4 && p.Frac > 0.66 {
				mark = m // a wait no answer will end: timed out, lost
			}
		}
		put(i, mark, math.Round(x*10)/10, math.Round(y*10)/10)
	}
}

// flowDots draws the calls in flight at t into paths[k], one per
// flowMarks kind.
func flowDots(paths []bytes.Buffer, f *sim.Flow, g flowLayout, at []int, inFlight []int, t float64) {
	for k := range paths {
		paths[k].Reset()
	}
	var num [24]byte
	flowPlace(f, g, at, inFlight, t, func(_, mark int, x, y float64) {
		b := &paths[mark]
		b.WriteByte('M')
		b.Write(strconv.AppendFloat(num[:0], x, 'f', -1, 64))
		b.WriteByte(' ')
		b.Write(strconv.AppendFloat(num[:0], y, 'f', -1, 64))
		b.WriteString(flowMarks[mark].mark)
	})
}

// flowWaits draws each client waiting to retry as a bar over its cell,
// as long as the share of its wait still to come.
func flowWaits(b *bytes.Buffer, f *sim.Flow, waiting []int, t float64) {
	b.Reset()
	var num [24]byte
	for _, i := range waiting {
		w := &f.Waits[i]
		left := (w.UntilS - t) / (w.UntilS - w.FromS)
		b.WriteByte('M')
		b.Write(strconv.AppendFloat(num[:0], flowClientX-6, 'f', -1, 64))
		b.WriteByte(' ')
		b.Write(strconv.AppendFloat(num[:0], math.Round((clientY(w.Request)-3.5)*10)/10, 'f', -1, 64))
		b.WriteByte('h')
		b.Write(strconv.AppendFloat(num[:0], math.Round(12*left*10)/10, 'f', -1, 64))
		b.WriteString("v7h-")
		b.Write(strconv.AppendFloat(num[:0], math.Round(12*left*10)/10, 'f', -1, 64))
		b.WriteByte('z')
	}
}

// dotsSVG is the dots' layer from its paths.
func dotsSVG(b *bytes.Buffer, paths []bytes.Buffer) {
	b.Reset()
	for k := range paths {
		if paths[k].Len() == 0 {
			continue
		}
		b.WriteString(`<path class="` + flowMarks[k].class + `" d="`)
		b.Write(paths[k].Bytes())
		b.WriteString(`"></path>`)
	}
}

// flowPath is the point frac of the way from (x0, y0) to (x1, y1),
// through the balancer when there is one.
func flowPath(x0, y0, x1, y1 float64, lb bool, frac float64) (float64, float64) {
	if !lb {
		return x0 + (x1-x0)*frac, y0 + (y1-y0)*frac
	}
	mx, my := flowLBX, (flowTop+flowBottom)/2
	if frac < 0.5 {
		return x0 + (mx-x0)*frac*2, y0 + (my-y0)*frac*2
	}
	return mx + (x1-mx)*(frac-0.5)*2, my + (y1-my)*(frac-0.5)*2
}

// num is x as SVG writes it.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// flowPicture is the drawing under the dots: the clients' strip, the
// balancer and the nodes, labelled label; layer is what goes over them
// (the live view's empty layer of dots, or the animation).
func flowPicture(l i18n.Lang, g flowLayout, label, layer string, busyAnim []string) string {
	if busyAnim == nil {
		busyAnim = make([]string, len(g.nodes))
	}
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="chart flow-chart" viewBox="0 0 ` + num(flowW) + " " + num(flowH) +
		`" role="img" aria-label="` + escapeText(label) + `">`)
	for r := 1; r <= flowRows; r++ {
		y := clientY(r)
		b.WriteString(`<rect class="flow-client" x="` + num(flowClientX-6) + `" y="` + num(y-3.5) + `" width="12" height="7"></rect>`)
	}
	b.WriteString(`<text class="flow-label" x="` + num(flowClientX-6) + `" y="` + num(flowTop-10) + `">` + l.T("flow.clients") + `</text>`)
	if g.lb() {
		y := (flowTop + flowBottom) / 2
		b.WriteString(`<circle class="flow-lb" cx="` + num(flowLBX) + `" cy="` + num(y) + `" r="14"></circle><text class="flow-label" x="` +
			num(flowLBX) + `" y="` + num(y-20) + `" text-anchor="middle">` + l.T("flow.balancer") + `</text>`)
	}
	for k, n := range g.nodes {
		y := nodeY(k, len(g.nodes))
		ty := y + 9
		if g.work.busy[k] != nil {
			ty = y + 4
		}
		b.WriteString(`<g id="flow-node-` + strconv.Itoa(k) + `" class="flow-node"><rect x="` + num(flowNodeX-20) + `" y="` + num(y-28) +
			`" width="110" height="56" rx="6"></rect><text class="flow-label flow-node-label" x="` + num(flowNodeX+35) + `" y="` + num(ty) +
			`" text-anchor="middle">` + escapeText(n) + `</text></g>`)
		if g.work.busy[k] != nil {
			// Its workers: a bar as long as the share of them busy.
			ks := strconv.Itoa(k)
			b.WriteString(`<rect class="flow-workers" x="` + num(flowNodeX-10) + `" y="` + num(y+13) + `" width="` + num(flowBusyW) + `" height="6"></rect>` +
				`<rect id="flow-busy-` + ks + `" class="flow-busy" x="` + num(flowNodeX-10) + `" y="` + num(y+13) + `" width="0" height="6">` +
				busyAnim[k] + `</rect>`)
			if (flowBottom-flowTop)/float64(len(g.nodes)) >= 60 { // room for its label under the node
				b.WriteString(`<text id="flow-busy-text-` + ks + `" class="flow-busy-label" x="` + num(flowNodeX+35) + `" y="` + num(y+42) +
					`" text-anchor="middle"></text>`)
			}
		}
	}
	b.WriteString(layer + `</svg>`)
	return b.String()
}

// escapeText is s safe inside an SVG text element or attribute.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// faultOn says whether a fault holds server k of a fleet of servers at t
// (a flush holds nothing: it happens at once).
func faultOn(faults []sim.Fault, k, servers int, t float64) bool {
	for _, f := range faults {
		on := f.Servers == 0 || servers > 1 && f.Servers&(1<<uint(k)) != 0
		if on && t >= f.Start.Seconds() && t < f.End.Seconds() && f.Kind.String() != "flush" {
			return true
		}
	}
	return false
}

// The animated picture's bounds: it plays at most flowSVGSeconds of the
// run, a frame each flowSVGStep, and stops earlier where its dots would
// pass flowSVGSamples positions or flowSVGElements elements (about a
// megabyte): an image stays small enough to load in a page.
const (
	flowSVGSeconds  = 20.0
	flowSVGStep     = 0.1
	flowSVGSamples  = 40_000
	flowSVGElements = 4_000
)

// flowOff is where the animated picture keeps a dot not in flight: off
// the picture.
const flowOff = "-40 -40"

// flowTrack is one call's dot while its mark stays the same: the frames
// it was drawn in, from frame first, and its centre in each.
type flowTrack struct {
	call, mark, first, last int
	xy                      []float64
}

// flowAnimated is the run's first seconds as an animated SVG (SMIL): the
// frames the live view would draw every flowSVGStep of simulated time,
// played at real speed in a loop, each dot moving between its frames'
// places; the waits to retry shrink, a fault shades its node, and a bar
// along the bottom runs with the time. It says how many seconds it plays.
//
// A run with more calls at once than the picture can hold from its first
// frame on is refused, saying how many.
func flowAnimated(l i18n.Lang, f *sim.Flow, g flowLayout) (string, error) {
	end := min(f.EndS, flowSVGSeconds, f.ExactUntil) // exact: every call sent before it is here
	if end <= 0 {
		return "", sweepErr{"flow.too-many-more", []float64{float64(len(f.Calls)), flowSVGElements}}
	}
	frames := max(int(math.Ceil(end/flowSVGStep-1e-9)), 1)
	at := make([]int, len(g.nodes))
	var inFlight []int
	open := map[int]*flowTrack{}
	var done []*flowTrack
	samples, elements := 0, 0
	waits := 0
	for k := 0; k < frames; k++ {
		t := float64(k) * flowSVGStep
		inFlight = f.InFlightInto(inFlight, t)
		w := 0
		for w = waits; w < len(f.Waits) && f.Waits[w].FromS <= t; w++ {
		}
		if samples+len(inFlight) > flowSVGSamples || elements+len(inFlight)+w-waits > flowSVGElements {
			if k == 0 {
				return "", sweepErr{"flow.too-many", []float64{float64(len(inFlight) + w), flowSVGElements}}
			}
			frames = k // the picture ends before this frame
			break
		}
		elements += w - waits
		waits = w
		samples += len(inFlight)
		flowPlace(f, g, at, inFlight, t, func(i, mark int, x, y float64) {
			tr := open[i]
			if tr != nil && tr.mark != mark {
				done = append(done, tr)
				tr = nil
			}
			if tr == nil {
				tr = &flowTrack{call: i, mark: mark, first: k}
				open[i] = tr
				elements++
			}
			tr.last = k
			tr.xy = append(tr.xy, x, y)
		})
		for i, tr := range open {
			if tr.last != k {
				done = append(done, tr)
				delete(open, i)
			}
		}
	}
	for _, tr := range open {
		done = append(done, tr)
	}
	playS := float64(frames) * flowSVGStep
	// Frame k shows at k/frames of the loop; the dots are in the order
	// they appeared, the later over the earlier.
	slices.SortFunc(done, func(a, b *flowTrack) int {
		if a.first != b.first {
			return a.first - b.first
		}
		return a.call - b.call
	})
	key := func(k int) string {
		return strconv.FormatFloat(math.Round(float64(k)/float64(frames)*1e4)/1e4, 'f', -1, 64)
	}
	dur := ` dur="` + num(math.Round(playS*1000)/1000) + `s" repeatCount="indefinite"`
	var b strings.Builder
	shown := func(from, to string) string {
		// Discrete: hidden, shown from..to, hidden again.
		vals, keys := "hidden;visible;hidden", "0;"+from+";"+to
		switch {
		case from == "0" && to == "1":
			return ""
		case from == "0":
			vals, keys = "visible;hidden", "0;"+to
		case to == "1":
			vals, keys = "hidden;visible", "0;"+from
		}
		return `<animate attributeName="visibility" calcMode="discrete" values="` + vals + `" keyTimes="` + keys + `"` + dur + `/>`
	}
	// The faults' shading, over the nodes.
	for k := range g.nodes {
		var vals, keys []string
		on := false
		for fr := range frames {
			if now := g.faultAt(k, float64(fr)*flowSVGStep); now != on || fr == 0 {
				on = now
				vals = append(vals, map[bool]string{false: "hidden", true: "visible"}[on])
				keys = append(keys, key(fr))
			}
		}
		if len(vals) == 1 && !on {
			continue
		}
		y := nodeY(k, len(g.nodes))
		b.WriteString(`<rect class="flow-fault" x="` + num(flowNodeX-20) + `" y="` + num(y-28) + `" width="110" height="56" rx="6">`)
		if len(vals) > 1 {
			b.WriteString(`<animate attributeName="visibility" calcMode="discrete" values="` + strings.Join(vals, ";") + `" keyTimes="` + strings.Join(keys, ";") + `"` + dur + `/>`)
		}
		b.WriteString(`</rect>`)
	}
	// The waits to retry: a bar over the client's cell, shrinking.
	for _, w := range f.Waits[:waits] {
		from, until := w.FromS/playS, math.Min(w.UntilS/playS, 1)
		full := math.Min(1, (playS-w.FromS)/(w.UntilS-w.FromS)) // the share of it shown
		y := math.Round((clientY(w.Request)-3.5)*10) / 10
		fk := strconv.FormatFloat(math.Round(from*1e4)/1e4, 'f', -1, 64)
		uk := strconv.FormatFloat(math.Round(until*1e4)/1e4, 'f', -1, 64)
		b.WriteString(`<rect class="flow-wait" x="` + num(flowClientX-6) + `" y="` + num(y) + `" width="12" height="7" visibility="hidden">` +
			`<animate attributeName="width" values="12;12;` + num(math.Round(12*(1-full)*10)/10) + `;0" keyTimes="0;` + fk + ";" + uk + `;1"` + dur + `/>` +
			shown(fk, uk) + `</rect>`)
	}
	// The calls: a mark each (flowMarks), used by every dot of its kind
	// in its kind's group, off the picture while it is not in flight (a
	// jump: two places at one key time).
	b.WriteString(`<defs>`)
	for m, fm := range flowMarks {
		b.WriteString(`<path id="fm` + strconv.Itoa(m) + `" d="M0 0` + fm.mark + `"></path>`)
	}
	b.WriteString(`</defs>`)
	var vals, keys strings.Builder
	for m, fm := range flowMarks {
		b.WriteString(`<g class="` + fm.class + `">`)
		for _, tr := range done {
			if tr.mark != m {
				continue
			}
			vals.Reset()
			keys.Reset()
			add := func(v, k string) {
				if keys.Len() > 0 {
					vals.WriteByte(';')
					keys.WriteByte(';')
				}
				vals.WriteString(v)
				keys.WriteString(k)
			}
			pt := func(j int) string { return num(tr.xy[2*j]) + " " + num(tr.xy[2*j+1]) }
			if tr.first > 0 {
				add(flowOff, "0")
				add(flowOff, key(tr.first))
			}
			n := tr.last - tr.first + 1
			for j := range n {
				add(pt(j), key(tr.first+j))
			}
			end := key(tr.last + 1)
			add(pt(n-1), end)
			if end != "1" {
				add(flowOff, end)
				add(flowOff, "1")
			}
			b.WriteString(`<use href="#fm` + strconv.Itoa(m) + `"><animateTransform attributeName="transform" type="translate" values="` +
				vals.String() + `" keyTimes="` + keys.String() + `"` + dur + `/></use>`)
		}
		b.WriteString(`</g>`)
	}
	// The clock: a bar along the bottom, from 0 to the picture's end.
	b.WriteString(`<rect class="flow-clock" x="` + num(flowClientX+20) + `" y="` + num(flowH-12) + `" height="4" width="0"><animate attributeName="width" values="0;` +
		num(flowNodeX+70-flowClientX-20) + `" keyTimes="0;1"` + dur + `/></rect>` +
		`<text class="flow-label" x="` + num(flowClientX+14) + `" y="` + num(flowH-6) + `" text-anchor="end">0</text>` +
		`<text class="flow-label" x="` + num(flowNodeX+76) + `" y="` + num(flowH-6) + `">` + l.Seconds(playS) + `</text>`)
	// The busy workers: each bar's width, changed where it changes.
	busy := make([]string, len(g.nodes))
	for k := range g.nodes {
		if g.work.busy[k] == nil {
			continue
		}
		var vals, keys []string
		last := -1.0
		for fr := range frames {
			n, _ := g.busyAt(k, float64(fr)*flowSVGStep)
			if w := g.busyW(n); w != last {
				vals, keys, last = append(vals, num(w)), append(keys, key(fr)), w
			}
		}
		busy[k] = `<animate attributeName="width" calcMode="discrete" values="` + strings.Join(vals, ";") + `" keyTimes="` + strings.Join(keys, ";") + `"` + dur + `/>`
	}
	return flowPicture(l, g, l.F("flow.animated", l.Seconds(playS), l.Seconds(f.EndS)), b.String(), busy), nil
}

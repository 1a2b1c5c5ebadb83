package app

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The flow view (?view=flow) animates the simulator's own calls: the
// page's run, traced by the same code as backoff sim --trace, drawn as
// dots going from the clients to their node and back (sim.Flow says
// where each is), over the topology: the clients as a strip of cells,
// a balancer when there is a fleet, each server with its calls waiting
// as a stack and shaded while a fault holds it. It plays, pauses, steps
// and scrubs; #flow carries data-t and data-in-flight, the calls drawn.

// flowSpeeds are the speeds offered, simulated seconds per second.
var flowSpeeds = []float64{0.1, 0.25, 0.5, 1, 2, 5, 10}

// flowStep is a step's simulated time.
const flowStep = 0.1

// flowCalls bounds the calls of the flow's run, as a change's runs are.
const flowCalls = pageCalls

// flowRows are the cells of the clients' strip: request r is drawn in
// cell (r-1) mod flowRows.
const flowRows = 40

// The drawing's frame, in SVG units.
const (
	flowW, flowH         = 800.0, 420.0
	flowTop, flowBottom  = 30.0, 400.0
	flowClientX, flowLBX = 70.0, 380.0
	flowNodeX            = 640.0
)

// flowResume is where a run recomputed with a fault goes on: its time,
// and whether it was playing.
type flowResume struct {
	t    float64
	play bool
}

// flowFaults are the faults a reader can inject from now on: their
// kinds (and arguments) as the fault key writes them; flush is a cache's.
var flowFaults = []string{"crash", "stall", "slow:5", "errors:0.5", "flush"}

// actFlowFault carries a fault injected in the flow view to the page,
// which adds it to the link's faults: its text, KIND[:ARG]@START-END[/S].
const actFlowFault = "flow-fault"

// flowView is the view's component: it runs its flow and plays it.
type flowView struct {
	app.Compo

	Lang  i18n.Lang
	Alone bool
	Cfg   sim.Config
	Seed  uint64

	gen     atomic.Uint64
	key     string
	cfg     sim.Config // the run's, bounded
	flow    *sim.Flow
	faults  []sim.Fault
	nodes   []string
	err     error
	running bool
	t       float64
	playing bool
	speed   float64
	last    float64 // the animation frame's time, ms
	second  int     // the second the text last described
	// The fault form: the node (an index of nodes) and the kind; resume
	// is where the run with a fault injected goes on from.
	faultNode int
	faultKind string
	resume    *flowResume
	// A frame's buffers, kept: a frame allocates little (its dots' text
	// for the browser), so the collector seldom stops the animation.
	inFlight []int
	atNode   []int
	buf      bytes.Buffer
	paths    []bytes.Buffer
	waiting  []int
	waits    bytes.Buffer
}

func (v *flowView) OnMount(ctx app.Context) {
	// Nothing moves until Play: with prefers-reduced-motion too, the view
	// never moves on its own.
	v.speed = 1
	v.schedule(ctx)
}

func (v *flowView) OnUpdate(ctx app.Context) {
	v.schedule(ctx)
	ctx.Defer(v.draw) // a new language redraws the picture without its dots
}

func (v *flowView) OnDismount() { v.gen.Add(1) }

// schedule runs the flow of the view's settings, unless it has it.
func (v *flowView) schedule(ctx app.Context) {
	if app.IsServer {
		return
	}
	key := configKey(v.Cfg) + "|" + strconv.FormatUint(v.Seed, 10)
	if key == v.key {
		return
	}
	v.key = key
	gen := v.gen.Add(1)
	c := v.Cfg
	if c.RequestLevel() {
		c.MaxInFlight = sim.MaxCallersWithin(c, pageMemory)
	}
	if c.MaxCalls == 0 || c.MaxCalls > flowCalls {
		c.MaxCalls = flowCalls
	}
	resume := v.resume
	v.resume = nil
	v.cfg, v.flow, v.err, v.running, v.playing, v.t = c, nil, nil, true, false, 0
	s, err := sim.New(c, v.Seed)
	if err != nil {
		v.err, v.running = err, false
		return
	}
	rec := &sim.FlowRecorder{}
	s.SetTracer(rec)
	ctx.Async(func() {
		j := &job{s: s, chunk: firstChunk}
		for !j.advance(compareChunk) {
			time.Sleep(yieldFor)
			if v.gen.Load() != gen {
				return
			}
		}
		r := s.Result()
		f := rec.Flow(r.Totals.Makespan)
		ctx.Dispatch(func(ctx app.Context) {
			if v.gen.Load() != gen {
				return
			}
			v.flow, v.faults, v.running = f, r.Faults, false
			v.nodes = flowNodes(f, c)
			v.second = -1
			if resume != nil {
				// The same seed: up to the fault's start the run is the
				// one shown, and it goes on from there.
				v.t = math.Min(resume.t, f.EndS)
				if resume.play {
					ctx.Defer(v.play)
					return
				}
			}
			ctx.Defer(v.draw)
		})
	})
}

// flowNodes are the nodes the calls went to, in the topology's order.
func flowNodes(f *sim.Flow, c sim.Config) []string {
	seen := map[string]bool{}
	for _, call := range f.Calls {
		seen[call.Node] = true
	}
	var out []string
	for _, n := range c.NodeNames() {
		if seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// nodeY is node k's height of n.
func nodeY(k, n int) float64 {
	return flowTop + (flowBottom-flowTop)*(float64(k)+0.5)/float64(n)
}

// clientY is request r's cell's height.
func clientY(r int) float64 {
	return flowTop + (flowBottom-flowTop)*(float64((r-1)%flowRows)+0.5)/flowRows
}

// onPlay plays the run from where it is, or pauses it.
func (v *flowView) onPlay(ctx app.Context, e app.Event) {
	if v.flow == nil {
		return
	}
	if v.playing {
		v.playing = false
		v.draw(ctx)
		return
	}
	if v.t >= v.flow.EndS {
		v.t = 0
	}
	v.play(ctx)
}

// play runs the animation from v.t, a frame at a time.
func (v *flowView) play(ctx app.Context) {
	v.playing = true
	v.last = 0
	gen := v.gen.Load()
	var frame app.Func
	// Each frame draws in the browser's own callback: handing it to the
	// UI goroutine (ctx.Dispatch) cost a second task a frame, and frames.
	frame = app.FuncOf(func(this app.Value, args []app.Value) any {
		now := args[0].Float()
		if !v.playing || v.gen.Load() != gen || v.flow == nil {
			frame.Release()
			return nil
		}
		if v.last > 0 {
			v.t = math.Min(v.t+(now-v.last)/1000*v.speed, v.flow.EndS)
		}
		v.last = now
		v.draw(ctx)
		if v.t >= v.flow.EndS {
			frame.Release()
			ctx.Dispatch(func(ctx app.Context) { v.playing = false })
			return nil
		}
		app.Window().Call("requestAnimationFrame", frame)
		return nil
	})
	app.Window().Call("requestAnimationFrame", frame)
}

// onStep moves one step of simulated time on, paused.
func (v *flowView) onStep(ctx app.Context, e app.Event) {
	if v.flow == nil {
		return
	}
	v.playing = false
	v.t = math.Min(v.t+flowStep, v.flow.EndS)
	v.draw(ctx)
}

func (v *flowView) onSpeed(ctx app.Context, e app.Event) {
	if s, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64); err == nil && s > 0 {
		v.speed = s
	}
}

// onScrub shows the run at the scrubber's time, paused.
func (v *flowView) onScrub(ctx app.Context, e app.Event) {
	if t, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64); err == nil && v.flow != nil {
		v.playing = false
		v.t = math.Max(0, math.Min(t, v.flow.EndS))
		v.draw(ctx)
	}
}

func (v *flowView) onFaultNode(ctx app.Context, e app.Event) {
	if k, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && k >= 0 && k < len(v.nodes) {
		v.faultNode = k
	}
}

func (v *flowView) onFaultKind(ctx app.Context, e app.Event) {
	if k := ctx.JSSrc().Get("value").String(); contains(flowFaults, k) {
		v.faultKind = k
	}
}

// onPick chooses the node clicked in the picture for the fault form.
func (v *flowView) onPick(ctx app.Context, e app.Event) {
	g := e.Get("target").Call("closest", "g.flow-node")
	if !g.Truthy() {
		return
	}
	if k, err := strconv.Atoi(strings.TrimPrefix(g.Get("id").String(), "flow-node-")); err == nil && k < len(v.nodes) {
		v.faultNode = k
		if el := app.Window().GetElementByID("flow-fault-kind"); el.Truthy() {
			el.Call("focus")
		}
	}
}

// onFaultAdd injects the chosen fault at the chosen node from the time
// shown on: the page adds it to the link, and the run recomputed with it
// goes on from here.
func (v *flowView) onFaultAdd(ctx app.Context, e app.Event) {
	if v.flow == nil || v.faultNode >= len(v.nodes) {
		return
	}
	f, err := flowFault(v.cfg, v.nodes[v.faultNode], v.kind(), v.t, v.flow.EndS)
	if err != nil {
		v.err = err
		return
	}
	v.resume = &flowResume{v.t, v.playing}
	v.playing = false
	ctx.NewActionWithValue(actFlowFault, f)
}

// kind is the fault chosen: a cache's flush, else the form's kind.
func (v *flowView) kind() string {
	kinds := flowFaultKinds(v.cfg, v.nodes[v.faultNode])
	if contains(kinds, v.faultKind) {
		return v.faultKind
	}
	return kinds[0]
}

// flowFaultKinds are the faults node n of c can take.
func flowFaultKinds(c sim.Config, n string) []string {
	if !contains(c.ServerNodeNames(), n) {
		return flowFaults[len(flowFaults)-1:] // the cache: flush
	}
	return flowFaults[:len(flowFaults)-1]
}

// flowFault is the fault kind at node n of c from t to an hour past the
// run's end (from now on), as the fault key writes it, checked on c.
func flowFault(c sim.Config, n, kind string, t, end float64) (string, error) {
	at := func(s float64) string {
		return backoff.FormatDuration(time.Duration(math.Round(s*1000)) * time.Millisecond)
	}
	f := kind + "@" + at(t) + "-" + at(math.Max(end, t)+3600)
	if k := slices.Index(c.ServerNodeNames(), n); k >= 0 && c.Servers > 1 {
		f += "/" + strconv.Itoa(k+1)
	}
	all := f
	if cur := c.Get(sim.ParamFault); cur != "none" {
		all = cur + ";" + f
	}
	if err := c.Set(sim.ParamFault, all); err != nil {
		return "", err
	}
	return f, c.Validate()
}

// draw puts the calls in flight at v.t on the picture, in one write of
// the dots' layer (go-app does not draw them: a frame's dots would cost a
// diff of hundreds of elements), and the time, the count and the text.
func (v *flowView) draw(ctx app.Context) {
	root := app.Window().GetElementByID("flow")
	if v.flow == nil || !root.Truthy() {
		return
	}
	l := v.Lang
	v.inFlight = v.flow.InFlightInto(v.inFlight, v.t)
	inFlight := v.inFlight
	if len(v.atNode) != len(v.nodes) {
		v.atNode = make([]int, len(v.nodes))
	}
	if v.paths == nil {
		v.paths = make([]bytes.Buffer, len(flowMarks))
	}
	flowDots(v.paths, v.flow, v.nodes, v.atNode, v.cfg.Servers > 1, inFlight, v.t)
	dotsSVG(&v.buf, v.paths)
	v.waiting = v.flow.WaitingInto(v.waiting, v.t)
	flowWaits(&v.waits, v.flow, v.waiting, v.t)
	if v.waits.Len() > 0 {
		v.buf.WriteString(`<path class="flow-wait" d="`)
		v.buf.Write(v.waits.Bytes())
		v.buf.WriteString(`"></path>`)
	}
	dots := v.buf.String()
	doc := app.Window().Get("document")
	if g := doc.Call("getElementById", "flow-dots"); g.Truthy() {
		g.Set("innerHTML", dots)
	}
	root.Call("setAttribute", "data-t", strconv.FormatFloat(v.t, 'f', -1, 64))
	root.Call("setAttribute", "data-in-flight", strconv.Itoa(len(inFlight)))
	if el := doc.Call("getElementById", "flow-time"); el.Truthy() {
		el.Set("textContent", l.F("flow.time", l.Seconds(v.t), l.Seconds(v.flow.EndS), l.Int(int64(len(inFlight)))))
	}
	if el := doc.Call("getElementById", "flow-scrub"); el.Truthy() {
		el.Set("value", strconv.FormatFloat(v.t, 'f', 3, 64))
	}
	for k, n := range v.nodes {
		if el := doc.Call("getElementById", "flow-node-"+strconv.Itoa(k)); el.Truthy() {
			el.Call("setAttribute", "class", "flow-node"+faultClass(v.faults, n, k, v.cfg.Servers, v.t))
		}
	}
	if sec := int(v.t); sec != v.second {
		v.second = sec
		if el := doc.Call("getElementById", "flow-text"); el.Truthy() {
			el.Set("textContent", flowText(l, v.flow, float64(sec)))
		}
	}
}

// faultClass is " fault" while a fault holds node n (server k of a
// fleet of servers) at t.
func faultClass(faults []sim.Fault, n string, k, servers int, t float64) string {
	for _, f := range faults {
		on := f.Servers == 0 || servers > 1 && f.Servers&(1<<uint(k)) != 0
		if on && t >= f.Start.Seconds() && t < f.End.Seconds() && f.Kind.String() != "flush" {
			return " fault"
		}
	}
	return ""
}

// flowText says what the second from sec saw: calls sent, answered,
// failed, and those waiting at its end.
func flowText(l i18n.Lang, f *sim.Flow, sec float64) string {
	w := f.Window(sec, sec+1)
	failed := 0
	for o, n := range w.Ended {
		if o != sim.CallOK {
			failed += n
		}
	}
	return l.F("flow.second", l.Seconds(sec), l.Seconds(sec+1), l.Count(int64(w.Sent), "flow.calls-n"),
		l.Int(int64(w.Ended[sim.CallOK])), l.Int(int64(failed)), l.Int(int64(w.InFlight)), l.Int(int64(len(f.WaitingInto(nil, sec+1)))))
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

// flowDots draws the calls in flight at t into paths[k], one per
// flowMarks kind: out and at their node as not yet answered, back (or,
// for a call no answer will end, in the last third of its wait) as its
// outcome, each failure its own shape.
func flowDots(paths []bytes.Buffer, f *sim.Flow, nodes []string, at []int, lb bool, inFlight []int, t float64) {
	for k := range at {
		at[k] = 0
	}
	for k := range paths {
		paths[k].Reset()
	}
	var num [24]byte
	for _, i := range inFlight {
		c := &f.Calls[i]
		p := f.Pos(i, t)
		k := slices.Index(nodes, c.Node)
		nx, ny := flowNodeX-34, nodeY(k, len(nodes))
		cx, cy := flowClientX+16, clientY(c.Request)
		mark := 0
		var x, y float64
		switch p.Leg {
		case sim.LegOut:
			x, y = flowPath(cx, cy, nx, ny, lb, p.Frac)
		case sim.LegBack:
			x, y = flowPath(nx, ny, cx, cy, lb, p.Frac)
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
		b := &paths[mark]
		b.WriteByte('M')
		b.Write(strconv.AppendFloat(num[:0], math.Round(x*10)/10, 'f', -1, 64))
		b.WriteByte(' ')
		b.Write(strconv.AppendFloat(num[:0], math.Round(y*10)/10, 'f', -1, 64))
		b.WriteString(flowMarks[mark].mark)
	}
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

// picture is the drawing without its dots: the clients' strip, the
// balancer, the nodes and the marks the dots use.
func (v *flowView) picture(l i18n.Lang) string {
	var b strings.Builder
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="chart flow-chart" viewBox="0 0 ` + num(flowW) + " " + num(flowH) +
		`" role="img" aria-label="` + l.T("flow.picture") + `">`)
	for r := 1; r <= flowRows; r++ {
		y := clientY(r)
		b.WriteString(`<rect class="flow-client" x="` + num(flowClientX-6) + `" y="` + num(y-3.5) + `" width="12" height="7"></rect>`)
	}
	b.WriteString(`<text class="flow-label" x="` + num(flowClientX) + `" y="18" text-anchor="middle">` + l.T("flow.clients") + `</text>`)
	if v.cfg.Servers > 1 {
		y := (flowTop + flowBottom) / 2
		b.WriteString(`<circle class="flow-lb" cx="` + num(flowLBX) + `" cy="` + num(y) + `" r="14"></circle><text class="flow-label" x="` +
			num(flowLBX) + `" y="` + num(y-20) + `" text-anchor="middle">` + l.T("flow.balancer") + `</text>`)
	}
	for k, n := range v.nodes {
		y := nodeY(k, len(v.nodes))
		b.WriteString(`<g id="flow-node-` + strconv.Itoa(k) + `" class="flow-node"><rect x="` + num(flowNodeX-20) + `" y="` + num(y-22) +
			`" width="110" height="44" rx="6"></rect><text class="flow-label" x="` + num(flowNodeX+35) + `" y="` + num(y+5) +
			`" text-anchor="middle">` + escapeText(n) + `</text></g>`)
	}
	b.WriteString(`<g id="flow-dots"></g></svg>`)
	return b.String()
}

// escapeText is s safe inside an SVG text element.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func (v *flowView) Render() app.UI {
	l := v.Lang
	status := ""
	switch {
	case v.err != nil:
		status = errText(l, v.err, "")
	case v.running || v.flow == nil:
		status = l.T("flow.running")
	case v.flow.Truncated:
		status = l.F("flow.truncated", l.Int(int64(sim.MaxFlowCalls)))
	}
	end := 0.0
	if v.flow != nil {
		end = v.flow.EndS
	}
	speeds := make([]app.UI, len(flowSpeeds))
	for i, s := range flowSpeeds {
		speeds[i] = app.Option().Value(strconv.FormatFloat(s, 'f', -1, 64)).Selected(s == v.speed).
			Text(l.F("flow.speed-x", l.Num(s)))
	}
	play := "flow.play"
	if v.playing {
		play = "flow.pause"
	}
	return app.Section().ID("flow-card").Class("card flow").Body(
		cardHead(v.Alone, 2, l.T("view.flow")),
		app.P().Class("help").Text(l.T("flow.help")),
		app.Div().Class("flow-controls").Body(
			app.Button().ID("flow-play").Type("button").Disabled(v.flow == nil).OnClick(v.onPlay).Text(l.T(play)),
			app.Button().ID("flow-step").Type("button").Class("secondary").Disabled(v.flow == nil).OnClick(v.onStep).Text(l.T("flow.step")),
			app.Label().For("flow-speed").Text(l.T("flow.speed")),
			app.Select().ID("flow-speed").OnChange(v.onSpeed).Body(speeds...),
			app.Input().ID("flow-scrub").Type("range").Min(0).Max(strconv.FormatFloat(end, 'f', 3, 64)).Step(0.001).
				Value(strconv.FormatFloat(v.t, 'f', 3, 64)).Aria("label", l.T("flow.scrub")).Disabled(v.flow == nil).OnInput(v.onScrub),
			app.Span().ID("flow-time").Class("status"),
		),
		app.If(status != "", func() app.UI { return app.P().ID("flow-status").Class("status").Role("status").Text(status) }),
		app.Figure().ID("flow").Class("flow-figure").DataSet("t", "0").DataSet("in-flight", "0").TabIndex(0).Role("region").
			Aria("label", l.T("view.flow")).OnClick(v.onPick).Body(
			app.If(v.flow != nil, func() app.UI { return app.Raw(v.picture(l)) }),
		),
		app.P().ID("flow-text").Class("status").Aria("live", "polite"),
		v.renderFaults(l),
		legend("flow-ok", l.T("flow.ok"), "flow-error", l.T("flow.error"), "flow-refused", l.T("flow.refused"), "flow-timeout", l.T("flow.timeout"), "flow-lost", l.T("flow.lost")),
	)
}

// renderFaults is the form that injects a fault from the time shown on.
func (v *flowView) renderFaults(l i18n.Lang) app.UI {
	if v.flow == nil || len(v.nodes) == 0 {
		return app.Div().ID("flow-faults")
	}
	nodes := make([]app.UI, len(v.nodes))
	for k, n := range v.nodes {
		nodes[k] = app.Option().Value(strconv.Itoa(k)).Selected(k == v.faultNode).Text(n)
	}
	kinds := flowFaultKinds(v.cfg, v.nodes[min(v.faultNode, len(v.nodes)-1)])
	opts := make([]app.UI, len(kinds))
	for i, k := range kinds {
		name, _, _ := strings.Cut(k, ":")
		opts[i] = app.Option().Value(k).Selected(k == v.kind()).Text(l.T("flow.fault-" + name))
	}
	return app.Div().ID("flow-faults").Class("flow-controls").Body(
		app.Label().For("flow-fault-node").Text(l.T("flow.fault-at")),
		app.Select().ID("flow-fault-node").OnChange(v.onFaultNode).Body(nodes...),
		app.Label().For("flow-fault-kind").Text(l.T("flow.fault-kind")),
		app.Select().ID("flow-fault-kind").OnChange(v.onFaultKind).Body(opts...),
		app.Button().ID("flow-fault-add").Type("button").Class("secondary").OnClick(v.onFaultAdd).Text(l.T("flow.fault-add")),
	)
}

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

// flowRows are the cells of the clients' strip: request r is drawn in
// cell (r-1) mod flowRows.
const flowRows = 40

// The drawing's frame, in SVG units.
const (
	flowW, flowH         = 800.0, 420.0
	flowTop, flowBottom  = 44.0, 400.0
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

// flowBox is where the view leaves its last flow, for the page's
// download of it as an animated picture.
type flowBox struct {
	flow *sim.Flow
	lay  flowLayout
}

// flowView is the view's component: it runs its flow and plays it.
type flowView struct {
	app.Compo

	Lang  i18n.Lang
	Alone bool
	Cfg   sim.Config
	Seed  uint64
	Box   *flowBox

	gen     atomic.Uint64
	key     string
	cfg     sim.Config // the run's, bounded
	flow    *sim.Flow
	lay     flowLayout
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
	c = flowConfig(c)
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
			sleepInTask(yieldFor)
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
			v.flow, v.lay, v.running = f, layoutOf(f, c, r), false
			if v.Box != nil {
				v.Box.flow, v.Box.lay = f, v.lay
			}
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
	if k, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && k >= 0 && k < len(v.lay.nodes) {
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
	if k, err := strconv.Atoi(strings.TrimPrefix(g.Get("id").String(), "flow-node-")); err == nil && k < len(v.lay.nodes) {
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
	if v.flow == nil || v.faultNode >= len(v.lay.nodes) {
		return
	}
	f, err := flowFault(v.cfg, v.lay.nodes[v.faultNode], v.kind(), v.t, v.flow.EndS)
	if err != nil {
		v.err = err
		return
	}
	v.resume = &flowResume{v.t, v.playing}
	v.playing = false
	sendEdit(ctx, edit{set: addFault(f), rerun: true, push: true})
}

// kind is the fault chosen: a cache's flush, else the form's kind.
func (v *flowView) kind() string {
	kinds := flowFaultKinds(v.cfg, v.lay.nodes[v.faultNode])
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
	if len(v.atNode) != len(v.lay.nodes) {
		v.atNode = make([]int, len(v.lay.nodes))
	}
	if v.paths == nil {
		v.paths = make([]bytes.Buffer, len(flowMarks))
	}
	flowDots(v.paths, v.flow, v.lay, v.atNode, inFlight, v.t)
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
	for k := range v.lay.nodes {
		if el := doc.Call("getElementById", "flow-node-"+strconv.Itoa(k)); el.Truthy() {
			cls := "flow-node"
			if v.lay.faultAt(k, v.t) {
				cls += " fault"
			}
			el.Call("setAttribute", "class", cls)
		}
		if n, ok := v.lay.busyAt(k, v.t); ok {
			ks := strconv.Itoa(k)
			if el := doc.Call("getElementById", "flow-busy-"+ks); el.Truthy() {
				el.Call("setAttribute", "width", num(v.lay.busyW(n)))
			}
			if el := doc.Call("getElementById", "flow-busy-text-"+ks); el.Truthy() {
				el.Set("textContent", l.F("flow.busy", l.Int(int64(n)), l.Int(int64(v.lay.work.workers))))
			}
		}
	}
	if sec := int(v.t); sec != v.second {
		v.second = sec
		if el := doc.Call("getElementById", "flow-text"); el.Truthy() {
			el.Set("textContent", flowText(l, v.flow, v.lay, float64(sec)))
		}
	}
}

// flowText says what the second from sec saw: calls sent, answered,
// failed, and those waiting at its end.
//
// Servers with workers add how many were busy at the second's end.
func flowText(l i18n.Lang, f *sim.Flow, g flowLayout, sec float64) string {
	w := f.Window(sec, sec+1)
	failed := 0
	for o, n := range w.Ended {
		if o != sim.CallOK {
			failed += n
		}
	}
	text := l.F("flow.second", l.Seconds(sec), l.Seconds(sec+1), l.Count(int64(w.Sent), "flow.calls-n"),
		l.Int(int64(w.Ended[sim.CallOK])), l.Int(int64(failed)), l.Int(int64(w.InFlight)), l.Int(int64(len(f.WaitingInto(nil, sec+1)))))
	var busy []string
	for k, n := range g.nodes {
		if b, ok := g.busyAt(k, sec+1); ok {
			busy = append(busy, l.F("flow.busy-at", n, l.Int(int64(b)), l.Int(int64(g.work.workers))))
		}
	}
	if len(busy) > 0 {
		text += " " + l.F("flow.busy-all", strings.Join(busy, ", "))
	}
	return text
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
			app.If(v.flow != nil, func() app.UI {
				return app.Raw(flowPicture(l, v.lay, l.T("flow.picture"), `<g id="flow-dots"></g>`, nil))
			}),
		),
		app.P().ID("flow-text").Class("status").Aria("live", "polite"),
		v.renderFaults(l),
		takeAway(l, downloadButton("flow")),
		legend("flow-ok", l.T("flow.ok"), "flow-error", l.T("flow.error"), "flow-refused", l.T("flow.refused"), "flow-timeout", l.T("flow.timeout"), "flow-lost", l.T("flow.lost")),
	)
}

// renderFaults is the form that injects a fault from the time shown on.
func (v *flowView) renderFaults(l i18n.Lang) app.UI {
	if v.flow == nil || len(v.lay.nodes) == 0 {
		return app.Div().ID("flow-faults")
	}
	nodes := make([]app.UI, len(v.lay.nodes))
	for k, n := range v.lay.nodes {
		nodes[k] = app.Option().Value(strconv.Itoa(k)).Selected(k == v.faultNode).Text(n)
	}
	kinds := flowFaultKinds(v.cfg, v.lay.nodes[min(v.faultNode, len(v.lay.nodes)-1)])
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

// addFault is an edit's set that adds the fault f (its text,
// KIND[:ARG]@START-END[/S]) to the link's faults: the herd runs again, and
// the flow view with it.
func addFault(f string) func(*state) bool {
	return func(st *state) bool {
		c := st.Herd.Config
		all := f
		if cur := c.Get(sim.ParamFault); cur != "none" {
			all = cur + ";" + f
		}
		if c.Set(sim.ParamFault, all) != nil || c.Validate() != nil {
			return false
		}
		st.Herd.Config = c
		return true
	}
}

// newFlowCard is the flow view: it runs and plays its own flow, and keeps
// the last in the page's box for the view's picture.
func newFlowCard(v pageView) app.UI {
	return &flowView{Lang: v.lang, Alone: v.alone(), Cfg: v.st.Herd.config(v.st.Policy), Seed: v.st.Seed, Box: &v.boxes.flow}
}

// flowViewPicture is the flow view's last flow as an animated picture.
func flowViewPicture(v pageView) string {
	b := &v.boxes.flow
	if b.flow == nil {
		return ""
	}
	svg, _ := flowAnimated(v.lang, b.flow, b.lay) // too big: nothing to download
	return svg
}

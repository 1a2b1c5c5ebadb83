package app

import (
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The herd and compare panels, rendered by the playground (their controls
// edit its state; the runs are the herdRunner's).

// option is a select entry: the value Set takes and what people read.
type option struct{ Value, Label string }

var (
	clientOptions = []option{{"10", "10"}, {"100", "100"}, {"1000", "1,000"}, {"10000", "10,000"},
		{"100000", "100,000"}, {"1000000", "1,000,000"}}
	serverOptions = []option{
		{"outage", "outage, then capacity"},
		{"capacity", "fixed capacity"},
		{"collapse", "collapses under overload"},
		{"occ", "optimistic concurrency (AWS blog)"},
	}
	arrivalOptions = []option{
		{"burst", "all at once"},
		{"uniform:10s", "spread over 10s"},
		{"clock:1m", "on the minute (clock-aligned)"},
	}
	budgetOptions = []option{
		{"none", "none"},
		{"tokens:500:5:1", "AWS retry quota (500 tokens, retry 5, success +1)"},
		{"ratio:0.2:3", "Envoy budget (20% of active, min 3)"},
	}
	breakerOptions = []option{
		{"none", "none"},
		{"consecutive:5:5s", "open after 5 failures, 5s cool-down"},
		{"ratio:0.5:20:10s:5s", "open at 50% of ≥20 calls in 10s"},
	}
)

// herdFields are the herd's controls in order: a select of opts (with a
// typed box when box), or a typed box alone when opts is nil; only lists
// the server models a field applies to (nil: all). One loop renders them:
// each go-app call site costs app.wasm bytes.
var herdFields = []struct {
	name, label, hint string
	opts              []option
	box               bool
	only              []string
}{
	{sim.ParamClients, "Clients", "", clientOptions, true, nil},
	{sim.ParamServer, "Server", "", serverOptions, false, nil},
	{sim.ParamCapacity, "Capacity (calls/s)", "calls per second the server can serve", nil, true, []string{"outage", "capacity", "collapse"}},
	{sim.ParamOutageEnd, "Outage ends at", "the server fails every call until then, e.g. 10s", nil, true, []string{"outage"}},
	{sim.ParamCollapseFactor, "Collapse factor", "how fast throughput falls under overload (0 = not at all)", nil, true, []string{"collapse"}},
	{sim.ParamArrival, "First calls", "", arrivalOptions, true, nil},
	{sim.ParamBudget, "Retry budget", "", budgetOptions, true, nil},
	{sim.ParamBreaker, "Circuit breaker", "", breakerOptions, true, nil},
	{sim.ParamRetryAfterS, "Retry-After sent with 503s", "0 = the server sends none; e.g. 2s", nil, true, nil},
	{sim.ParamLatency, "Network latency", "one-way delay per hop, e.g. 50ms", nil, true, nil},
}

func (p *playground) herdControls() []app.UI {
	c := p.st.Herd.Config
	server := c.Get(sim.ParamServer)
	var items []app.UI
	for _, f := range herdFields {
		switch {
		case f.only != nil && !contains(f.only, server):
		case f.opts != nil:
			items = append(items, p.herdSelect(f.name, f.label, f.opts, f.box))
		default:
			items = append(items, p.herdBox(f.name, f.label, f.hint))
		}
	}
	return append(items, app.Div().Class("field").Body(
		app.Label().For(sim.ParamHonorRetryAfter).Class("toggle").Body(
			app.Input().Type("checkbox").ID(sim.ParamHonorRetryAfter).Checked(c.HonorRetryAfter).OnChange(p.onHerdInput),
			app.Text(" clients honour Retry-After"),
		),
	))
}

// onHerdInput handles every herd control; the element's id says which.
func (p *playground) onHerdInput(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	id := src.Get("id").String()
	name := strings.TrimSuffix(id, "-value")
	v := src.Get("value").String()
	if src.Get("type").String() == "checkbox" {
		v = strconv.FormatBool(src.Get("checked").Bool())
	}
	typed := strings.HasSuffix(id, "-value")
	nc := p.st.Herd.config(p.st.Policy)
	err := nc.Set(name, v)
	if err == nil {
		err = nc.Validate()
	}
	if typed {
		p.text[name] = v
	}
	if err != nil {
		p.errs[name+"-value"] = errText(err)
		return
	}
	delete(p.errs, name+"-value")
	if !typed {
		delete(p.text, name)
	}
	nc.Policy = p.st.Herd.Config.Policy
	if nc == p.st.Herd.Config {
		return
	}
	p.st.Herd.Config = nc
	p.copied = ""
	p.herd.start(ctx, p)
	p.writeURL(ctx)
}

// herdInput is the typed box of a herd parameter: what the user typed while
// it is not valid yet, else the config's value.
func (p *playground) herdInput(name, label string) app.UI {
	id := name + "-value"
	v, ok := p.text[name]
	if !ok {
		v = p.st.Herd.Config.Get(name)
	}
	in := app.Input().Type("text").ID(id).Class("value-box").Value(v).
		Aria("label", label+" value").Aria("describedby", id+"-error").
		Attr("autocomplete", "off").Attr("spellcheck", "false").
		OnInput(p.onHerdInput).OnChange(p.onHerdInput)
	if p.errs[id] != "" {
		in = in.Class("invalid").Aria("invalid", "true")
	}
	return in
}

// herdBox is a labelled typed box (hint: its tooltip).
func (p *playground) herdBox(name, label, hint string) app.UI {
	id := name + "-value"
	return app.Div().Class("field").Title(hint).Body(
		app.Label().For(id).Text(label),
		p.herdInput(name, label),
		p.fieldError(id),
	)
}

// herdSelect is a select of common values with a typed box for any other.
func (p *playground) herdSelect(name, label string, opts []option, box bool) app.UI {
	cur := p.st.Herd.Config.Get(name)
	var items []app.UI
	found := false
	for _, o := range opts {
		found = found || o.Value == cur
		items = append(items, app.Option().Value(o.Value).Selected(o.Value == cur).Text(o.Label))
	}
	if !found {
		items = append(items, app.Option().Value(cur).Selected(true).Text("custom: "+cur))
	}
	var in app.UI
	if box {
		in = p.herdInput(name, label)
	}
	return app.Div().Class("field").Body(
		app.Label().For(name).Text(label),
		app.Select().ID(name).OnChange(p.onHerdInput).OnInput(p.onHerdInput).Body(items...),
		in,
		p.fieldError(name+"-value"),
	)
}

func (p *playground) renderHerd() app.UI {
	c := p.st.Herd.Config
	h := &p.herd
	status := ""
	switch {
	case h.err != "":
		status = "The herd cannot run: " + h.err
	case h.running:
		status = "Simulating " + compactCount(float64(c.Clients)) + " clients… " + strconv.Itoa(int(h.progress*100)) + "%"
	case h.res != nil:
		status = "Simulated " + compactCount(float64(h.res.Totals.Clients)) + " clients in " + strconv.FormatFloat(h.ms, 'f', 0, 64) + " ms of your browser's time."
		if h.res.Truncated {
			status += " The run was cut short (horizon or call limit): some clients are unfinished."
		}
	}
	var totals sim.Totals
	if h.res != nil {
		totals = h.res.Totals
	}
	cmpStatus := "Each panel: the same herd, the same seed, only the jitter differs; one scale for all. The outlined one is your policy."
	if h.cmpPending > 0 {
		cmpStatus += " Updating…"
	}
	return app.Div().Class("herd-wrap").Body(
		app.Section().Class("card herd").Aria("label", "The herd").Body(
			app.H2().Text("A herd of clients"),
			app.P().Class("lesson").Text("Clients that failed together retry together: without jitter they come back in synchronized waves and hit the server that is trying to recover. Jitter spreads them out."),
			app.Div().Class("herd-controls").Body(p.herdControls()...),
			app.Div().Class("progress-row").Body(
				app.Progress().ID("herd-progress").Max(1).Value(strconv.FormatFloat(h.progress, 'f', 3, 64)).Hidden(!h.running).Aria("label", "herd simulation progress"),
				app.P().ID("herd-status").Class("status").Aria("live", "polite").Text(status),
			),
			legend(
				"ok", "succeeded (below)",
				"rejected", "rejected (striped, above)",
				"capacity", "capacity",
				"outage", "outage",
			),
			&herdChart{Result: h.res},
			&metricCards{Totals: totals},
		),
		app.Section().Class("card compare").Aria("label", "Compare jitter kinds").Body(
			app.H2().Text("Why jitter: the same herd under each jitter kind"),
			app.P().Class("hint").Text(cmpStatus),
			&compareGrid{Results: h.cmp, Current: p.st.Policy.Jitter.String()},
		),
	)
}

package app

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The topology panel's controls (its controls(), in the panel: a
// component of their own cost app.wasm 20 KB more): they edit the
// herd's topology without its text: the fleet's size, any knob of a node
// (or of every server), and the faults, each naming its node. An edit
// changes the config's document (topology-edit.go) and the page runs
// what it lowers to (an edit); an edit the shorthand cannot run
// (servers that differ, a flush at a server) leaves the config as it was
// and shows the lowering's error beside its control.

// topoControls is the controls' state: the node ("": every server),
// knob and fault kind chosen, and the errors by control group
// ("servers", "knob", "fault").
type topoControls struct {
	node, key, fault string
	errs             map[string]error
}

// edit applies fn to the config's document and sends what it lowers to;
// an error shows beside the group's controls.
func (c *topologyPanel) edit(ctx app.Context, group string, fn func(t *sim.Topology) error) {
	t := c.Config.Topology()
	err := fn(t)
	var ch topologyChange
	if err == nil {
		ch, err = lowerDoc(t, c.Policy)
	}
	if err != nil {
		var fe *backoff.FieldError
		if errors.As(err, &fe) {
			e := *fe
			e.Line = 0 // the document edited is not a text the reader sees
			err = &e
		}
		c.ctl.errs[group] = err
		return
	}
	delete(c.ctl.errs, group)
	ch.send(ctx)
}

func (c *topologyPanel) onAddServer(ctx app.Context, e app.Event) {
	c.edit(ctx, "servers", func(t *sim.Topology) error { t.AddServer(); return nil })
}

func (c *topologyPanel) onRemoveServer(ctx app.Context, e app.Event) {
	c.edit(ctx, "servers", func(t *sim.Topology) error { t.RemoveServer(); return nil })
}

func (c *topologyPanel) onNode(ctx app.Context, e app.Event) {
	c.ctl.node, c.ctl.key = ctx.JSSrc().Get("value").String(), ""
}

func (c *topologyPanel) onKey(ctx app.Context, e app.Event) {
	c.ctl.key = ctx.JSSrc().Get("value").String()
}

func (c *topologyPanel) onSet(ctx app.Context, e app.Event) {
	v := strings.TrimSpace(app.Window().GetElementByID("topology-value").Get("value").String())
	node, key := c.ctl.node, c.ctl.key
	c.edit(ctx, "knob", func(t *sim.Topology) error { t.SetKnob(node, key, v); return nil })
}

func (c *topologyPanel) onFaultKind(ctx app.Context, e app.Event) {
	c.ctl.fault = ctx.JSSrc().Get("value").String()
}

// onFaultNode: the node is read when the fault is added.
func (c *topologyPanel) onFaultNode(ctx app.Context, e app.Event) { ctx.PreventUpdate() }

func (c *topologyPanel) onAddFault(ctx app.Context, e app.Event) {
	val := func(id string) string {
		return strings.TrimSpace(app.Window().GetElementByID(id).Get("value").String())
	}
	text := faultText(c.ctl.fault, i18n.CanonDuration(val("topology-fault-start")), i18n.CanonDuration(val("topology-fault-end")),
		val("topology-fault-node"))
	c.edit(ctx, "fault", func(t *sim.Topology) error {
		t.Faults = append(t.Faults, sim.Setting{Key: sim.ParamFault, Value: text})
		return nil
	})
}

func (c *topologyPanel) onRemoveFault(ctx app.Context, e app.Event) {
	k, _ := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("index").String())
	c.edit(ctx, "fault", func(t *sim.Topology) error {
		if k >= 0 && k < len(t.Faults) {
			t.Faults = append(t.Faults[:k], t.Faults[k+1:]...)
		}
		return nil
	})
}

// chosen are the node and knob the knob's controls show: the choice, or
// the first node and its kind's first key.
func (c *topologyPanel) chosen(t *sim.Topology) (node *sim.Node, key string) {
	node = t.Node(c.ctl.node)
	if node == nil {
		if at := t.ServerNodes(); c.ctl.node == "" && len(at) > 0 {
			node = &t.Nodes[at[0]] // every server: the first's keys
		} else {
			node = &t.Nodes[0]
		}
	}
	keys := sim.NodeKindKeys(node.Kind)
	key = c.ctl.key
	if !func() bool {
		for _, k := range keys {
			if k.Name == key {
				return true
			}
		}
		return false
	}() {
		key = keys[0].Name
	}
	return node, key
}

// faultKinds are the faults the controls add: every kind, those that take
// an argument with a middling one (a typed fault goes in the text).
var faultKinds = []string{"crash", "outage", "stall", "errors:0.5", "slow:5", "capacity:0.5", "flush"}

// tcItem is one control of a row: a select (opts: value, label, ...),
// a typed box (value), or a button (class); the rows are data, made by
// one loop: each go-app call site costs app.wasm bytes.
type tcItem struct {
	id, label string
	h         app.EventHandler
	opts      []string
	value     string
	class     string
}

func tcRow(items ...tcItem) app.UI {
	out := make([]app.UI, len(items))
	for k, it := range items {
		var control app.UI
		switch {
		case it.class != "":
			out[k] = tcButton(it.id, it.class, it.label, it.h)
			continue
		case it.opts != nil:
			opts := make([]app.UI, 0, len(it.opts)/2)
			for i := 0; i+1 < len(it.opts); i += 2 {
				opts = append(opts, app.Option().Value(it.opts[i]).Selected(it.opts[i] == it.value).Text(it.opts[i+1]))
			}
			control = app.Select().ID(it.id).OnChange(it.h).Body(opts...)
		default:
			control = app.Input().Type("text").ID(it.id).Class("value-box").Attr("autocomplete", "off").Attr("spellcheck", "false").Value(it.value)
		}
		out[k] = app.Div().Class("field").Body(app.Label().For(it.id).Text(it.label), control)
	}
	return app.Div().Class("topology-row").Body(out...)
}

func tcButton(id, class, text string, h app.EventHandler) app.HTMLButton {
	return app.Button().ID(id).Type("button").Class(class).OnClick(h).Text(text)
}

func (c *topologyPanel) errLine(l i18n.Lang, group string) app.UI {
	msg := ""
	if err := c.ctl.errs[group]; err != nil {
		msg = topologyErrText(l, err)
	}
	return app.P().ID("topology-"+group+"-error").Class("field-error").Aria("live", "polite").Hidden(msg == "").Text(msg)
}

func (c *topologyPanel) controls() app.UI {
	l := c.Lang
	t := c.Config.Topology()
	if len(t.Nodes) == 0 {
		return nil
	}
	n := len(t.ServerNodes())
	// The knob: a node (or every server), one of its kind's keys, a value.
	node, key := c.chosen(t)
	var nodes, keys, kinds []string
	chosenNode := node.Name
	if n > 1 {
		nodes = append(nodes, "", l.T("topo.every-server"))
		if c.ctl.node == "" {
			chosenNode = ""
		}
	}
	at := []string{"", l.T("topo.every-server")}
	for _, nd := range t.Nodes {
		title := l.F("node.title", nd.Name, l.T("node."+nd.Kind))
		nodes = append(nodes, nd.Name, title)
		if sim.Aimable(nd.Kind) {
			at = append(at, nd.Name, title)
		}
	}
	for _, k := range sim.NodeKindKeys(node.Kind) {
		keys = append(keys, k.Name, knobLabel(l, k.Name))
	}
	value := ""
	if s := node.Get(key); s != nil {
		value = s.Value
		if s.List != nil {
			value = strings.Join(s.List, ",")
		}
	}
	for _, k := range faultKinds {
		name, arg, _ := strings.Cut(k, ":")
		if f, err := strconv.ParseFloat(arg, 64); err == nil {
			arg = " (" + l.Num(f) + ")" // 0,5 in Russian
		} else if arg != "" {
			arg = " (" + arg + ")"
		}
		kinds = append(kinds, k, l.T("fault."+name)+arg)
	}
	// The faults, each with its remove button.
	faults := make([]app.UI, len(t.Faults))
	for i, f := range t.Faults {
		faults[i] = app.Li().Body(app.Code().Text(f.Value+" "),
			tcButton("topology-fault-remove-"+strconv.Itoa(i), "secondary small", l.T("topo.remove"), c.onRemoveFault).
				DataSet("index", i).Aria("label", l.F("topo.fault-remove", f.Value)))
	}
	return app.Div().ID("topology-controls").Class("topology-controls").Body(
		app.H4().Text(l.T("topo.controls")),
		app.Div().Class("take-away").Body(
			app.Span().ID("topology-servers").Text(l.F("topo.servers", l.Int(int64(n)))),
			tcButton("topology-server-add", "secondary small", l.T("topo.server-add"), c.onAddServer),
			tcButton("topology-server-remove", "secondary small", l.T("topo.server-remove"), c.onRemoveServer).Disabled(n < 2),
		),
		c.errLine(l, "servers"),
		tcRow(tcItem{id: "topology-node", label: l.T("topo.node"), h: c.onNode, opts: nodes, value: chosenNode},
			tcItem{id: "topology-key", label: l.T("topo.key"), h: c.onKey, opts: keys, value: key},
			tcItem{id: "topology-value", label: l.T("topo.value"), value: value},
			tcItem{id: "topology-set", label: l.T("topo.set"), h: c.onSet, class: "small"}),
		c.errLine(l, "knob"),
		app.Ul().ID("topology-faults").Class("topology-faults").Body(faults...),
		tcRow(tcItem{id: "topology-fault-kind", label: l.T("topo.fault-kind"), h: c.onFaultKind, opts: kinds, value: c.ctl.fault},
			tcItem{id: "topology-fault-start", label: l.T("topo.fault-start"), value: l.Duration(10*time.Second, "10s")},
			tcItem{id: "topology-fault-end", label: l.T("topo.fault-end"), value: l.Duration(20*time.Second, "20s")},
			tcItem{id: "topology-fault-node", label: l.T("topo.fault-node"), h: c.onFaultNode, opts: at},
			tcItem{id: "topology-fault-add", label: l.T("topo.fault-add"), h: c.onAddFault, class: "small"}),
		c.errLine(l, "fault"),
	)
}

// knobAliases pair the node keys whose herd label is named apart from
// them with that name (workers is the concurrency); another key's label
// is herd.KEY's.
var knobAliases = []string{"model", "server", "workers", "concurrency", "rule", "balance", "keys", "cache-keys",
	"ttl", "cache-ttl", "start", "cache-start", "zipf", "cache-zipf", "timeout", "layer-timeout", "retry.attempts", "layer-attempts",
	"collapse-factor", "collapse", "retry-after-s", "retry-after"}

// knobParam is the herd parameter a node key stands for.
func knobParam(key string) string {
	for i := 0; i+1 < len(knobAliases); i += 2 {
		if knobAliases[i] == key {
			return knobAliases[i+1]
		}
	}
	return key
}

// knobLabel is a node key as the page names it in l: topo.key.KEY's
// label, else its herd parameter's, else the key.
func knobLabel(l i18n.Lang, key string) string {
	for _, k := range []string{"topo.key." + key, "herd." + knobParam(key)} {
		if lbl := l.T(k); lbl != k {
			return lbl
		}
	}
	return key
}

// knobText is a node's key and value as the page shows them in l: the
// key's label and the value worded as the herd's selects word it.
func knobText(l i18n.Lang, key, v string) string {
	return l.F("topo.key-option", knobLabel(l, key), herdLabel(l, knobParam(key), v, ""))
}

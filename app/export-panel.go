package app

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The export panel: the current policy as a ready snippet for a real
// library, with what the library cannot express said as warnings in the
// page's language. The snippets come from the server's /export, which runs
// app/export (the code of the CLI's backoff export): compiled into the page
// they would cost app.wasm about 34 KB of its budget. A static host has no
// /export (answer.host tells its answer from the server's); the panel then
// says to use the CLI.

// exportTargets are the libraries, by the names /export and --to take,
// in the export package's display order. The server passes them to the
// page (NewHandler's Env), so that the page does not link the exporters;
// natively they are the registry's own (handler.go).
var exportTargets = strings.Split(app.Getenv(envExportTargets), ",")

// envExportTargets is the page's environment key of exportTargets.
const envExportTargets = "EXPORT_TARGETS"

// exportReply is /export's answer, the CLI's --format json.
type exportReply struct {
	Target   string `json:"target"`
	Snippet  string `json:"snippet"`
	Warnings []struct {
		Code string   `json:"code"`
		Args []string `json:"args"`
	} `json:"warnings"`
}

// exportState is the panel's last answer (for which query) or why there
// is none; whether it shows, and for which library, is the state's
// (state.Export: the link keeps it).
type exportState struct {
	query string
	reply *exportReply
	err   string // a catalog key
}

// presetTargets are the libraries of the presets that have one: the
// Export panel opens on the preset's own system (by name prefix).
var presetTargets = []struct{ prefix, to string }{
	{"aws-standard", "go-aws"}, {"aws-legacy", "go-aws"}, {"grpc-retry", "grpc-json"},
	{"cenkalti", "go-cenkalti"}, {"envoy", "envoy-yaml"}, {"polly", "polly"}, {"tenacity", "tenacity"},
}

// exportTargetFor is the library the Export panel opens on for a preset:
// its own system's when there is one, else the first.
func exportTargetFor(preset string) string {
	for _, t := range presetTargets {
		if strings.HasPrefix(preset, t.prefix) {
			return t.to
		}
	}
	return exportTargets[0]
}

// exportPanel is the Export panel, a component: it asks the server for
// the snippet of the policy (Query) in the library (Target) whenever they
// change, and keeps the answer. The library chosen goes to the page (the
// link keeps it) as an edit; a copy as actCopy; what the answers tell
// of the server to go-app's state stateServer.
type exportPanel struct {
	app.Compo

	Lang   i18n.Lang
	Target string // "": the panel is closed
	Query  string // the policy's content, as a link's query

	exp  exportState
	ctx  app.Context
	live bool // mounted: the browser's fetch is there
}

func (c *exportPanel) OnMount(ctx app.Context) {
	c.ctx, c.live = ctx, true
	c.fetch()
}

func (c *exportPanel) OnUpdate(ctx app.Context) { c.fetch() }

func (c *exportPanel) onTo(ctx app.Context, e app.Event) {
	sendEdit(ctx, choose(func(st *state) *string { return &st.Export }, ctx.JSSrc().Get("value").String(), exportTargets))
}

func (c *exportPanel) onCopy(ctx app.Context, e app.Event) {
	if r := c.exp.reply; r != nil {
		ctx.NewActionWithValue(actCopy, copyRequest{r.Snippet, "copy.export-done", "copy.manual-text"})
	}
}

// fetch asks the server for the snippet, unless the panel already has it
// (a busy server is asked again).
func (c *exportPanel) fetch() {
	if c.Target == "" || !c.live {
		return
	}
	q := url.Values{"to": {c.Target}}.Encode() + "&" + c.Query
	if q == c.exp.query && (c.exp.reply != nil || c.exp.err != "" && c.exp.err != "export.busy") {
		return
	}
	c.exp.query, c.exp.reply, c.exp.err = q, nil, ""
	ctx := c.ctx
	// The browser's fetch, not net/http's client: that client would add
	// 800 KB to app.wasm.
	fetchAnswer("export?"+q, func(a answer) {
		ctx.Dispatch(func(ctx app.Context) {
			serverSays(ctx, a)
			if c.exp.query != q {
				return // a newer request is on its way
			}
			var r exportReply
			switch {
			case a.status == 0:
				c.exp.err = "export.offline"
			case a.host() == serverNone:
				c.exp.err = "export.static"
			case a.status == 503: // Retry-After: the server makes a few at a time
				c.exp.err = "export.busy"
			case a.status != 200 || json.Unmarshal([]byte(a.body), &r) != nil:
				c.exp.err = "export.failed"
			default:
				c.exp.reply = &r
			}
		})
	})
}

// warningText words an export warning in l: kind names by their labels,
// fields by their names, numbers and durations in l's format.
func warningText(l i18n.Lang, code string, args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case code == "cap-mode":
			out[i] = kindLabel(l, "cap-mode", a)
		case code == "retry-after":
			out[i] = kindLabel(l, "retry-after", a)
		case code == "growth" && i == 0:
			out[i] = kindLabel(l, "growth", a)
		case (code == "range" || code == "dropped") && i == 0:
			out[i] = fieldName(l, a)
		case code == "jitter":
			out[i] = a // formulas over d, the same in every language
		default:
			out[i] = valueArg(l, a)
		}
	}
	return l.F("export.warn."+code, out...)
}

// kindLabel is a kind's label in l, or the name as given when the catalog
// has none.
func kindLabel(l i18n.Lang, family, name string) string {
	if k := family + "." + name; l.T(k) != k {
		return l.T(k)
	}
	return name
}

// newExportPanel is the page's Export panel.
// The policy's query is written only while the panel is open: the page
// renders on every slider move.
func newExportPanel(v pageView) app.UI {
	c := &exportPanel{Lang: v.lang, Target: v.st.Export}
	if c.Target != "" {
		st := v.st.content()
		c.Query = st.query()
	}
	return c
}

func (c *exportPanel) Render() app.UI {
	l := c.Lang
	if c.Target == "" {
		return app.Div().ID("export-panel").Hidden(true)
	}
	opts := make([]app.UI, len(exportTargets))
	for i, t := range exportTargets {
		opts[i] = app.Option().Value(t).Selected(t == c.Target).Text(l.T("export.to." + t))
	}
	var body []app.UI
	switch r := c.exp.reply; {
	case c.exp.err != "":
		body = append(body, app.P().ID("export-status").Class("error").Text(l.T(c.exp.err)))
	case r == nil:
		body = append(body, app.P().ID("export-status").Class("hint").Text(l.T("export.loading")))
	default:
		warns := make([]app.UI, len(r.Warnings))
		for i, w := range r.Warnings {
			warns[i] = app.Li().DataSet("code", w.Code).Text(warningText(l, w.Code, w.Args))
		}
		status := l.T("export.exact")
		if len(warns) > 0 {
			status = l.T("export.inexact")
		}
		body = append(body,
			app.P().ID("export-status").Class("hint").Text(status),
			app.Ul().ID("export-warnings").Class("warnings").Body(warns...),
			app.Textarea().ID("export-code").Class("code").Aria("label", l.T("export.head")).ReadOnly(true).Rows(min(24, copyRows(r.Snippet)+16)).
				Attr("spellcheck", "false").Text(r.Snippet),
			app.Button().ID("export-copy").Type("button").Class("secondary small").OnClick(c.onCopy).Text(l.T("export.copy")),
		)
	}
	return app.Section().ID("export-panel").Class("card export-panel").Aria("label", l.T("export.head")).Body(
		append([]app.UI{
			app.H2().Text(l.T("export.head")),
			app.Div().Class("field").Body(
				app.Label().For("export-to").Text(l.T("export.to")),
				app.Select().ID("export-to").OnChange(c.onTo).Body(opts...),
			),
		}, body...)...,
	)
}

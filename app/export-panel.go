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
// /export; the panel then says to use the CLI.

// exportTargets are the libraries, by the names /export and --to take.
var exportTargets = []string{"go-cenkalti", "go-aws", "grpc-json", "envoy-yaml", "polly", "tenacity", "resilience4j"}

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

func (p *playground) onExport(ctx app.Context, e app.Event) {
	if p.st.Export != "" {
		p.st.Export = ""
	} else {
		p.st.Export = exportTargetFor(p.st.Preset)
	}
	p.fetchExport(ctx)
	p.urlPush = true
	p.writeURL(ctx)
}

func (p *playground) onExportInput(ctx app.Context, e app.Event) {
	switch ctx.JSSrc().Get("id").String() {
	case "export-to":
		if v := ctx.JSSrc().Get("value").String(); contains(exportTargets, v) && v != p.st.Export {
			p.st.Export = v
			p.fetchExport(ctx)
			p.urlPush = true
			p.writeURL(ctx)
		}
	case "export-copy":
		if r := p.exp.reply; r != nil {
			p.copyOut(ctx, r.Snippet, "copy.export-done", "copy.manual-text")
		}
	}
}

// fetchExport asks the server for the snippet of the current policy, unless
// the panel already has it.
func (p *playground) fetchExport(ctx app.Context) {
	if p.st.Export == "" || !p.mounted {
		return
	}
	st := p.st.content()
	q := url.Values{"to": {p.st.Export}}.Encode() + "&" + st.query()
	if q == p.exp.query && (p.exp.reply != nil || p.exp.err != "" && p.exp.err != "export.busy") {
		return // a busy server is asked again
	}
	p.exp.query, p.exp.reply, p.exp.err = q, nil, ""
	ctx = p.own(ctx)
	// The browser's fetch, not net/http's client: that client would add
	// 800 KB to app.wasm.
	done := func(errKey, body string) {
		ctx.Dispatch(func(ctx app.Context) {
			if p.exp.query != q {
				return // a newer request is on its way
			}
			var r exportReply
			if errKey == "" && json.Unmarshal([]byte(body), &r) != nil {
				errKey = "export.failed"
			}
			if errKey != "" {
				p.exp.err = errKey
				return
			}
			p.exp.reply = &r
		})
	}
	var onRes, onText, onFail app.Func
	release := func() { onRes.Release(); onText.Release(); onFail.Release() }
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		done("export.offline", "")
		return nil
	})
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		done("", args[0].String())
		return nil
	})
	onRes = app.FuncOf(func(this app.Value, args []app.Value) any {
		res := args[0]
		code := res.Get("status").Int()
		ctx.Dispatch(func(ctx app.Context) { p.serverSays(code) })
		switch st := code; {
		case st == 404:
			release()
			done("export.static", "")
		case st == 503: // Retry-After: the server makes a few at a time
			release()
			done("export.busy", "")
		case st != 200:
			release()
			done("export.failed", "")
		default:
			res.Call("text").Call("then", onText, onFail)
		}
		return nil
	})
	app.Window().Call("fetch", "export?"+q).Call("then", onRes, onFail)
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

func (p *playground) renderExportPanel(l i18n.Lang) app.UI {
	if p.st.Export == "" {
		return app.Div().ID("export-panel").Hidden(true)
	}
	opts := make([]app.UI, len(exportTargets))
	for i, t := range exportTargets {
		opts[i] = app.Option().Value(t).Selected(t == p.st.Export).Text(l.T("export.to." + t))
	}
	var body []app.UI
	switch r := p.exp.reply; {
	case p.exp.err != "":
		body = append(body, app.P().ID("export-status").Class("error").Text(l.T(p.exp.err)))
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
			app.Button().ID("export-copy").Type("button").Class("secondary small").OnClick(p.onExportInput).Text(l.T("export.copy")),
		)
	}
	return app.Section().ID("export-panel").Class("card export-panel").Aria("label", l.T("export.head")).Body(
		append([]app.UI{
			app.H2().Text(l.T("export.head")),
			app.Div().Class("field").Body(
				app.Label().For("export-to").Text(l.T("export.to")),
				app.Select().ID("export-to").OnChange(p.onExportInput).Body(opts...),
			),
		}, body...)...,
	)
}

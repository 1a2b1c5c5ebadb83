package app

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff/importer/wire"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The import panel: a pasted retry config (a tenacity decorator, a gRPC
// service config, an Envoy route...) read in the page itself, what was
// read shown line by line, and the policy loaded. The link then holds the
// policy's parameters, never the pasted text. The readers (and their YAML
// parser) are a program of their own, web/import.wasm, loaded the first
// time a text is read (readImport): in app.wasm they cost every visitor
// about 110 KB over the wire; a server round trip, as the export panel
// makes, would leave a static copy without the panel.

// importState is the panel's last reading, or why there is none, and
// the text read (the pick select reads another policy of it).
type importState struct {
	res  *wire.Result
	err  error
	text string
	// loading: the readers' program is being fetched for text.
	loading bool
}

// importPanel is the import panel, a component: it reads what is pasted
// and keeps the reading; a policy read goes to the page as an edit.
type importPanel struct {
	app.Compo

	Lang i18n.Lang
	Open bool

	st importState
}

// onApply reads the pasted text and, when it holds a policy, sends it to
// the page.
func (c *importPanel) onApply(ctx app.Context, e app.Event) {
	text := app.Window().GetElementByID("import-text").Get("value").String()
	c.st = importState{}
	if strings.TrimSpace(text) == "" {
		c.st.err = errImportEmpty
		return
	}
	c.read(ctx, text, "")
}

// read reads the policy pick of text (the first for "") and, when there
// is one, sends it to the page.
func (c *importPanel) read(ctx app.Context, text, pick string) {
	c.st = importState{text: text, loading: true}
	readImport(ctx, text, pick, func(res *wire.Result, err error) {
		if c.st.text != text || !c.st.loading {
			return // another reading came since
		}
		c.st = importState{res: res, err: err, text: text}
		if err == nil {
			sendEdit(ctx, imported(res))
		}
	})
}

// onPick reads the policy chosen in the select, of the text last read.
func (c *importPanel) onPick(ctx app.Context, e app.Event) {
	if i, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && c.st.text != "" {
		c.read(ctx, c.st.text, strconv.Itoa(i+1))
	}
}

// imported loads a policy read as an edit of the page (a history entry,
// so Back undoes it); the panels show the policy (and budget) read.
func imported(res *wire.Result) edit {
	return edit{set: func(st *state) bool {
		st.Preset, st.Policy = "", res.Policy
		importBudget(&st.Herd, res)
		return true
	}, rerun: true, push: true, replace: true}
}

var errImportEmpty = errors.New("nothing pasted")

// importBudget makes a read retry budget (gRPC's retryThrottling) the
// herd's, when the simulator has that kind of budget; else the herd
// keeps its own and the reading's note says the table does not draw it.
func importBudget(h *herdState, res *wire.Result) bool {
	b := res.BudgetFlag()
	if b == "" {
		return false
	}
	c := h.Config
	if c.Set(sim.ParamBudget, b) != nil || c.Validate() != nil {
		return false
	}
	h.Config = c
	return true
}

// importStatus words the reading, or why there is none, in l.
func importStatus(l i18n.Lang, st importState) (string, bool) {
	var np *wire.NoPolicyError
	var tl *wire.TooLongError
	var re *wire.RefusedError
	switch err := st.err; {
	case st.loading:
		return l.T("import.loading"), true
	case errors.As(err, new(importLoadError)):
		return l.F("import.load-failed", errText(l, errors.Unwrap(err), "")), false
	case err == nil && st.res == nil:
		return importHint(l), true
	case err == nil:
		return l.F("import.done", st.res.Format, describe(l, st.res.Policy)), true
	case errors.Is(err, errImportEmpty):
		return l.T("import.empty"), false
	case errors.As(err, &np):
		return l.F("import.none", strings.Join(np.Formats, ", ")), false
	case errors.As(err, &tl):
		return l.F("import.too-long", l.Int(int64(tl.Len)), kilobytes(l, tl.Len), l.Int(wire.MaxInput), kilobytes(l, wire.MaxInput)), false
	case errors.As(err, &re):
		return l.F("import.refused."+re.Reason, re.Syntax, l.Int(int64(re.Limit))), false
	}
	return l.F("import.invalid", errText(l, st.err, "")), false
}

// kilobytes is n bytes in kilobytes of 1,024 bytes, to a tenth: 300 KB.
func kilobytes(l i18n.Lang, n int) string {
	return l.F("import.kb", l.Float(math.Round(float64(n)/1024*10)/10, -1))
}

// importNote words an import warning in l.
func importNote(l i18n.Lang, w wire.Warning) string {
	args := append([]string(nil), w.Args...)
	switch w.Code {
	case wire.CodeIgnored:
		if len(args) == 2 {
			args[1] = l.T("import.reason." + args[1])
		}
	case wire.CodeRange:
		if len(args) == 3 {
			args[2] = valueArg(l, args[2])
		}
	case wire.CodeRounding, wire.CodeDeadlineTimeout, wire.CodeThrottleBase, wire.CodeCapDrawn:
		for i := range args {
			args[i] = valueArg(l, args[i])
		}
	case wire.CodeNotInText:
		if len(args) == 2 {
			args[1] = valueArg(l, args[1])
		}
	case wire.CodeParamDefault:
		if len(args) == 3 {
			args[1] = importFunc(l, args[1])
		}
	}
	s := l.F("import.warn."+w.Code, args...)
	if w.Line > 0 {
		s = l.F("import.line", strconv.Itoa(w.Line)) + ": " + s
	}
	return s
}

// importFunc names a function in l: f(), or an anonymous one.
func importFunc(l i18n.Lang, name string) string {
	if name == "" {
		return l.T("import.func-anon")
	}
	return l.F("import.func", name)
}

// pickSelect is the choice among the policies of a text that holds
// several: shown only then.
func (c *importPanel) pickSelect(l i18n.Lang, r *wire.Result) app.UI {
	opts := make([]app.UI, len(r.Candidates))
	for i, cd := range r.Candidates {
		n := strconv.Itoa(i + 1)
		label := l.F("import.pick-unnamed", n, cd.Format, strconv.Itoa(cd.Line))
		if cd.Name != "" {
			label = l.F("import.pick-named", n, cd.Name, cd.Format, strconv.Itoa(cd.Line))
		}
		o := app.Option().Value(strconv.Itoa(i)).Text(label)
		if i == r.Pick {
			o = o.Selected(true)
		}
		opts[i] = o
	}
	return app.Div().Class("field").Body(
		app.Label().For("import-pick").Text(l.T("import.pick")),
		app.Select().ID("import-pick").OnChange(c.onPick).Body(opts...),
	)
}

func (c *importPanel) Render() app.UI {
	l := c.Lang
	if !c.Open {
		return app.Div().ID("import-panel").Hidden(true)
	}
	status, ok := importStatus(l, c.st)
	cls := "hint"
	if !ok {
		cls = "error"
	}
	body := []app.UI{
		app.H2().Text(l.T("import.head")),
		app.Div().Class("field").Body(
			app.Label().For("import-text").Text(l.T("import.text")),
			app.Textarea().ID("import-text").Class("code").Rows(10).Attr("spellcheck", "false").
				Aria("describedby", "import-status"),
		),
		app.Button().ID("import-apply").Type("button").Class("small").OnClick(c.onApply).Text(l.T("import.apply")),
		app.P().ID("import-status").Class(cls).Aria("live", "polite").Text(status),
	}
	if r := c.st.res; r != nil && len(r.Candidates) > 1 {
		body = append(body, c.pickSelect(l, r))
	}
	if r := c.st.res; r != nil {
		read := make([]app.UI, len(r.Settings))
		for i, s := range r.Settings {
			where := l.T("import.default")
			if !s.Default {
				where = l.F("import.line", strconv.Itoa(s.Line))
			}
			read[i] = app.Li().DataSet("line", s.Line).Body(
				app.Span().Class("where").Text(where+": "),
				app.Code().Text(s.Key+" = "+s.Value),
			)
		}
		body = append(body,
			app.H3().Text(l.T("import.read-head")),
			app.Ul().ID("import-read").Class("import-read").Body(read...),
			app.P().Class("hint").Text(l.F("import.source", r.Source)),
		)
		if len(r.Warnings) > 0 {
			notes := make([]app.UI, len(r.Warnings))
			for i, w := range r.Warnings {
				notes[i] = app.Li().DataSet("code", w.Code).Text(importNote(l, w))
			}
			body = append(body, app.H3().Text(l.T("import.notes-head")), app.Ul().ID("import-notes").Class("warnings").Body(notes...))
		}
	}
	return app.Section().ID("import-panel").Class("card import-panel").Aria("label", l.T("import.head")).Body(body...)
}

// importHint names every format the importer reads, in its documented
// order, as the catalog words each one.
func importHint(l i18n.Lang) string {
	names := importFormats
	words := make([]string, len(names))
	for i, n := range names {
		words[i] = l.T("import.format." + n)
	}
	last := len(words) - 1
	return l.F("import.hint", l.F("list.or", strings.Join(words[:last], ", "), words[last]))
}

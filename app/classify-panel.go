package app

import (
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The classification panel: a failed call in (status, method, idempotency
// key, headers, body), the core's verdict out, worded in the page's
// language. The backoff answers "when"; this answers "whether".

// classifyInput is what the panel's fields hold, as typed, and the rules
// it classifies by ("" the article's): URL state, keys "c." + name.
type classifyInput struct {
	Status, Method, Key, Headers, Body, Rules string
}

// classifyKeys are the panel's URL keys, in order.
var classifyKeys = []string{"c.status", "c.method", "c.key", "c.headers", "c.body", "c.rules"}

// fields are the input's values in classifyKeys' order, to read and write.
func (in *classifyInput) fields() []*string {
	return []*string{&in.Status, &in.Method, &in.Key, &in.Headers, &in.Body, &in.Rules}
}

// classifyCases are the article's cases, one click each: the catalog key of
// the button, the call, and its body as a Russian service would write it
// (the classifier reads both languages).
var classifyCases = []struct {
	key    string
	in     classifyInput
	bodyRu string
}{
	{"classify.case-503", classifyInput{Status: "503", Method: "GET"}, ""},
	{"classify.case-429", classifyInput{Status: "429", Method: "GET", Headers: "Retry-After: 5"}, ""},
	{"classify.case-400-body", classifyInput{Status: "400", Method: "GET", Body: `{"error": "service temporarily unavailable"}`},
		`{"error": "сервис временно недоступен"}`},
	{"classify.case-401-token", classifyInput{Status: "401", Method: "GET", Body: `{"error": "token expired"}`},
		`{"error": "токен истёк"}`},
	{"classify.case-post", classifyInput{Status: "503", Method: "POST"}, ""},
	{"classify.case-post-key", classifyInput{Status: "503", Method: "POST", Key: "order-42"}, ""},
	{"classify.case-404", classifyInput{Status: "404", Method: "GET"}, ""},
	{"classify.case-timeout", classifyInput{Status: "0", Method: "GET"}, ""},
}

// classifyMethods are the method select's entries.
var classifyMethods = []string{"GET", "HEAD", "PUT", "DELETE", "POST", "PATCH", "OPTIONS"}

// classify runs the core's classifier on the input; err is the first field
// that could not be read.
func classify(in classifyInput) (backoff.Verdict, error) {
	rules := backoff.DefaultRules()
	if in.Rules != "" {
		set, err := backoff.LookupRules(in.Rules)
		if err != nil {
			return backoff.Verdict{}, err
		}
		rules = set.Rules
	}
	st, err := backoff.ParseStatus("classify-status", in.Status)
	if err != nil {
		return backoff.Verdict{}, err
	}
	h, err := backoff.ParseHeaderLines("classify-headers", strings.Split(in.Headers, "\n"))
	if err != nil {
		return backoff.Verdict{}, err
	}
	// A Retry-After date is read against the page's clock: the one place
	// the classifier needs a now, and the panel's alone.
	return backoff.Classify(backoff.Call{Method: in.Method, IdempotencyKey: strings.TrimSpace(in.Key), Status: st,
		Header: h, Body: in.Body, Now: time.Now()}, rules), nil
}

func (p *playground) renderClassify(l i18n.Lang) app.UI {
	in := p.st.Cls
	v, err := classify(in)
	var verdict app.UI
	if err != nil {
		verdict = app.P().ID("classify-verdict").Class("verdict error").DataSet("retry", "").Text(errText(l, err, ""))
	} else {
		cls := "verdict no-retry"
		if v.Retry {
			cls = "verdict retry"
		}
		verdict = app.P().ID("classify-verdict").Class(cls).DataSet("retry", boolText(v.Retry)).Body(
			app.Strong().Text(l.T(verdictKey(v))),
			app.Text(": "+verdictReason(l, v)),
		)
	}
	cases := make([]app.UI, len(classifyCases))
	for i, c := range classifyCases {
		cases[i] = app.Button().Type("button").Class("secondary case").DataSet("case", i).OnClick(p.onClassifyCase).Text(l.T(c.key))
	}
	methods := make([]app.UI, len(classifyMethods))
	for i, m := range classifyMethods {
		methods[i] = app.Option().Value(m).Selected(m == strings.ToUpper(in.Method)).Text(m)
	}
	field := func(id, label string, control app.UI) app.UI {
		return app.Div().Class("field").Body(app.Label().For(id).Text(label), control)
	}
	return app.Section().ID("classify").Class("card classify").Aria("label", l.T("classify.head")).Body(
		p.cardHead(2, l.T("classify.head")),
		app.P().Class("lesson").Text(l.T("classify.lesson")),
		app.Div().Class("cases").Body(cases...),
		app.Div().Class("classify-fields").Body(
			field("classify-status", l.T("classify.status"), app.Input().Type("text").ID("classify-status").Class("value-box").
				Attr("inputmode", "numeric").Value(in.Status).OnInput(p.onClassifyInput)),
			field("classify-method", l.T("classify.method"), app.Select().ID("classify-method").OnChange(p.onClassifyInput).Body(methods...)),
			field("classify-key", l.T("classify.key"), app.Input().Type("text").ID("classify-key").Class("value-box").
				Attr("autocomplete", "off").Value(in.Key).OnInput(p.onClassifyInput)),
			field("classify-rules", l.T("classify.rules"), app.Select().ID("classify-rules").OnChange(p.onClassifyInput).Body(rulesOpts(l, in.Rules)...)),
		),
		field("classify-headers", l.T("classify.headers"), app.Textarea().ID("classify-headers").Rows(2).
			Attr("spellcheck", "false").Placeholder("Retry-After: 5").Text(in.Headers).OnInput(p.onClassifyInput)),
		field("classify-body", l.T("classify.body"), app.Textarea().ID("classify-body").Rows(3).
			Attr("spellcheck", "false").Text(in.Body).OnInput(p.onClassifyInput)),
		verdict,
		p.renderLinkNote(l),
	)
}

// renderLinkNote says which fields links to the page leave out, being too
// long to read back whole (see state.link).
func (p *playground) renderLinkNote(l i18n.Lang) app.UI {
	_, left := p.st.link()
	if len(left) == 0 {
		return app.Ul().ID("classify-link-note").Hidden(true)
	}
	items := make([]app.UI, len(left))
	for i, key := range left {
		label := l.T("classify." + strings.TrimPrefix(key, "c."))
		items[i] = app.Li().Text(l.F("classify.not-in-link", label, l.Int(maxFieldLen), l.Int(maxQueryLen)))
	}
	return app.Ul().ID("classify-link-note").Class("notes link-note").Role("status").Body(items...)
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// onClassifyInput reads the field that changed; the verdict follows at
// once (the classifier reads at most backoff.MaxBody of a body).
func (p *playground) onClassifyInput(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	v := src.Get("value").String()
	switch src.Get("id").String() {
	case "classify-status":
		p.st.Cls.Status = v
	case "classify-method":
		p.st.Cls.Method = v
	case "classify-key":
		p.st.Cls.Key = v
	case "classify-headers":
		p.st.Cls.Headers = v
	case "classify-body":
		p.st.Cls.Body = v
	case "classify-rules":
		p.st.Cls.Rules = v
		if v == "article" {
			p.st.Cls.Rules = ""
		}
	}
	p.writeURL(ctx)
}

// onClassifyCase fills the fields with one of the article's cases. The
// textareas' values are set directly: go-app renders a textarea's text
// once, as its content, and a typed textarea keeps its own value.
func (p *playground) onClassifyCase(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("case").String())
	if err != nil {
		return
	}
	if i < 0 || i >= len(classifyCases) {
		return
	}
	rules := p.st.Cls.Rules
	p.st.Cls = classifyCases[i].in
	p.st.Cls.Rules = rules
	p.urlPush = true
	p.writeURL(ctx)
	if c := classifyCases[i]; p.lang() == i18n.Ru && c.bodyRu != "" {
		p.st.Cls.Body = c.bodyRu
	}
	for id, v := range map[string]string{"classify-headers": p.st.Cls.Headers, "classify-body": p.st.Cls.Body,
		"classify-status": p.st.Cls.Status, "classify-key": p.st.Cls.Key} {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Set("value", v)
		}
	}
}

// rulesOpts are the rule sets' entries, the article's first.
func rulesOpts(l i18n.Lang, cur string) []app.UI {
	var out []app.UI
	for _, set := range backoff.RuleSets() {
		sel := set.Name == cur || cur == "" && set.Name == "article"
		out = append(out, app.Option().Value(set.Name).Selected(sel).Text(l.T("classify.rules."+set.Name)))
	}
	return out
}

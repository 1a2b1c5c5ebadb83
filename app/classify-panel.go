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

// classifyPanel is the classification panel, a component of its own: it
// owns its fields as typed and tells the page of each change (the action
// an edit) for the link. It takes the link's call (Link) only when the
// page replaces its state from outside (stateLink: a link, Back, a
// lesson's setup), never on the page's other renders: a fast typist's next key can
// come before the page has handled the last one, and the page's copy would
// then write an older value into the box.
type classifyPanel struct {
	app.Compo

	Lang  i18n.Lang
	Alone bool // an embedded view: the heading is the page's h1
	Link  classifyInput
	// LeftOut are the URL keys links to the page leave out (see
	// state.link), worded under the fields.
	LeftOut []string

	in classifyInput
	linked
}

func (c *classifyPanel) OnInit() { c.in = c.Link }

func (c *classifyPanel) OnMount(ctx app.Context) { c.observe(ctx, c.take) }

// take takes the call of a state the page replaced its own with.
func (c *classifyPanel) take(st *state) {
	c.in = st.Cls
	c.setTexts()
}

// newClassifyCard is the page's classification panel.
func newClassifyCard(v pageView) app.UI {
	_, left := v.st.link()
	return &classifyPanel{Lang: v.lang, Alone: v.alone(), Link: v.st.Cls, LeftOut: left}
}

func (c *classifyPanel) Render() app.UI {
	l, in := c.Lang, c.in
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
	for i, cs := range classifyCases {
		cases[i] = app.Button().Type("button").Class("secondary case").DataSet("case", i).OnClick(c.onCase).Text(l.T(cs.key))
	}
	methods := make([]app.UI, len(classifyMethods))
	for i, m := range classifyMethods {
		methods[i] = app.Option().Value(m).Selected(m == strings.ToUpper(in.Method)).Text(m)
	}
	field := func(id, label string, control app.UI) app.UI {
		return app.Div().Class("field").Body(app.Label().For(id).Text(label), control)
	}
	return app.Section().ID("classify").Class("card classify").Aria("label", l.T("classify.head")).Body(
		cardHead(c.Alone, 2, l.T("classify.head")),
		app.P().Class("lesson").Text(l.T("classify.lesson")),
		app.Div().Class("cases").Body(cases...),
		app.Div().Class("classify-fields").Body(
			field("classify-status", l.T("classify.status"), app.Input().Type("text").ID("classify-status").Class("value-box").
				Attr("inputmode", "numeric").Value(in.Status).OnInput(c.onStatus)),
			field("classify-method", l.T("classify.method"), app.Select().ID("classify-method").OnChange(c.onMethod).Body(methods...)),
			field("classify-key", l.T("classify.key"), app.Input().Type("text").ID("classify-key").Class("value-box").
				Attr("autocomplete", "off").Value(in.Key).OnInput(c.onKey)),
			field("classify-rules", l.T("classify.rules"), app.Select().ID("classify-rules").OnChange(c.onRules).Body(rulesOpts(l, in.Rules)...)),
		),
		field("classify-headers", l.T("classify.headers"), app.Textarea().ID("classify-headers").Rows(2).
			Attr("spellcheck", "false").Placeholder("Retry-After: 5").Text(in.Headers).OnInput(c.onHeaders)),
		field("classify-body", l.T("classify.body"), app.Textarea().ID("classify-body").Rows(3).
			Attr("spellcheck", "false").Text(in.Body).OnInput(c.onBody)),
		verdict,
		linkNote(l, c.LeftOut),
	)
}

// linkNote says which fields links to the page leave out, being too long
// to read back whole.
func linkNote(l i18n.Lang, left []string) app.UI {
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

// Each field's handler sets its field; the verdict follows at once (the
// classifier reads at most backoff.MaxBody of a body).
func (c *classifyPanel) onStatus(ctx app.Context, e app.Event)  { c.set(ctx, &c.in.Status) }
func (c *classifyPanel) onMethod(ctx app.Context, e app.Event)  { c.set(ctx, &c.in.Method) }
func (c *classifyPanel) onKey(ctx app.Context, e app.Event)     { c.set(ctx, &c.in.Key) }
func (c *classifyPanel) onHeaders(ctx app.Context, e app.Event) { c.set(ctx, &c.in.Headers) }
func (c *classifyPanel) onBody(ctx app.Context, e app.Event)    { c.set(ctx, &c.in.Body) }

// onRules takes the rules chosen; the article's are the default ("",
// set).
func (c *classifyPanel) onRules(ctx app.Context, e app.Event) { c.set(ctx, &c.in.Rules) }

// set stores the control's value in field and sends the call on.
func (c *classifyPanel) set(ctx app.Context, field *string) {
	*field = ctx.JSSrc().Get("value").String()
	if field == &c.in.Rules && *field == "article" {
		*field = ""
	}
	c.send(ctx, false)
}

// onCase fills the fields with one of the article's cases, its body as a
// service in the page's language would write it.
func (c *classifyPanel) onCase(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("case").String())
	if err != nil || i < 0 || i >= len(classifyCases) {
		return
	}
	cs := classifyCases[i]
	rules := c.in.Rules
	c.in = cs.in
	c.in.Rules = rules
	if c.Lang == i18n.Ru && cs.bodyRu != "" {
		c.in.Body = cs.bodyRu
	}
	c.send(ctx, true)
	c.setTexts()
}

// send hands the panel's call to the page, for its link; push: a discrete
// change (a case button), a history entry.
func (c *classifyPanel) send(ctx app.Context, push bool) {
	sendEdit(ctx, edit{set: setTo(func(st *state) *classifyInput { return &st.Cls }, c.in), push: push})
}

// setTexts writes the fields into the boxes: go-app renders a textarea's
// text once, as its content, and a typed textarea keeps its own value; a
// typed input's value is set only when its rendered value changes.
func (c *classifyPanel) setTexts() {
	if !app.IsClient {
		return
	}
	for id, v := range map[string]string{"classify-headers": c.in.Headers, "classify-body": c.in.Body,
		"classify-status": c.in.Status, "classify-key": c.in.Key} {
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

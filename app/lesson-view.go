package app

import (
	"encoding/base64"
	"strconv"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The workshop: ?lesson=N shows lesson N's text beside its live widget,
// with a few controls, a prompt, a question whose answer shows on request,
// and one-click setups; lesson-prev and lesson-next (and the arrow and page
// keys, as presentation clickers send) move through the sequence. With
// ?present=1 the type is large and the lesson fits a projector's screen.

// LessonSourceID is the hidden element of a pre-rendered lesson page that
// holds its lesson file (data-key, data-body). The page hands it to the
// compile worker too, whose stand-in document has it: the lesson's text
// is drawn there, and its functions compiled, before the page runs.
const LessonSourceID = "lesson-source"

// lessonSource reads a lesson file where the page is rendered on the
// server (lesson-server.go); nil in the browser, which fetches lessons.
var lessonSource func(path string) (string, bool)

// lessonKey names a lesson file: lang/N.
func lessonKey(l i18n.Lang, n int) string { return l.Code() + "/" + strconv.Itoa(n) }

// lessonAt is lesson n in l as the page has it at hand, without a fetch:
// on the server, read from its files (raw: the file); in the browser, the
// pre-rendered page's copy, when it is that lesson in that language (a
// page the worker cached may hold another).
func lessonAt(l i18n.Lang, n int) (les *lesson, raw string) {
	if !app.IsClient {
		if lessonSource == nil {
			return nil, ""
		}
		body, ok := lessonSource(lessonPath(l.Code(), n))
		if !ok {
			return nil, ""
		}
		if x, err := parseLesson(body); err == nil {
			return &x, body
		}
		return nil, ""
	}
	el := app.Window().GetElementByID(LessonSourceID)
	if !el.Truthy() {
		return nil, ""
	}
	ds := el.Get("dataset")
	if ds.Get("key").String() != lessonKey(l, n) {
		return nil, ""
	}
	body, err := base64.StdEncoding.DecodeString(ds.Get("body").String())
	if err != nil {
		return nil, ""
	}
	if x, err := parseLesson(string(body)); err == nil {
		return &x, ""
	}
	return nil, "" // fetched, then, and reported as usual
}

// withLesson is st set up as les's query says, keeping the lesson, the
// language, presenter mode and the theme.
//
// view is the widget shown when the setup names none: a link's
// (?lesson=3&view=flow) when the lesson opens, its second widget when a
// one-click setup is applied while it is shown.
func (st state) withLesson(les lesson, view string) state {
	s, _ := parseQuery(les.Query)
	s.Lesson, s.Lang, s.Present, s.Theme = st.Lesson, st.Lang, st.Present, st.Theme
	if s.View == "" {
		s.View = view
	}
	return s
}

// setUp applies the setup of st's lesson when st is bare and the lesson
// is at hand (lessonAt): the page's first render is then the lesson's.
func (st *state) setUp(l i18n.Lang) {
	if !st.bare() {
		return
	}
	if les, _ := lessonAt(l, st.Lesson); les != nil {
		*st = st.withLesson(*les, st.View)
	}
}

// bare reports whether st names a lesson and nothing of the state (the
// language, presenter mode, the theme and the widget aside), as a link to
// a lesson does, or lesson-next: the lesson's own setup then applies.
func (st *state) bare() bool {
	b := defaultState()
	b.Lesson, b.Lang, b.Present, b.Theme, b.View = st.Lesson, st.Lang, st.Present, st.Theme, st.View
	return st.Lesson > 0 && st.query() == b.query()
}

// lessonPage is a workshop lesson beside its widget (the page's, with the
// lesson's few controls), a component: it owns the lesson, which
// it reads in its language (from the page's copy or a fetch), its answer
// shown or not, and the moves between lessons (buttons and keys). It
// sends the page its setup when the link names only the lesson (Bare), a
// one-click setup, a widget chosen and a move to another lesson, each as
// an edit.
type lessonPage struct {
	app.Compo

	Lang    i18n.Lang
	N       int
	View    string // the link's widget ("": the lesson's own)
	Present bool
	Bare    bool // the link names only the lesson: its setup applies
	Links   lessonLinks
	// Widget is the page's widget of a view, with the lesson's controls:
	// the lesson picks the view (its own, unless the link names one).
	Widget func(view string) app.UI

	key    string  // lessonKey of the lesson loaded or being loaded
	asked  string  // the key last fetched: fetched once
	data   *lesson // nil while loading or when it failed
	err    string  // a catalog key
	answer bool    // the answer is shown
	// raw is the lesson file as read on the server, which the page carries
	// (LessonSourceID) so the browser draws the lesson at once, without a
	// fetch that would move the page when the text arrived.
	raw  string
	ctx  app.Context
	live bool // mounted
	keys app.Func
}

func (c *lessonPage) OnInit() {
	c.key = lessonKey(c.Lang, c.N)
	c.data, c.raw = lessonAt(c.Lang, c.N)
}

func (c *lessonPage) OnMount(ctx app.Context) {
	c.ctx, c.live = ctx, true
	c.keys = app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		if ev.Get("altKey").Bool() || ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() {
			return nil
		}
		key, target := ev.Get("key").String(), ev.Get("target").Get("tagName").String()
		ctx.Dispatch(func(ctx app.Context) { c.onKey(ctx, key, target) })
		return nil
	})
	app.Window().Call("addEventListener", "keydown", c.keys)
	c.load(ctx)
	c.retitle()
}

func (c *lessonPage) OnDismount() {
	c.live = false
	app.Window().Call("removeEventListener", "keydown", c.keys)
	c.keys.Release()
}

func (c *lessonPage) OnUpdate(ctx app.Context) {
	if k := lessonKey(c.Lang, c.N); k != c.key {
		c.key, c.data, c.err, c.answer = k, nil, "", false
		c.retitle()
	}
	c.load(ctx)
}

// load fetches the lesson's file, unless it is there already; on arrival
// it applies the lesson's setup if the link names only the lesson.
func (c *lessonPage) load(ctx app.Context) {
	if c.data != nil || c.asked == c.key || !c.live {
		if c.data != nil && c.Bare {
			c.setUp(ctx, *c.data)
		}
		return
	}
	key := c.key
	c.asked = key
	lang := c.Lang.Code()
	fetchText(lessonPath(lang, c.N), func(body string, status int) {
		c.ctx.Dispatch(func(ctx app.Context) {
			if c.key != key {
				return // the reader moved on
			}
			if status != 200 {
				c.err = "lesson.unavailable"
				return
			}
			les, err := parseLesson(body)
			if err != nil {
				c.err = "lesson.broken"
				return
			}
			c.data = &les
			c.retitle()
			if focused := app.Window().Get("document").Get("activeElement"); focused.Truthy() && focused.Get("id").String() == "lesson-title" {
				focusAfter(ctx, "lesson-title") // the loading title had it: the lesson's takes it
			}
			if c.Bare {
				c.setUp(ctx, les)
			}
		})
	})
}

// setUp sends the page the lesson's setup.
func (c *lessonPage) setUp(ctx app.Context, les lesson) {
	view := c.View
	sendEdit(ctx, edit{set: func(st *state) bool {
		if !st.bare() {
			return false // taken already, or the reader moved on
		}
		s := st.withLesson(les, view)
		if s.query() == st.query() {
			return false
		}
		*st = s
		return true
	}, rerun: true, replace: true})
}

// retitle makes the document's title the lesson's, then its number's and
// the page's name.
func (c *lessonPage) retitle() {
	if !app.IsClient {
		return
	}
	l := c.Lang
	t := l.F("lesson.count", strconv.Itoa(c.N), strconv.Itoa(lessonCount)) + " · " + l.T("page.title")
	if c.data != nil {
		t = c.data.Title + " · " + t
	}
	app.Window().Get("document").Set("title", t)
}

// goLesson opens lesson n (clamped to the sequence) with its own setup:
// the link names only the new lesson, a history entry.
func (c *lessonPage) goLesson(ctx app.Context, n int) {
	n = min(max(n, 1), lessonCount)
	if n == c.N {
		return
	}
	sendEdit(ctx, edit{set: func(st *state) bool {
		b := defaultState()
		b.Lesson, b.Lang, b.Present, b.Theme = n, st.Lang, st.Present, st.Theme
		*st = b
		return true
	}, rerun: true, push: true, replace: true, focus: "lesson-title"})
}

func (c *lessonPage) onNext(ctx app.Context, e app.Event)   { c.goLesson(ctx, c.N+1) }
func (c *lessonPage) onPrev(ctx app.Context, e app.Event)   { c.goLesson(ctx, c.N-1) }
func (c *lessonPage) onAnswer(ctx app.Context, e app.Event) { c.answer = !c.answer }

// onLink applies a lesson's one-click setup, as a history entry.
func (c *lessonPage) onLink(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("link").String())
	les := c.data
	if err != nil || les == nil || i < 0 || i >= len(les.Links) {
		return
	}
	view := ""
	if c.View == les.Also {
		view = les.Also // the flow stays shown
	}
	link := lesson{Query: les.Links[i].Query}
	sendEdit(ctx, edit{set: func(st *state) bool {
		*st = st.withLesson(link, view)
		return true
	}, rerun: true, push: true, replace: true})
}

// onKey moves between lessons with the arrow keys and PageUp/PageDown (what
// presentation clickers send), unless a field has the focus.
func (c *lessonPage) onKey(ctx app.Context, key, target string) {
	switch target {
	case "INPUT", "TEXTAREA", "SELECT":
		return
	}
	switch key {
	case "ArrowRight", "PageDown":
		c.goLesson(ctx, c.N+1)
	case "ArrowLeft", "PageUp":
		c.goLesson(ctx, c.N-1)
	}
}

// onView shows the lesson's own widget (no view= in the link) or its
// second, the button's data-view. The view is read when clicked: a
// button keeps its first handler for its life.
func (c *lessonPage) onView(ctx app.Context, e app.Event) {
	view := ctx.JSSrc().Get("dataset").Get("view").String()
	les := c.data
	switch {
	case les == nil || view != les.View && view != les.Also:
		return
	case view == les.View:
		view = ""
	}
	sendEdit(ctx, edit{set: setTo(func(st *state) *string { return &st.View }, view), push: true})
}

// lessonWidget is the widget view of a lesson's page, with the few knobs a
// lesson's prompt asks to move: the policy's main ones (none for the
// classifier).
func lessonWidget(v pageView, view string) app.UI {
	controls := app.UI(app.Div().Class("lesson-controls"))
	if view != "classify" {
		controls = newPolicyPanel(v)
	}
	return app.Div().Class("lesson-widget").Body(controls, widgetOf(v, view))
}

// paragraph draws a lesson paragraph or list from its inline runs.
func paragraph(text string) app.UI {
	if len(text) > 2 && text[:2] == "- " {
		var items []app.UI
		for _, line := range splitLines(text) {
			if len(line) > 2 && line[:2] == "- " {
				line = line[2:]
			}
			items = append(items, app.Li().Body(runs(line)...))
		}
		return app.Ul().Body(items...)
	}
	return app.P().Body(runs(text)...)
}

func runs(s string) []app.UI {
	rs := inline(s)
	out := make([]app.UI, len(rs))
	for i, r := range rs {
		switch {
		case r.Bold:
			out[i] = app.Strong().Text(r.Text)
		case r.Code:
			out[i] = app.Code().Text(r.Text)
		default:
			out[i] = app.Text(r.Text)
		}
	}
	return out
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

// fetchText gets a file relative to the page through the browser's fetch
// and hands its text and status to done (status 0: no answer).
func fetchText(path string, done func(body string, status int)) {
	fetchAnswer(path, func(a answer) { done(a.body, a.status) })
}

func (c *lessonPage) Render() app.UI {
	l, n := c.Lang, c.N
	var text []app.UI
	view := "table"
	switch les := c.data; {
	case c.err != "":
		text = append(text, app.P().Class("error").Text(l.T(c.err)))
	case les == nil:
		text = append(text, app.H1().ID("lesson-title").TabIndex(-1).Class("pending").Text(l.T("lesson.loading")))
	default:
		view = les.View
		if c.View != "" {
			// A one-click setup may show another widget (view=delays: a
			// trap seen in the delay chart's dots).
			view = c.View
		}
		// The title is the page's h1 and where the focus goes on a change of
		// lesson: a screen reader says the title, not the whole text.
		text = append(text, app.H1().ID("lesson-title").TabIndex(-1).Text(les.Title))
		for _, para := range les.Text {
			text = append(text, paragraph(para))
		}
		text = append(text,
			app.P().Class("lesson-try").Body(app.Strong().Text(l.T("lesson.try")+" "), app.Span().Body(runs(les.Try)...)),
			app.P().Class("lesson-question").Body(app.Strong().Text(l.T("lesson.question")+" "), app.Span().Body(runs(les.Question)...)),
		)
		// The answer's button leads the row of one-click setups: one row of
		// buttons, not two (a line less of a projector's height).
		items := make([]app.UI, 1, len(les.Links)+1)
		items[0] = app.Button().ID("lesson-answer").Type("button").Class("secondary small").
			Aria("expanded", boolText(c.answer)).Aria("controls", "lesson-answer-text").OnClick(c.onAnswer).
			Text(l.T(map[bool]string{false: "lesson.show-answer", true: "lesson.hide-answer"}[c.answer]))
		for i, lk := range les.Links {
			items = append(items, app.Button().Type("button").Class("secondary small").DataSet("link", i).OnClick(c.onLink).Text(lk.Label))
		}
		text = append(text,
			app.Div().Class("lesson-links").Body(items...),
			app.P().ID("lesson-answer-text").Class("lesson-answer").Hidden(!c.answer).Body(runs(les.Answer)...),
		)
	}
	// Answered, presenter mode shows the answer in place of the prompt
	// (playground.css): the longest answers would not fit beside it.
	textCls := "card lesson-text"
	if c.answer {
		textCls += " answered"
	}
	cls := "playground lessons"
	if c.Present {
		cls += " present"
	}
	var source app.UI
	if c.raw != "" && c.data != nil && app.IsServer {
		// Base64: go-app writes attribute values Go-quoted, which a
		// browser would not read back (\n, \").
		source = app.Div().ID(LessonSourceID).Hidden(true).DataSet("key", c.key).
			DataSet("body", base64.StdEncoding.EncodeToString([]byte(c.raw)))
	}
	return app.Main().Class(cls).Body(
		app.Header().Class("lesson-head").Body(
			app.A().ID("lesson-index").Class("lesson-count").Href("?"+c.Links.lesson(lessonList)).
				Title(l.T("lesson.index")).Text(l.F("lesson.count", strconv.Itoa(n), strconv.Itoa(lessonCount))),
			c.views(l, view),
			app.Div().Class("share").Body(
				&langSwitch{Lang: l},
				app.A().ID("lesson-playground").Class("button secondary").Href("?"+c.Links.Playground).
					Title(l.T("lesson.playground-hint")).Text(l.T("lesson.playground")),
				app.Button().ID("lesson-prev").Type("button").Class("secondary").Disabled(n <= 1).OnClick(c.onPrev).Text("← "+l.T("lesson.prev")),
				app.Button().ID("lesson-next").Type("button").Disabled(n >= lessonCount).OnClick(c.onNext).Text(l.T("lesson.next")+" →"),
				// What the widget's copy buttons did (the table's Markdown,
				// CSV); the lesson's settings change with the link.
				&copyStatus{Lang: l, Query: c.Links.Playground},
			),
		),
		app.Div().Class("lesson-layout").Body(
			app.Article().ID("lesson").Class(textCls).Body(text...),
			c.Widget(view),
		),
		app.If(source != nil, func() app.UI { return source }),
	)
}

// views is the switch between a lesson's widget and its second
// one (lesson.Also), shown is the widget shown; nothing for a lesson with
// one widget. The choice goes into the link (view=). It sits in the
// lesson's head: in presenter mode the widget has no line to spare.
func (c *lessonPage) views(l i18n.Lang, shown string) app.UI {
	les := c.data
	if les == nil || les.Also == "" {
		return nil
	}
	button := func(view string) app.UI {
		return app.Button().ID("lesson-view-"+view).Type("button").Class("secondary small").Aria("pressed", boolText(shown == view)).
			DataSet("view", view).OnClick(c.onView).Text(l.T("lesson.show." + view))
	}
	return app.Div().Class("lesson-views").Role("group").Aria("label", l.T("lesson.views")).Body(
		button(les.View), button(les.Also))
}

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

// lessonState is what the page holds of the open lesson.
type lessonState struct {
	key    string  // lang/N of the file loaded or being loaded
	data   *lesson // nil while loading or when it failed
	err    string  // a catalog key
	answer bool    // the answer is shown
	// setup is set when the lesson's own query should replace the state
	// once the file is there: on arriving from lesson-next/-prev, or from
	// a link that names only the lesson.
	setup bool
	// setUp: the setup was applied before the component had a context
	// (from the page's copy of the lesson); the address is still to write.
	setUp bool
	// raw is the lesson file as read on the server, which the page carries
	// (lessonSourceID) so the browser draws the lesson at once, without a
	// fetch that would move the page when the text arrived.
	raw string
}

// lessonSourceID is the hidden element of a pre-rendered lesson page that
// holds its lesson file.
const lessonSourceID = "lesson-source"

// lessonSource reads a lesson file where the page is rendered on the
// server (lesson-server.go); nil in the browser, which fetches lessons.
var lessonSource func(path string) (string, bool)

// lessonFromPage takes the open lesson from the pre-rendered page's copy,
// when it is the lesson in the page's language, and applies its setup if
// the link asks for it.
func (p *playground) lessonFromPage() {
	if p.st.Lesson == 0 {
		return
	}
	el := app.Window().GetElementByID(lessonSourceID)
	if !el.Truthy() {
		return
	}
	ds := el.Get("dataset")
	key := p.lang().Code() + "/" + strconv.Itoa(p.st.Lesson)
	if ds.Get("key").String() != key {
		return // another lesson or language (a page the worker cached)
	}
	body, err := base64.StdEncoding.DecodeString(ds.Get("body").String())
	if err != nil {
		return
	}
	les, err := parseLesson(string(body))
	if err != nil {
		return // fetched, then, and reported as usual
	}
	p.les.key, p.les.data = key, &les
	if p.les.setup {
		p.les.setup, p.les.setUp = false, true
		p.setupState(les, p.st.View)
	}
}

// lessonOnServer reads the open lesson on the server, so the pre-rendered
// page holds its text and the widget in the lesson's setup.
func (p *playground) lessonOnServer() {
	lang := p.lang().Code()
	key := lang + "/" + strconv.Itoa(p.st.Lesson)
	if lessonSource == nil || key == p.les.key {
		return
	}
	body, ok := lessonSource(lessonPath(lang, p.st.Lesson))
	if !ok {
		return
	}
	les, err := parseLesson(body)
	if err != nil {
		return
	}
	p.les.key, p.les.data, p.les.raw = key, &les, body
	if p.les.setup {
		p.les.setup = false
		p.setupState(les, p.st.View)
		p.recompute()
	}
}

// loadLesson fetches the open lesson's file in the page's language, unless
// it is there already; on arrival it applies the lesson's setup if asked.
func (p *playground) loadLesson(ctx app.Context) {
	n := p.st.Lesson
	if n == lessonList {
		p.loadIndex(ctx)
		return
	}
	if n <= 0 {
		return
	}
	if !app.IsClient {
		p.lessonOnServer()
		return
	}
	lang := p.lang().Code()
	key := lang + "/" + strconv.Itoa(n)
	if key == p.les.key && (p.les.data != nil || p.les.err != "") {
		return
	}
	p.les.key, p.les.data, p.les.err, p.les.answer = key, nil, "", false
	ctx = p.own(ctx)
	fetchText(lessonPath(lang, n), func(body string, status int) {
		ctx.Dispatch(func(ctx app.Context) {
			if p.les.key != key {
				return // the reader moved on
			}
			if status != 200 {
				p.les.err = "lesson.unavailable"
				return
			}
			les, err := parseLesson(body)
			if err != nil {
				p.les.err = "lesson.broken"
				return
			}
			p.les.data = &les
			p.applyLang(ctx) // the document's title is the lesson's
			if focused := app.Window().Get("document").Get("activeElement"); focused.Truthy() && focused.Get("id").String() == "lesson-title" {
				p.focusAfter(ctx, "lesson-title") // the loading title had it: the lesson's takes it
			}
			if p.les.setup {
				p.les.setup = false
				p.applyLessonSetup(ctx, les, p.st.View)
			}
		})
	})
}

// applyLessonSetup sets the state to the lesson's query, keeping the
// lesson, the language, presenter mode and the theme.
func (p *playground) applyLessonSetup(ctx app.Context, les lesson, view string) {
	p.setupState(les, view)
	p.recompute()
	p.herd.start(ctx, p)
	p.writeURL(ctx)
}

// setupState sets the state to the lesson's query, keeping the lesson,
// the language, presenter mode and the theme; the caller recomputes.
//
// view is the widget shown when the setup names none: a link's
// (?lesson=3&view=flow) when the lesson opens, its second widget when
// a one-click setup is applied while it is shown; a new lesson starts from
// its own (goLesson).
func (p *playground) setupState(les lesson, view string) {
	keep := p.st
	st, _ := parseQuery(les.Query)
	st.Lesson, st.Lang, st.Present, st.Theme = keep.Lesson, keep.Lang, keep.Present, keep.Theme
	if st.View == "" {
		st.View = view
	}
	p.st = st
	p.linkGen++
}

// fetchText gets a file relative to the page through the browser's fetch
// and hands its text and status to done (status 0: no answer).
func fetchText(path string, done func(body string, status int)) {
	fetchAnswer(path, func(a answer) { done(a.body, a.status) })
}

// goLesson opens lesson n (clamped to the sequence) with its own setup.
func (p *playground) goLesson(ctx app.Context, n int) {
	n = min(max(n, 1), lessonCount)
	if n == p.st.Lesson {
		return
	}
	p.st.Lesson, p.st.View = n, ""
	p.les.setup = true
	p.urlPush = true
	p.loadLesson(ctx)
	p.writeURL(ctx)
	p.applyLang(ctx)
	p.focusAfter(ctx, "lesson-title")
}

func (p *playground) onLessonNext(ctx app.Context, e app.Event) { p.goLesson(ctx, p.st.Lesson+1) }
func (p *playground) onLessonPrev(ctx app.Context, e app.Event) { p.goLesson(ctx, p.st.Lesson-1) }

func (p *playground) onLessonAnswer(ctx app.Context, e app.Event) { p.les.answer = !p.les.answer }

// onLessonLink applies a lesson's one-click setup.
func (p *playground) onLessonLink(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("link").String())
	if err != nil {
		return
	}
	if les := p.les.data; les != nil && i >= 0 && i < len(les.Links) {
		p.urlPush = true
		view := ""
		if p.st.View == les.Also {
			view = les.Also // the flow stays shown
		}
		p.applyLessonSetup(ctx, lesson{Query: les.Links[i].Query}, view)
	}
}

// onKey moves between lessons with the arrow keys and PageUp/PageDown (what
// presentation clickers send), unless a field has the focus.
func (p *playground) onKey(ctx app.Context, key, target string) {
	if p.st.Lesson <= 0 {
		return
	}
	switch target {
	case "INPUT", "TEXTAREA", "SELECT":
		return
	}
	switch key {
	case "ArrowRight", "PageDown":
		p.goLesson(ctx, p.st.Lesson+1)
	case "ArrowLeft", "PageUp":
		p.goLesson(ctx, p.st.Lesson-1)
	}
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

// renderLesson is the lesson beside its widget.
func (p *playground) renderLesson(l i18n.Lang) app.UI {
	n := p.st.Lesson
	var text []app.UI
	view := "table"
	switch les := p.les.data; {
	case p.les.err != "":
		text = append(text, app.P().Class("error").Text(l.T(p.les.err)))
	case les == nil:
		text = append(text, app.H1().ID("lesson-title").TabIndex(-1).Class("pending").Text(l.T("lesson.loading")))
	default:
		view = les.View
		if p.st.View != "" {
			// A one-click setup may show another widget (view=delays: a
			// trap seen in the delay chart's dots).
			view = p.st.View
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
			Aria("expanded", boolText(p.les.answer)).Aria("controls", "lesson-answer-text").OnClick(p.onLessonAnswer).
			Text(l.T(map[bool]string{false: "lesson.show-answer", true: "lesson.hide-answer"}[p.les.answer]))
		for i, lk := range les.Links {
			items = append(items, app.Button().Type("button").Class("secondary small").DataSet("link", i).OnClick(p.onLessonLink).Text(lk.Label))
		}
		text = append(text,
			app.Div().Class("lesson-links").Body(items...),
			app.P().ID("lesson-answer-text").Class("lesson-answer").Hidden(!p.les.answer).Body(runs(les.Answer)...),
		)
	}
	// Answered, presenter mode shows the answer in place of the prompt
	// (playground.css): the longest answers would not fit beside it.
	textCls := "card lesson-text"
	if p.les.answer {
		textCls += " answered"
	}
	cls := "playground lessons"
	if p.st.Present {
		cls += " present"
	}
	var source app.UI
	if p.les.raw != "" && p.les.data != nil && app.IsServer {
		// Base64: go-app writes attribute values Go-quoted, which a
		// browser would not read back (\n, \").
		source = app.Div().ID(lessonSourceID).Hidden(true).DataSet("key", p.les.key).
			DataSet("body", base64.StdEncoding.EncodeToString([]byte(p.les.raw)))
	}
	return app.Main().Class(cls).Body(
		app.Header().Class("lesson-head").Body(
			app.A().ID("lesson-index").Class("lesson-count").Href("?"+p.lessonQuery(lessonList)).
				Title(l.T("lesson.index")).Text(l.F("lesson.count", strconv.Itoa(n), strconv.Itoa(lessonCount))),
			p.lessonViews(l, view),
			app.Div().Class("share").Body(
				p.langSwitch(l),
				app.A().ID("lesson-playground").Class("button secondary").Href("?"+p.playgroundQuery()).
					Title(l.T("lesson.playground-hint")).Text(l.T("lesson.playground")),
				app.Button().ID("lesson-prev").Type("button").Class("secondary").Disabled(n <= 1).OnClick(p.onLessonPrev).Text("← "+l.T("lesson.prev")),
				app.Button().ID("lesson-next").Type("button").Disabled(n >= lessonCount).OnClick(p.onLessonNext).Text(l.T("lesson.next")+" →"),
			),
		),
		app.Div().Class("lesson-layout").Body(
			app.Article().ID("lesson").Class(textCls).Body(text...),
			app.Div().Class("lesson-widget").Body(
				p.lessonControls(l, view),
				p.widget(l, view),
			),
		),
		app.If(source != nil, func() app.UI { return source }),
	)
}

// lessonViews is the switch between a lesson's widget and its second
// one (lesson.Also), shown is the widget shown; nothing for a lesson with
// one widget. The choice goes into the link (view=). It sits in the
// lesson's head: in presenter mode the widget has no line to spare.
func (p *playground) lessonViews(l i18n.Lang, shown string) app.UI {
	les := p.les.data
	if les == nil || les.Also == "" {
		return nil
	}
	button := func(view string) app.UI {
		return app.Button().ID("lesson-view-"+view).Type("button").Class("secondary small").Aria("pressed", boolText(shown == view)).
			DataSet("view", view).OnClick(p.onLessonView).Text(l.T("lesson.show." + view))
	}
	return app.Div().Class("lesson-views").Role("group").Aria("label", l.T("lesson.views")).Body(
		button(les.View), button(les.Also))
}

// onLessonView shows the lesson's own widget (no view= in the link) or
// its second, the button's data-view. The view is read when clicked: a
// button keeps its first handler for its life.
func (p *playground) onLessonView(ctx app.Context, e app.Event) {
	view := ctx.JSSrc().Get("dataset").Get("view").String()
	les := p.les.data
	switch {
	case les == nil || view != les.View && view != les.Also:
		return
	case view == les.View:
		view = ""
	}
	if p.st.View == view {
		return
	}
	p.st.View = view
	p.urlPush = true
	p.writeURL(ctx)
}

// lessonControls are the few knobs a lesson's prompt asks to move: the
// policy's main ones (none for the classifier).
func (p *playground) lessonControls(l i18n.Lang, view string) app.UI {
	if view == "classify" {
		return app.Div().Class("lesson-controls")
	}
	return p.renderControls(l)
}

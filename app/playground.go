package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// playground is the page: it holds the link's state (exactly what the URL
// holds) and routes between the page's views (the playground itself, a
// lesson, the lessons' index, a view alone). Its parts are components
// that own what they edit, compute what they show, and send each change
// of the link back as an edit (actEdit), which the page takes in one
// handler (onEdit); a state taken from outside the panels (a link, Back,
// a lesson's setup, a scenario, an import) goes to the panels that edit
// it through go-app's state (stateLink).
type playground struct {
	app.Compo

	st state // the last valid state
	// browserLang is the language the browser's preferences pick, used
	// while the link names none.
	browserLang i18n.Lang
	addr        address     // the browser's address, and the page's own context
	start       startStages // how much of the page the browser has drawn
	herd        herdRunner  // the herd's runs, which several parts show
	boxes       viewBoxes   // the sweep's and the flow's last results, for their pictures
}

func newPlayground() *playground {
	p := newBarePlayground()
	if !app.IsClient {
		return p
	}
	// go-app renders and mounts the component before OnNav: starting from
	// the default state would draw the default page and then the linked
	// one (a lesson, a view) in one long task, showing the wrong page
	// between them. So the address is read here, and the first screen is
	// drawn first.
	p.start.tableFirst = inSight("main .card.delays")
	p.readAddress(app.Window().URL().RawQuery)
	return p
}

// newBarePlayground is the page at the default state, drawn whole, as the
// server draws it before it reads the address (OnNav).
func newBarePlayground() *playground {
	p := &playground{st: defaultState()}
	p.start = startStages{stage: stageAll, mainPage: p.st.mainPage, firstHerd: func(ctx app.Context) bool {
		if p.herd.gen.Load() != 0 {
			return false
		}
		p.herd.start(ctx, &p.st)
		return true
	}, rehearse: func(n int) {
		if err := rehearse(resultPart(n, n, p.view())); err != nil {
			app.Logf("the rehearsal of a part of the page: %v", err)
		}
	}}
	return p
}

// readAddress sets the page's state from the address's query q, as the
// browser's first render draws it.
func (p *playground) readAddress(q string) {
	p.start.stage = stageFirst
	p.browserLang = i18n.Detect(browserLanguages())
	p.addr.at = q
	p.st, p.addr.notes = parseQuery(q)
	// The lesson's setup, from the page's own copy of the lesson: the
	// address follows once the page is mounted (OnNav).
	before := p.st.query()
	p.st.setUp(p.lang())
	p.start.setUp = p.st.query() != before
	p.start.preloaded = true
}

// mainPage: the page is the playground itself, neither a lesson nor a
// view (which draw whole from their first render).
func (st *state) mainPage() bool { return st.View == "" && st.Lesson == 0 }

// lang is the page's language: the link's, else the browser's.
func (p *playground) lang() i18n.Lang {
	if l, ok := i18n.Parse(p.st.Lang); ok {
		return l
	}
	return p.browserLang
}

// OnNav restores the state from the URL, on the server's pre-render and in
// the browser, and again when Back or Forward lands on another state.
func (p *playground) OnNav(ctx app.Context) {
	q := ctx.Page().URL().RawQuery
	p.addr.at = q
	if p.start.navigated {
		if q != p.st.query() {
			p.restore(ctx, q)
		}
		return
	}
	p.start.navigated = true
	if !p.start.preloaded {
		p.load(q)
		p.st.setUp(p.lang()) // the server's page shows the lesson's setup
	}
	if p.start.setUp {
		// The constructor applied the lesson's setup: the address follows,
		// as after a fetch.
		p.addr.write(ctx, &p.st, false)
	}
	switch {
	case p.start.preloaded && p.st.mainPage():
		// The page's herd runs when the start reaches its card
		// (nextSlice), which waits for the reader when it is below the
		// first screen.
	case p.start.preloaded:
		// The herd's first run (up to syncBudget) and its chart are a part
		// of the start of their own, after the first screen's.
		inNextTask(p.addr.own(ctx), func(ctx app.Context) { p.herd.start(ctx, &p.st) })
	default:
		p.herd.start(ctx, &p.st)
	}
	p.applyLang()
	if p.start.preloaded && p.st.Lesson == 0 {
		// The first render drew the linked page already, and nothing here
		// changed what it shows: go-app's render after OnNav would draw
		// the same page again, in the first mount's task.
		ctx.PreventUpdate()
	}
}

// restore shows the state of a history entry, or of a link followed in
// the page (a lesson's, the index's: a link that names only a lesson gets
// the lesson's own setup, which the lesson sends).
func (p *playground) restore(ctx app.Context, q string) {
	p.load(q)
	publishLink(ctx, p.st)
	p.herd.start(p.addr.own(ctx), &p.st)
	p.applyLang()
}

// load sets the state from a URL query.
func (p *playground) load(query string) {
	p.st, p.addr.notes = parseQuery(query)
}

// onEdit takes a part's edit of the link's state: it computes again what
// the edit asks (the herd's runs; the tables follow the state by
// themselves) and writes the URL, as a history entry when the edit is
// discrete (Back undoes it; a slider's drag replaces the entry).
func (p *playground) onEdit(ctx app.Context, a app.Action) {
	e, ok := a.Value.(edit)
	lang, theme := p.lang(), p.st.Theme
	if !ok || !e.set(&p.st) {
		return
	}
	ctx = p.addr.own(ctx)
	if e.rerun {
		p.herd.more = 0
		p.herd.start(ctx, &p.st)
	}
	p.addr.write(ctx, &p.st, e.push)
	if e.replace {
		publishLink(ctx, p.st)
	}
	if p.lang() != lang || p.st.Theme != theme {
		p.applyLang()
	}
	if e.focus != "" {
		focusAfter(ctx, e.focus)
	}
}

// onHerdMore runs the herd again with ten times the page's call bound, at
// the reader's request (the herd card's "run further").
func (p *playground) onHerdMore(ctx app.Context, a app.Action) {
	p.herd.more++
	p.herd.start(p.addr.own(ctx), &p.st)
}

// onDownload saves the picture of the view an action names.
func (p *playground) onDownload(ctx app.Context, a app.Action) {
	if name, ok := a.Value.(string); ok {
		downloadView(p.view(), name)
	}
}

// applyLang makes <html lang>, the document's title and the theme follow
// the page's (a lesson titles the document itself: lessonPage.retitle).
func (p *playground) applyLang() {
	if !app.IsClient {
		return
	}
	l := p.lang()
	doc := app.Window().Get("document")
	root := doc.Get("documentElement")
	root.Set("lang", l.Code())
	if p.st.Lesson <= 0 {
		doc.Set("title", docTitle(l, &p.st))
	}
	// A forced theme; none follows the system (playground.css).
	if p.st.Theme != "" {
		root.Call("setAttribute", "data-theme", p.st.Theme)
	} else {
		root.Call("removeAttribute", "data-theme")
	}
}

func (p *playground) OnDismount() {
	p.addr.mounted = false
	p.herd.cancel()
}

// OnMount takes the parts' actions, listens to Back, and draws the rest
// of the page.
//
// It runs in the task that mounted the first render (go-app runs the
// mount's OnMount calls right after it), and first hands the thread back
// to the browser: otherwise the mount and what follows it (the components'
// OnMount and OnNav, go-app's first frame) would be one task, the start's
// longest (go-app's first mount replaces the server's page with its own DOM).
// Nothing it does changes what the page shows: go-app's render after it
// is skipped.
func (p *playground) OnMount(ctx app.Context) {
	yieldToBrowser()
	defer ctx.PreventUpdate()
	p.addr.ctx, p.addr.mounted = ctx, true
	// The states the parts observe start here: observed before any is
	// set, go-app would look for them in the local storage.
	ctx.SetState(stateLink, p.st)
	ctx.SetState(stateServer, serverUnknown)
	ctx.Handle(actEdit, p.onEdit)
	ctx.Handle(actDownload, p.onDownload)
	ctx.Handle(actHerdMore, p.onHerdMore)
	// The loader's copy the wasm main kept up while the runtime started.
	if l := app.Window().GetElementByID("app-wasm-loader"); l.Truthy() {
		l.Call("remove")
	}
	postHeight()
	if p.start.stage < stageAll && p.st.mainPage() {
		p.start.listen(ctx)
	}
	ctx.Defer(p.start.nextSlice)
	// go-app skips its own navigation when Back returns to the first
	// address it saw (it compares with its last visited URL, which our
	// writes never change): listen as well.
	app.Window().Call("addEventListener", "popstate", app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			q := app.Window().URL().RawQuery
			if q != p.st.query() {
				p.restore(ctx, q)
			}
			p.addr.at = q
		})
		return nil
	}))
}

// view is what the page hands its parts: see pageView.
func (p *playground) view() pageView {
	return pageView{lang: p.lang(), st: &p.st, query: p.st.query(), herd: &p.herd, boxes: &p.boxes}
}

func (p *playground) Render() app.UI {
	v := p.view()
	switch {
	case p.st.Lesson == lessonList:
		return &lessonIndexPage{Lang: v.lang, Links: linksOf(&p.st)}
	case p.st.Lesson > 0:
		return &lessonPage{Lang: v.lang, N: p.st.Lesson, View: p.st.View, Present: p.st.Present, Bare: p.st.bare(),
			Links: linksOf(&p.st), Widget: func(view string) app.UI { return lessonWidget(v, view) }}
	case p.st.View != "":
		return viewPage(v, p.addr.notes)
	}
	return playgroundPage(v, &p.start, p.addr.notes)
}

// resultPart is the results' part that start stage n draws (stageTable:
// the table, wherever the start draws it), as it is once the start has
// reached stage: the herd's card has its knobs from stageHerdControls on.
func resultPart(n, stage int, v pageView) app.UI {
	switch n {
	case stageHerd, stageHerdControls:
		return newHerdCard(v, stage >= stageHerdControls)
	case stageCharts:
		return newDelaysCard(v)
	case stageCompare:
		return newCompareCard(v)
	case stageClassify:
		return newClassifyCard(v)
	case stageSweep:
		return newSweepCard(v)
	}
	return newTableCard(v)
}

// playgroundPage is the playground itself: its header, the panels it
// opens, the policy's controls, and the results, drawn as the start
// reaches each part.
func playgroundPage(v pageView, s *startStages, notes []notice) app.UI {
	l := v.lang
	return app.Main().Class("playground").Body(
		// A button, not a link to #results: the page's links all lead under
		// its base path, and the app routes links.
		app.Button().ID("skip").Type("button").Class("skip-link").OnClick(onSkip).Text(l.T("page.skip")),
		newPageHead(v),
		&updateBanner{Lang: l},
		newEmbedPanel(v),
		newExportPanel(v),
		&importPanel{Lang: l, Open: v.st.Import},
		noticeList(l, notes),
		app.Div().Class("layout").Body(
			app.Div().Class("controls-col").Body(
				newPolicyPanel(v),
				newPolicyBPanel(v),
				newResultStrip(v),
			),
			// The results' order suits a laptop's first screen: the table, then
			// the herd, then the delay charts; the style sheet places them
			// side by side on wide screens.
			app.Div().ID("results").Class("results").TabIndex(-1).Body(
				s.later(s.tableStage(), "", "card delays", func() app.UI { return resultPart(stageTable, s.stage, v) }),
				s.later(stageHerd, "", "card herd", func() app.UI { return resultPart(stageHerd, s.stage, v) }),
				s.later(stageCharts, "", "card delay-charts", func() app.UI { return resultPart(stageCharts, s.stage, v) }),
				s.later(stageCompare, "", "card compare", func() app.UI { return resultPart(stageCompare, s.stage, v) }),
				s.later(stageClassify, "classify", "card classify", func() app.UI { return resultPart(stageClassify, s.stage, v) }),
				s.later(stageSweep, "sweep", "card sweep", func() app.UI { return resultPart(stageSweep, s.stage, v) }),
			),
		),
		app.Footer().Class("foot").Body(
			app.P().Body(app.A().ID("lessons-link").Href("?"+linksOf(v.st).lesson(lessonList)).Text(l.T("page.lessons"))),
			app.P().Text(l.T("page.foot")),
		),
	)
}

// onSkip moves the focus past the header and the policy's controls to the
// results.
func onSkip(ctx app.Context, e app.Event) {
	if el := app.Window().GetElementByID("results"); el.Truthy() {
		el.Call("focus")
	}
}

// docTitle is the document's title of a page that is no lesson: the
// index's or the view's, then the page's name; the page's own title on
// the whole page.
func docTitle(l i18n.Lang, st *state) string {
	switch {
	case st.Lesson == lessonList:
		return l.T("lesson.index") + " · " + l.T("page.title")
	case st.View != "":
		return viewTitle(l, st.View) + " · " + l.T("page.title")
	}
	return l.T("page.doc-title")
}

// noticeList says which of the link's parameters the page ignored, and
// why.
func noticeList(l i18n.Lang, notes []notice) app.UI {
	if len(notes) == 0 {
		return app.Div().ID("notice").Hidden(true)
	}
	items := make([]app.UI, len(notes))
	for i, n := range notes {
		items[i] = app.Li().Text(n.text(l))
	}
	return app.Div().ID("notice").Class("notice").Role("status").Body(
		app.Strong().Text(l.T("notice.head")),
		app.Ul().Body(items...),
	)
}

// browserLanguages are navigator.languages, most preferred first.
func browserLanguages() []string {
	nav := app.Window().Get("navigator")
	langs := nav.Get("languages")
	var out []string
	if langs.Truthy() {
		for i := range min(langs.Length(), 16) {
			out = append(out, langs.Index(i).String())
		}
	}
	if l := nav.Get("language"); len(out) == 0 && l.Truthy() {
		out = append(out, l.String())
	}
	return out
}

// legend is a chart's key: pairs of a key's class suffix and its text, each
// pair kept on one line.
func legend(pairs ...string) app.UI {
	items := make([]app.UI, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		items = append(items, app.Span().Class("legend-item").Body(
			app.Span().Class("key key-"+pairs[i]).Aria("hidden", "true"),
			app.Text(pairs[i+1]),
		))
	}
	return app.P().Class("legend").Body(items...)
}

// cardHead is a card's heading: the page's h1 when the card is alone (an
// embedded view, whose title it is), else at level (2 or 3).
func cardHead(alone bool, level int, text string) app.UI {
	switch {
	case alone:
		return app.H1().Class("view-title").Text(text)
	case level == 3:
		return app.H3().Text(text)
	}
	return app.H2().Text(text)
}

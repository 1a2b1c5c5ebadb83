package app

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// playground is the page: it owns the state (exactly what the URL holds)
// and the herd's runs, and hands them to the panels, components that own
// what they edit and send each edit back as an action (see OnMount).
//
// Event handlers are methods that read the control's id and value from the
// DOM: go-app keeps the first handler it mounted on an element (handlers are
// compared by code pointer), so a closure over loop variables would go stale.
type playground struct {
	app.Compo

	st    state    // the last valid state
	notes []notice // URL parameters ignored on load
	// browserLang is the language the browser's preferences pick, used
	// while the link names none.
	browserLang i18n.Lang

	table    *backoff.Table
	tableB   *backoff.Table // the second policy's, when compared
	tableErr string

	// stage is how much of the page the browser draws: its first screen
	// (the shell and the policy's controls, with the table beside them on
	// a laptop) at stageFirst, then one more part per task (see
	// nextSlice), so that no task of the start holds the page long, and
	// the parts below the screen when the reader wants them. The server
	// draws everything at once.
	stage int
	// restWanted: the reader has asked for the parts below the first
	// screen (listenForReader); restWaits: the start waits for that.
	restWanted, restWaits bool
	// tableFirst: the table is a part of the first screen (beside the
	// controls on a laptop; a phone's shows the controls alone), as the
	// server's page the browser shows before the app mounts lays it out.
	tableFirst bool
	// preloaded: the constructor read the state from the address (in the
	// browser), so the first render is already the linked page.
	preloaded bool

	// ctx is the component's own context, set on mount: a handler's
	// context belongs to its element, and go-app drops Dispatch and After
	// once that element is gone (a click may remove its own button), so
	// deferred work (address writes, herd runs) goes through this one.
	ctx     app.Context
	mounted bool

	// server is whether the page has its server (serverNone on a static
	// host).
	server int
	les    lessonState // the workshop lesson, when one is open
	idx    lessonIndex // the lessons' titles, when their index is open

	// langKeyed: the language select's value came from the keyboard and
	// waits for Enter or the focus leaving it.
	langKeyed bool

	copied    string // copy-link feedback: a catalog key
	copyText  string // the link to copy by hand, when the clipboard is blocked
	urlQueued bool
	urlPush   bool // the queued address write is a discrete change: a history entry
	// urlAt is the address's query as the state last knew it (read, written
	// or restored): a queued write finding another one there was overtaken
	// by Back or Forward, and must not write over the entry they reached.
	urlAt string
	// linkGen counts the state's replacements from outside the panels (a
	// link, Back, a lesson's setup, a scenario, an import): a panel that
	// owns its fields takes the link's values when it changes.
	linkGen int
	loaded  bool
	herd    herdRunner
	// sweep is the sweep panel's last sweep, for the view's picture.
	sweep sweepBox
	// flow is the flow view's last flow, for its picture.
	flow flowBox
}

func newPlayground() *playground {
	p := &playground{st: defaultState(), stage: stageAll}
	if !app.IsClient {
		p.recompute()
		return p
	}
	// go-app renders and mounts the component before OnNav: starting from
	// the default state would draw the default page and then the linked
	// one (a lesson, a view) in one long task, showing the wrong page
	// between them. So the address is read here, and the first screen is
	// drawn first.
	p.stage = stageFirst
	p.tableFirst = inSight("main .card.delays")
	p.browserLang = i18n.Detect(browserLanguages())
	q := app.Window().URL().RawQuery
	p.urlAt = q
	p.st, p.notes = parseQuery(q)
	p.les.setup = onlyLessonKeys(q)
	p.lessonFromPage()
	if p.st.Lesson == lessonList {
		p.idx = lessonIndex{lang: p.lang().Code()}
		p.indexFromPage()
	}
	p.recompute()
	p.preloaded = true
	return p
}

// The parts of the page drawn after its first screen, one per task, in
// this order (stage counts them).
const (
	stageFirst        = iota // the shell, the policy's controls (and the table, tableFirst)
	stageTable               // the table, when it is below the first screen (a phone's)
	stageHerd                // the herd's first run, then its chart and numbers
	stageHerdControls        // the herd's knobs and scenarios, under its numbers
	stageCharts              // the delay chart and histogram
	stageCompare             // the compare panel's small multiples
	stageClassify            // the classify panel
	stageSweep               // the sweep panel
	stageAll          = stageSweep
)

// inNextTask runs fn on the UI goroutine in a task of the browser's own,
// a setTimeout's callback, so that the browser runs input, paint and its
// own tasks between two parts of the start. A Go timer (ctx.After) does
// not do it: on a slow or busy machine the timer is due before the
// program pauses, the runtime runs it at once, and two parts of the start
// are one long task.
func (p *playground) inNextTask(ctx app.Context, fn func(app.Context)) {
	c := p.own(ctx)
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		f.Release()
		c.Dispatch(fn)
		return nil
	})
	app.Window().Call("setTimeout", f, 0)
}

// restIdle is how long the parts below the screen wait, after the first
// screen, for a reason to be drawn sooner (the reader scrolls towards
// them, presses a key or a pointer, or prints): the first screen answers
// at once, and a phone, which shows only the policy's controls, is not
// held by work it does not show yet.
const restIdle = 4 * time.Second

// yieldToBrowser returns in a task of the browser's own, after a
// setTimeout: the UI goroutine waits (input that comes meanwhile is queued
// as usual), the program pauses and the browser runs its tasks, lays out
// and paints.
func yieldToBrowser() {
	done := make(chan struct{})
	var fn app.Func
	fn = app.FuncOf(func(app.Value, []app.Value) any {
		fn.Release()
		close(done)
		return nil
	})
	app.Window().Call("setTimeout", fn, 0)
	<-done
}

// restTriggers are the events that draw the rest of the page at once:
// reading on (scroll, wheel, keys, pointers) or printing it.
var restTriggers = []string{"scroll", "wheel", "keydown", "pointerdown", "touchstart", "beforeprint"}

// nextSlice draws the next part of the page in a task of its own, after
// the current part's render (a Defer runs once the frame is drawn), and
// so on until the page is whole. A part that would start below the screen
// waits for the reader (listenForReader), and the parts after it with it.
func (p *playground) nextSlice(ctx app.Context) {
	if p.stage >= stageAll {
		return
	}
	if !p.mainPage() {
		// A lesson and a view draw whole from the first render: nothing
		// to add, and no render to spend on it.
		p.stage = stageAll
		return
	}
	p.inNextTask(ctx, func(ctx app.Context) {
		// Asked here, a task after the part's render, not in it: the
		// answer needs the page laid out, and asked in the render's task
		// (the first mount's, the start's longest) it forced that layout
		// into it.
		if !p.restWanted && !inSight("main [aria-busy=true]") {
			p.restWaits = true // for listenForReader
			ctx.PreventUpdate()
			return
		}
		next := p.stage + 1
		if next == stageTable && p.tableFirst {
			next++ // drawn with the first screen
		}
		perf := app.Window().Get("performance")
		switch {
		case next == stageHerd && p.herd.gen.Load() == 0:
			perf.Call("mark", "backoff:herd-run")
			// The herd's first run (up to syncBudget), in a task of its
			// own before its card's.
			p.herd.start(ctx, p)
		default:
			perf.Call("mark", "backoff:part")
			p.stage = next
		}
		ctx.Defer(p.nextSlice)
	})
}

// inSight reports whether the card sel finds (the first part still to be
// drawn: its empty card) starts within the screen or half a screen below
// it; true when there is none.
func inSight(sel string) bool {
	card := app.Window().Get("document").Call("querySelector", sel)
	if !card.Truthy() {
		return true
	}
	return card.Call("getBoundingClientRect").Get("top").Float() < 1.5*app.Window().Get("innerHeight").Float()
}

// listenForReader draws the rest of the page, from wherever the start is
// waiting (restWaits), on the first of restTriggers since the mount, or
// restIdle after it.
func (p *playground) listenForReader(ctx app.Context) {
	w := app.Window()
	var fn app.Func
	var timer app.Value
	fn = app.FuncOf(func(app.Value, []app.Value) any {
		for _, ev := range restTriggers {
			w.Call("removeEventListener", ev, fn, true)
		}
		w.Call("clearTimeout", timer)
		ctx.Dispatch(func(ctx app.Context) {
			p.restWanted = true
			if p.restWaits {
				p.restWaits = false
				p.nextSlice(ctx)
			}
		})
		return nil
	})
	for _, ev := range restTriggers {
		w.Call("addEventListener", ev, fn, map[string]any{"capture": true, "passive": true})
	}
	timer = w.Call("setTimeout", fn, restIdle.Milliseconds())
}

// tableStage is the part of the start that draws the table.
func (p *playground) tableStage() int {
	if p.tableFirst {
		return stageFirst
	}
	return stageTable
}

// later is part s of the page, drawn by draw once the start has reached
// it; until then an empty card of the same class holds its place (below
// the first screen: nothing visible moves when it fills).
func (p *playground) later(s int, id, class string, draw func() app.UI) app.UI {
	if p.stage >= s {
		return draw()
	}
	return app.Section().ID(id).Class(class).Aria("busy", "true")
}

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
	p.urlAt = q
	if p.loaded {
		if q != p.st.query() {
			p.restore(ctx, q)
		}
		return
	}
	p.loaded = true
	if !p.preloaded {
		p.load(q)
		p.les.setup = onlyLessonKeys(q)
	}
	p.loadLesson(ctx)
	if p.les.setUp {
		// The constructor applied the lesson's setup from the page's own
		// copy of the lesson: the address follows, as after a fetch.
		p.les.setUp = false
		p.writeURL(ctx)
	}
	switch {
	case p.preloaded && p.mainPage():
		// The page's herd runs when the start reaches its card
		// (nextSlice), which waits for the reader when it is below the
		// first screen.
	case p.preloaded:
		// The herd's first run (up to syncBudget) and its chart are a part
		// of the start of their own, after the first screen's.
		p.inNextTask(ctx, func(ctx app.Context) { p.herd.start(ctx, p) })
	default:
		p.herd.start(ctx, p)
	}
	p.applyLang(ctx)
	p.openPanels(ctx) // mounted already, or OnMount does it
	if p.preloaded && p.st.Lesson == 0 {
		// The first render drew the linked page already, and nothing here
		// changed what it shows (a lesson may have had to fetch its text):
		// go-app's render after OnNav would draw the same page again, in
		// the first mount's task.
		ctx.PreventUpdate()
	}
}

// onlyLessonKeys reports whether a query names a lesson and nothing of the
// state (language and presenter mode aside): the lesson's own setup then
// applies.
func onlyLessonKeys(q string) bool {
	vals, err := url.ParseQuery(q)
	if err != nil || vals.Get(keyLesson) == "" {
		return false
	}
	for k := range vals {
		if k != keyLesson && k != keyLang && k != keyPresent && k != keyTheme && k != keyView {
			return false
		}
	}
	return true
}

// restore shows the state of a history entry, or of a link followed in
// the page (a lesson's, the index's: a link that names only a lesson gets
// the lesson's own setup).
func (p *playground) restore(ctx app.Context, q string) {
	p.load(q)
	p.les.setup = onlyLessonKeys(q)
	p.loadLesson(ctx)
	p.herd.start(ctx, p)
	p.applyLang(ctx)
	p.openPanels(ctx)
}

// openPanels fills the panels a link opens (embed=; the Export panel
// fills itself).
func (p *playground) openPanels(ctx app.Context) {
	if p.st.Embed != "" {
		p.probeServer(ctx)
	}
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

// applyLang makes <html lang> and the document's title follow the page's
// language.
func (p *playground) applyLang(ctx app.Context) {
	if !app.IsClient {
		return
	}
	l := p.lang()
	doc := app.Window().Get("document")
	root := doc.Get("documentElement")
	root.Set("lang", l.Code())
	doc.Set("title", p.docTitle(l))
	// A forced theme; none follows the system (playground.css).
	if p.st.Theme != "" {
		root.Call("setAttribute", "data-theme", p.st.Theme)
	} else {
		root.Call("removeAttribute", "data-theme")
	}
}

// docTitle is the document's title: the lesson's or the view's, then the
// page's name; the page's own title on the whole page.
func (p *playground) docTitle(l i18n.Lang) string {
	switch {
	case p.st.Lesson == lessonList:
		return l.T("lesson.index") + " · " + l.T("page.title")
	case p.st.Lesson > 0 && p.les.data != nil:
		return p.les.data.Title + " · " + l.F("lesson.count", strconv.Itoa(p.st.Lesson), strconv.Itoa(lessonCount)) + " · " + l.T("page.title")
	case p.st.Lesson > 0:
		return l.F("lesson.count", strconv.Itoa(p.st.Lesson), strconv.Itoa(lessonCount)) + " · " + l.T("page.title")
	case p.st.View != "":
		return viewTitle(l, p.st.View) + " · " + l.T("page.title")
	}
	return l.T("page.doc-title")
}

// load sets the state from a URL query.
func (p *playground) load(query string) {
	p.st, p.notes = parseQuery(query)
	p.linkGen++
	p.recompute()
}

func (p *playground) OnDismount() {
	p.mounted = false
	p.herd.cancel()
}

// own is the context deferred work should use: the component's.
func (p *playground) own(ctx app.Context) app.Context {
	if p.mounted {
		return p.ctx
	}
	return ctx
}

// OnMount takes the panels' actions, listens to the keyboard and to Back,
// and draws the rest of the page.
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
	p.ctx, p.mounted = ctx, true
	for name, h := range map[string]app.ActionHandler{
		actClassify: p.onClassify, actCopy: p.onCopy, actServer: p.onServer, actImport: p.onImported,
		actDownload: p.onDownload, actLog: p.onLog, actPolicy: p.onPolicy, actPolicyB: p.onPolicyB,
		actHerd: p.onHerd, actHerdMore: p.onHerdMore, actSweep: p.onSweep, actFlowFault: p.onFlowFault, actScenario: p.onScenario, actTopology: p.onTopology,
		actExportTo:  func(ctx app.Context, a app.Action) { p.choose(ctx, &p.st.Export, a, exportTargets) },
		actEmbedView: func(ctx app.Context, a app.Action) { p.choose(ctx, &p.st.Embed, a, embedViews) },
	} {
		ctx.Handle(name, h)
	}
	// The loader's copy the wasm main kept up while the runtime started.
	if l := app.Window().GetElementByID("app-wasm-loader"); l.Truthy() {
		l.Call("remove")
	}
	postHeight()
	app.Window().Call("addEventListener", "keydown", app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		if ev.Get("altKey").Bool() || ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() {
			return nil
		}
		key, target := ev.Get("key").String(), ev.Get("target").Get("tagName").String()
		ctx.Dispatch(func(ctx app.Context) { p.onKey(ctx, key, target) })
		return nil
	}))
	if p.stage < stageAll && p.mainPage() {
		p.listenForReader(ctx)
	}
	ctx.Defer(func(ctx app.Context) {
		p.openPanels(ctx)
		p.nextSlice(ctx)
	})
	// go-app skips its own navigation when Back returns to the first
	// address it saw (it compares with its last visited URL, which our
	// writes never change): listen as well.
	app.Window().Call("addEventListener", "popstate", app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			q := app.Window().URL().RawQuery
			if q != p.st.query() {
				p.restore(ctx, q)
			}
			p.urlAt = q
		})
		return nil
	}))
}

// tableBudget bounds the Monte Carlo of decorrelated tables (and of totals
// under a deadline) so a slider move never holds the page for long: about
// 30 ms of WebAssembly for a 30-row table, ~120 ms for 1000 rows, against
// up to a second for the CLI's 1% target. The page shows the error it got.
var tableBudget = backoff.TableOptions{MaxDraws: 1 << 18, MinRuns: 200}

// recompute derives the tables and their charts from the state.
func (p *playground) recompute() {
	p.tableB = nil
	if p.st.B.On {
		// Same seed as the first: the two policies' samples differ only
		// by the policies.
		p.tableB, _ = backoff.NewTableWith(p.st.B.Policy, backoff.NewRand(p.st.Seed), tableBudget)
	}
	t, err := backoff.NewTableWith(p.st.Policy, backoff.NewRand(p.st.Seed), tableBudget)
	if err != nil {
		p.tableErr = errText(p.lang(), err, "")
		return
	}
	p.table, p.tableErr = t, ""
}

// changed is called after every accepted edit: derive, rerun the herd and
// write the URL. A discrete change (a select, a committed box) is a
// history entry, so Back undoes it; a slider drag replaces the entry.
func (p *playground) changed(ctx app.Context, discrete bool) {
	ctx = p.own(ctx)
	p.copied, p.copyText = "", ""
	p.recompute()
	p.herd.more = 0
	p.herd.start(ctx, p)
	p.urlPush = p.urlPush || discrete
	p.writeURL(ctx)
}

// writeURL replaces the address (no history entry) shortly after an
// edit, never in the input handler itself: history.replaceState took 1 to
// 12 ms in headless Chromium, on the way from a slider move to its repaint.
// Chromium also throttles it beyond about 100 calls in 10 s: one write is
// queued at a time, so a dragged slider writes at most every urlEvery, and
// the last position always.
func (p *playground) writeURL(ctx app.Context) {
	ctx = p.own(ctx)
	if p.urlQueued {
		return // the queued write reads the state when it runs
	}
	p.urlQueued = true
	ctx.After(urlEvery, func(ctx app.Context) {
		p.urlQueued = false
		p.replaceURL(ctx)
		ctx.PreventUpdate()
	})
}

// urlEvery is the shortest time between two address writes, and how long
// after an edit the address follows it.
const urlEvery = 150 * time.Millisecond

func (p *playground) replaceURL(ctx app.Context) {
	u := *ctx.Page().URL()
	if u.RawQuery != p.urlAt {
		// Back or Forward moved the address since: its handler shows
		// that entry's state, which this write would overwrite. The next
		// write starts from the address as it is now.
		p.urlPush = false
		p.urlAt = u.RawQuery
		return
	}
	q := p.st.query()
	if u.RawQuery == q {
		p.urlPush = false
		return
	}
	u.RawQuery = q
	if p.urlPush {
		p.urlPush = false
		app.Window().Get("history").Call("pushState", nil, "", u.String())
	} else {
		ctx.Page().ReplaceURL(&u)
	}
	p.urlAt = app.Window().URL().RawQuery // as the browser keeps it
}

// onLangInput applies the language chosen, unless it was arrowed to.
func (p *playground) onLangInput(ctx app.Context, e app.Event) {
	if !p.langKeyed {
		p.setLang(ctx, ctx.JSSrc().Get("value").String())
	}
}

// choose sets a panel's choice that the link keeps (the Export panel's
// library, the Embed panel's view) to the action's value, when it is one
// of allowed: a history entry.
func (p *playground) choose(ctx app.Context, field *string, a app.Action, allowed []string) {
	if v, _ := a.Value.(string); contains(allowed, v) && v != *field {
		*field = v
		p.urlPush = true
		p.writeURL(ctx)
	}
}

// onSkip moves the focus past the header and the policy's controls to the
// results.
func (p *playground) onSkip(ctx app.Context, e app.Event) {
	if el := app.Window().GetElementByID("results"); el.Truthy() {
		el.Call("focus")
	}
}

// setLang switches the page to the language code.
func (p *playground) setLang(ctx app.Context, code string) {
	l, ok := i18n.Parse(code)
	if !ok || l.Code() == p.st.Lang {
		return
	}
	p.st.Lang = l.Code()
	p.relabel()
	p.applyLang(ctx)
	p.loadLesson(ctx)
	p.urlPush = true
	p.writeURL(ctx)
}

// onLangKey and onLangBlur make the language select apply a choice, not
// each entry arrowed past: a closed select changes its value (and fires
// change) at every arrow press, and the page would switch language under
// the reader at the first. After a key, the choice applies on Enter or
// when the focus leaves the select; a pointer's choice applies at once.
func (p *playground) onLangKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Enter", " ":
		p.langKeyed = false
		p.setLang(ctx, ctx.JSSrc().Get("value").String())
	case "Tab", "Escape":
	default:
		p.langKeyed = true
	}
}

func (p *playground) onLangBlur(ctx app.Context, e app.Event) {
	if p.langKeyed {
		p.langKeyed = false
		p.setLang(ctx, ctx.JSSrc().Get("value").String())
	}
}

// relabel redraws what holds words after a change of language.
func (p *playground) relabel() {
	p.recompute()
}

// onCopyLink copies the share link. Where the clipboard is refused (an
// iframe without clipboard-write, an insecure origin) it says so and shows
// the link selected, to copy by hand: it never claims a copy it did not
// make.
func (p *playground) onCopyLink(ctx app.Context, e app.Event) {
	u := *ctx.Page().URL()
	u.RawQuery = p.st.query()
	p.copyOut(ctx, u.String(), "copy.done", "copy.manual")
}

// copyOut puts s on the clipboard and says so with done (a catalog key).
// Where the clipboard is refused (an iframe without clipboard-write, an
// insecure origin) it says manual instead (a key: "Copy this link:") and
// shows s selected, to copy by hand: it never claims a copy it did not
// make.
func (p *playground) copyOut(ctx app.Context, s, done, manual string) {
	ctx = p.own(ctx)
	byHand := func() {
		p.copied, p.copyText = manual, s
		ctx.Defer(func(ctx app.Context) {
			if el := app.Window().GetElementByID("copy-text"); el.Truthy() {
				el.Set("value", s)
				el.Call("focus")
				el.Call("select")
			}
		})
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		byHand()
		return
	}
	promise := clip.Call("writeText", s)
	var ok, fail app.Func
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			p.copied, p.copyText = done, ""
			ctx.After(2*time.Second, func(ctx app.Context) { p.copied = "" })
		})
		ok.Release()
		fail.Release()
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { byHand() })
		ok.Release()
		fail.Release()
		return nil
	})
	promise.Call("then", ok, fail)
}

func (p *playground) Render() app.UI {
	l := p.lang()
	switch {
	case p.st.Lesson == lessonList:
		return p.renderLessonIndex(l)
	case p.st.Lesson > 0:
		return p.renderLesson(l)
	case p.st.View != "":
		return p.renderView(l)
	}
	return app.Main().Class("playground").Body(
		// A button, not a link to #results: the page's links all lead under
		// its base path, and the app routes links.
		app.Button().ID("skip").Type("button").Class("skip-link").OnClick(p.onSkip).Text(l.T("page.skip")),
		app.Header().Class("top").Body(
			app.Div().Body(
				app.H1().Text(l.T("page.title")),
				app.P().Class("tagline").Text(l.T("page.tagline")),
			),
			app.Div().Class("share").Body(
				p.langSwitch(l),
				app.Button().ID("embed").Type("button").Class("secondary").Aria("expanded", boolText(p.st.Embed != "")).
					Aria("controls", "embed-panel").OnClick(p.onEmbed).Text(l.T("embed.button")),
				app.Button().ID("export").Type("button").Class("secondary").Aria("expanded", boolText(p.st.Export != "")).
					Aria("controls", "export-panel").OnClick(p.onExport).Text(l.T("export.button")),
				app.Button().ID("import").Type("button").Class("secondary").Aria("expanded", boolText(p.st.Import)).
					Aria("controls", "import-panel").OnClick(p.onImport).Text(l.T("import.button")),
				app.Button().ID("copy-link").Type("button").OnClick(p.onCopyLink).Text(l.T("copy.button")),
				p.copyStatus(l),
			),
		),
		&updateBanner{Lang: l},
		p.renderEmbedPanel(l),
		p.renderExportPanel(l),
		&importPanel{Lang: l, Open: p.st.Import},
		p.renderNotices(l),
		app.Div().Class("layout").Body(
			app.Div().Class("controls-col").Body(
				p.renderControls(l),
				p.renderPolicyB(l),
				p.renderStrip(l),
			),
			// The results' order suits a laptop's first screen: the table, then
			// the herd, then the delay charts; the style sheet places them
			// side by side on wide screens.
			app.Div().ID("results").Class("results").TabIndex(-1).Body(
				p.later(p.tableStage(), "", "card delays", func() app.UI { return p.renderDelays(l) }),
				p.later(stageHerd, "", "card herd", func() app.UI { return p.renderHerd(l, p.stage >= stageHerdControls) }),
				p.later(stageCharts, "", "card delay-charts", func() app.UI { return p.renderDelayCharts(l) }),
				p.later(stageCompare, "", "card compare", func() app.UI { return p.renderCompare(l) }),
				p.later(stageClassify, "classify", "card classify", func() app.UI { return p.renderClassify(l) }),
				p.later(stageSweep, "sweep", "card sweep", func() app.UI { return p.renderSweep(l) }),
			),
		),
		app.Footer().Class("foot").Body(
			app.P().Body(app.A().ID("lessons-link").Href("?"+p.lessonQuery(lessonList)).Text(l.T("page.lessons"))),
			app.P().Text(l.T("page.foot")),
		),
	)
}

// langSwitch is the language picker; changing it keeps every other setting.
func (p *playground) langSwitch(l i18n.Lang) app.UI {
	opts := make([]app.UI, len(i18n.Langs))
	for i, o := range i18n.Langs {
		opts[i] = app.Option().Value(o.Code()).Selected(o == l).Lang(o.Code()).Text(o.T("lang." + o.Code()))
	}
	return app.Select().ID("lang").Class("lang").Aria("label", l.T("page.lang")).
		OnChange(p.onLangInput).OnKeyDown(p.onLangKey).OnBlur(p.onLangBlur).Body(opts...)
}

func (p *playground) renderNotices(l i18n.Lang) app.UI {
	if len(p.notes) == 0 {
		return app.Div().ID("notice").Hidden(true)
	}
	items := make([]app.UI, len(p.notes))
	for i, n := range p.notes {
		items[i] = app.Li().Text(n.text(l))
	}
	return app.Div().ID("notice").Class("notice").Role("status").Body(
		app.Strong().Text(l.T("notice.head")),
		app.Ul().Body(items...),
	)
}

// renderDelays is the delay table's card.
func (p *playground) renderDelays(l i18n.Lang) app.UI {
	c := &tablePanel{Lang: l, Alone: p.alone(), Policy: p.st.Policy, A: p.table, Err: p.tableErr, Present: p.st.Present}
	if p.st.B.On {
		c.PolicyB, c.B = p.st.B.Policy, p.tableB
	}
	return c
}

// renderDelayCharts is the delay chart and the histogram of the total wait.
func (p *playground) renderDelayCharts(l i18n.Lang) app.UI {
	return &delaysPanel{Lang: l, Alone: p.alone(), A: p.table, B: p.tableB, Seed: p.st.Seed, Log: p.st.Log}
}

// onLog takes the delay chart's scale into the state and the link.
func (p *playground) onLog(ctx app.Context, a app.Action) {
	if v, ok := a.Value.(bool); ok && v != p.st.Log {
		p.st.Log = v
		p.urlPush = true
		p.writeURL(ctx)
	}
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

// focusAfter moves the keyboard focus to the element id once the next
// render has drawn it: after Compare, Remove or a lesson change the
// button pressed is gone or disabled, and the focus would fall to the
// page's body.
func (p *playground) focusAfter(ctx app.Context, id string) {
	if !app.IsClient {
		return
	}
	p.own(ctx).Defer(func(ctx app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus", map[string]any{"preventScroll": false})
		}
	})
}

// copyStatus says what a copy button did: copied, or (the clipboard
// refused) the text selected in a box, to copy by hand. Every page that
// has copy buttons shows it, an embedded view too.
func (p *playground) copyStatus(l i18n.Lang) app.UI {
	return app.Div().Class("copy-status").Body(
		app.Span().ID("copy-status").Class("status").Aria("live", "polite").Text(l.T(p.copied)),
		app.Textarea().ID("copy-text").Class("code copy-text").ReadOnly(true).Rows(copyRows(p.copyText)).
			Hidden(p.copyText == "").Aria("label", l.T(p.copied)).Text(p.copyText),
	)
}

// alone: the page is an embedded view, one card.
func (p *playground) alone() bool { return p.st.View != "" && p.st.Lesson == 0 }

// mainPage: the page is the playground itself, neither a lesson nor a
// view (which draw whole from their first render).
func (p *playground) mainPage() bool { return p.st.View == "" && p.st.Lesson == 0 }

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

// copyRows is how many lines the copy box shows for s: one for a link.
func copyRows(s string) int { return min(max(strings.Count(s, "\n")+1, 1), 8) }

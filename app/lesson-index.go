package app

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The lessons' index, ?lesson=list: each lesson's number and title, a
// link to it (in the page's language, presenter mode kept), and a link to
// the playground. The titles are the lesson files' own: the server reads
// them and the page carries them (lessonTitlesID), as it carries an open
// lesson; a page that arrives at the index from another reads the files.

// lessonTitlesID is the hidden element of a pre-rendered index that holds
// its titles.
const lessonTitlesID = "lesson-titles"

// lessonLinks are the workshop's links from a page's state: to a lesson,
// with the language, the theme and presenter mode kept and nothing of the
// state, so the lesson sets up its own; and back to the playground with
// the lesson's settings (Playground, a query).
type lessonLinks struct {
	Lang, Theme string
	Present     bool
	Playground  string
}

// linksOf are st's workshop links.
func linksOf(st *state) lessonLinks {
	s := st.content()
	s.Lesson, s.Present, s.View = 0, false, ""
	return lessonLinks{st.Lang, st.Theme, st.Present, s.query()}
}

// lesson is the query of lesson n (lessonList: the index).
func (k lessonLinks) lesson(n int) string {
	q := keyLesson + "=" + lessonValue(n)
	if k.Lang != "" {
		q += "&" + keyLang + "=" + k.Lang
	}
	if k.Theme != "" {
		q += "&" + keyTheme + "=" + k.Theme
	}
	if k.Present {
		q += "&" + keyPresent + "=1"
	}
	return q
}

// lessonIndexPage is the lessons' index, a component: it gets the
// lessons' titles in its language (from the server's files, the page's
// copy, or by fetching each file).
type lessonIndexPage struct {
	app.Compo

	Lang  i18n.Lang
	Links lessonLinks

	lang   string   // the titles' language
	titles []string // "" while one is on its way
	asked  bool     // the titles in lang were fetched
	ctx    app.Context
	live   bool // mounted: the browser's fetch is there
}

// full reports whether every title is there.
func (c *lessonIndexPage) full() bool {
	for _, t := range c.titles {
		if t == "" {
			return false
		}
	}
	return len(c.titles) == lessonCount
}

func (c *lessonIndexPage) OnInit() { c.load() }

func (c *lessonIndexPage) OnMount(ctx app.Context) {
	c.ctx, c.live = ctx, true
	c.load()
}

func (c *lessonIndexPage) OnUpdate(ctx app.Context) { c.load() }

// load gets the titles in the index's language, unless they are there.
func (c *lessonIndexPage) load() {
	lang := c.Lang.Code()
	if c.lang != lang {
		c.lang, c.titles, c.asked = lang, make([]string, lessonCount), false
	}
	if c.full() || c.asked {
		return
	}
	if !app.IsClient {
		if lessonSource == nil {
			return
		}
		for n := 1; n <= lessonCount; n++ {
			if body, ok := lessonSource(lessonPath(lang, n)); ok {
				if les, err := parseLesson(body); err == nil {
					c.titles[n-1] = les.Title
				}
			}
		}
		return
	}
	if c.fromPage() || !c.live {
		return // fetched once mounted
	}
	c.asked = true
	ctx := c.ctx
	for n := 1; n <= lessonCount; n++ {
		fetchText(lessonPath(lang, n), func(body string, status int) {
			ctx.Dispatch(func(ctx app.Context) {
				if c.lang != lang || status != 200 {
					return
				}
				if les, err := parseLesson(body); err == nil {
					c.titles[n-1] = les.Title
				}
			})
		})
	}
}

// fromPage takes the titles from the pre-rendered index's copy, when they
// are in the index's language.
func (c *lessonIndexPage) fromPage() bool {
	el := app.Window().GetElementByID(lessonTitlesID)
	if !el.Truthy() {
		return false
	}
	ds := el.Get("dataset")
	if ds.Get("lang").String() != c.lang {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(ds.Get("titles").String())
	titles := strings.Split(string(b), "\n")
	if err != nil || len(titles) != lessonCount {
		return false
	}
	c.titles = titles
	return true
}

func (c *lessonIndexPage) Render() app.UI {
	l := c.Lang
	items := make([]app.UI, lessonCount)
	for n := 1; n <= lessonCount; n++ {
		title := ""
		if n-1 < len(c.titles) {
			title = c.titles[n-1]
		}
		if title == "" {
			title = l.F("lesson.count", strconv.Itoa(n), strconv.Itoa(lessonCount))
		}
		items[n-1] = app.Li().Body(app.A().ID("lesson-link-" + strconv.Itoa(n)).Href("?" + c.Links.lesson(n)).Text(title))
	}
	cls := "playground lessons lesson-index"
	if c.Links.Present {
		cls += " present"
	}
	var source app.UI
	if app.IsServer && c.full() {
		source = app.Div().ID(lessonTitlesID).Hidden(true).DataSet("lang", c.lang).
			DataSet("titles", base64.StdEncoding.EncodeToString([]byte(strings.Join(c.titles, "\n"))))
	}
	return app.Main().Class(cls).Body(
		app.Header().Class("lesson-head").Body(
			app.H1().ID("lesson-title").TabIndex(-1).Text(l.T("lesson.index")),
			app.Div().Class("share").Body(
				&langSwitch{Lang: l},
				app.A().ID("lesson-playground").Class("button secondary").Href("?"+c.Links.Playground).Text(l.T("lesson.playground")),
			),
		),
		app.Section().Class("card lesson-text").Body(
			app.P().Text(l.T("lesson.index-intro")),
			app.Ol().ID("lesson-list").Class("lesson-list").Body(items...),
		),
		app.If(source != nil, func() app.UI { return source }),
	)
}

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

// lessonIndex is what the page holds of the index: its titles in lang
// ("" while one is on its way).
type lessonIndex struct {
	lang   string
	titles []string
}

// full reports whether every title is there.
func (x *lessonIndex) full() bool {
	for _, t := range x.titles {
		if t == "" {
			return false
		}
	}
	return len(x.titles) == lessonCount
}

// loadIndex gets the lessons' titles in the page's language: from the
// server's files, from the page's copy, or by fetching each file.
func (p *playground) loadIndex(ctx app.Context) {
	lang := p.lang().Code()
	if p.idx.lang == lang && p.idx.full() {
		return
	}
	p.idx = lessonIndex{lang: lang, titles: make([]string, lessonCount)}
	if !app.IsClient {
		if lessonSource == nil {
			return
		}
		for n := 1; n <= lessonCount; n++ {
			if body, ok := lessonSource(lessonPath(lang, n)); ok {
				if les, err := parseLesson(body); err == nil {
					p.idx.titles[n-1] = les.Title
				}
			}
		}
		return
	}
	if p.indexFromPage() {
		return
	}
	ctx = p.own(ctx)
	for n := 1; n <= lessonCount; n++ {
		fetchText(lessonPath(lang, n), func(body string, status int) {
			ctx.Dispatch(func(ctx app.Context) {
				if p.idx.lang != lang || status != 200 {
					return
				}
				if les, err := parseLesson(body); err == nil {
					p.idx.titles[n-1] = les.Title
				}
			})
		})
	}
}

// indexFromPage takes the titles from the pre-rendered index's copy, when
// they are in the page's language.
func (p *playground) indexFromPage() bool {
	el := app.Window().GetElementByID(lessonTitlesID)
	if !el.Truthy() {
		return false
	}
	ds := el.Get("dataset")
	if ds.Get("lang").String() != p.idx.lang {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(ds.Get("titles").String())
	titles := strings.Split(string(b), "\n")
	if err != nil || len(titles) != lessonCount {
		return false
	}
	p.idx.titles = titles
	return true
}

// lessonQuery is the link to lesson n (lessonList: the index) from the
// workshop's pages: the language, the theme and presenter mode kept, and
// nothing of the state, so the lesson sets up its own.
func (p *playground) lessonQuery(n int) string {
	q := keyLesson + "=" + lessonValue(n)
	if p.st.Lang != "" {
		q += "&" + keyLang + "=" + p.st.Lang
	}
	if p.st.Theme != "" {
		q += "&" + keyTheme + "=" + p.st.Theme
	}
	if p.st.Present {
		q += "&" + keyPresent + "=1"
	}
	return q
}

// playgroundQuery is the link from a lesson to the playground with the
// lesson's settings: the state without the lesson, presenter mode or a
// lesson's widget.
func (p *playground) playgroundQuery() string {
	s := p.st.content()
	s.Lesson, s.Present, s.View = 0, false, ""
	return s.query()
}

// renderLessonIndex is the lessons' index.
func (p *playground) renderLessonIndex(l i18n.Lang) app.UI {
	items := make([]app.UI, lessonCount)
	for n := 1; n <= lessonCount; n++ {
		title := ""
		if n-1 < len(p.idx.titles) {
			title = p.idx.titles[n-1]
		}
		if title == "" {
			title = l.F("lesson.count", strconv.Itoa(n), strconv.Itoa(lessonCount))
		}
		items[n-1] = app.Li().Body(app.A().ID("lesson-link-" + strconv.Itoa(n)).Href("?" + p.lessonQuery(n)).Text(title))
	}
	cls := "playground lessons lesson-index"
	if p.st.Present {
		cls += " present"
	}
	var source app.UI
	if app.IsServer && p.idx.full() {
		source = app.Div().ID(lessonTitlesID).Hidden(true).DataSet("lang", p.idx.lang).
			DataSet("titles", base64.StdEncoding.EncodeToString([]byte(strings.Join(p.idx.titles, "\n"))))
	}
	return app.Main().Class(cls).Body(
		app.Header().Class("lesson-head").Body(
			app.H1().ID("lesson-title").TabIndex(-1).Text(l.T("lesson.index")),
			app.Div().Class("share").Body(
				p.langSwitch(l),
				app.A().ID("lesson-playground").Class("button secondary").Href("?"+p.playgroundQuery()).Text(l.T("lesson.playground")),
			),
		),
		app.Section().Class("card lesson-text").Body(
			app.P().Text(l.T("lesson.index-intro")),
			app.Ol().ID("lesson-list").Class("lesson-list").Body(items...),
		),
		app.If(source != nil, func() app.UI { return source }),
	)
}

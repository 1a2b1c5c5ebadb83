//go:build !wasm

package app

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderLessonPage draws a lesson's page or the index as the server does.
func renderLessonPage(t *testing.T, q string) string {
	t.Helper()
	p := newPlayground()
	p.load(q)
	p.st.setUp(p.lang())
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(p)
}

// ?lesson=list is the lessons' index: every lesson's title (the file's
// own) in the page's language, each a link that keeps the language and
// presenter mode and names nothing else, so the lesson sets itself up; and
// a link to the playground. The link round-trips.
func TestLessonIndex(t *testing.T) {
	link := regexp.MustCompile(`<a [^>]*id="lesson-link-(\d+)"[^>]*>([^<]*)</a>`)
	for _, c := range []struct{ q, want string }{
		{"lesson=list", "lesson=%d"},
		{"lesson=list&lang=ru&present=1", "lesson=%d&lang=ru&present=1"},
	} {
		html := renderLessonPage(t, c.q)
		lang := "en"
		if strings.Contains(c.q, "lang=ru") {
			lang = "ru"
		}
		got := link.FindAllStringSubmatch(html, -1)
		if len(got) != lessonCount {
			t.Fatalf("%s: %d lesson links, want %d\n%.2000s", c.q, len(got), lessonCount, html)
		}
		for i, m := range got {
			n := i + 1
			body, ok := lessonSource(lessonPath(lang, n))
			les, err := parseLesson(body)
			if !ok || err != nil {
				t.Fatalf("lesson %d: %v", n, err)
			}
			if href := attr(m[0], "href"); m[1] != strconv.Itoa(n) || href != "?"+strings.Replace(c.want, "%d", strconv.Itoa(n), 1) || m[2] != htmlText(les.Title) {
				t.Errorf("%s: link %q to %q, want lesson %d titled %q", c.q, m[2], href, n, les.Title)
			}
		}
		if !strings.Contains(html, `id="lesson-playground"`) || !strings.Contains(html, `id="`+lessonTitlesID+`"`) {
			t.Errorf("%s: no link to the playground, or no titles for the browser", c.q)
		}
	}
	s, notes := parseQuery("lesson=list")
	def := defaultState()
	if len(notes) > 0 || s.Lesson != lessonList || s.query() != def.query()+"&lesson=list" {
		t.Errorf("lesson=list: %d, %v, %q", s.Lesson, notes, s.query())
	}
	if _, notes := parseQuery("lesson=lists"); len(notes) != 1 || !strings.Contains(notes[0].String(), "or list for the lessons' index") {
		t.Errorf("lesson=lists: %v", notes)
	}
}

// A lesson links to the index and to the playground with the lesson's
// settings: its own setup, without the lesson or presenter mode. The first
// lesson's four knobs are all there (it had no factor).
func TestLessonLinksOut(t *testing.T) {
	html := renderLessonPage(t, "lesson=1&lang=ru&present=1")
	for _, id := range []string{"jitter", "base-value", "factor-value", "cap-value", "attempts-value"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("lesson 1 has no #%s", id)
		}
	}
	if a := regexp.MustCompile(`<a [^>]*id="lesson-index"[^>]*>`).FindString(html); attr(a, "href") != "?lesson=list&lang=ru&present=1" {
		t.Errorf("the link to the index %q, want it in presenter mode and Russian", a)
	}
	a := regexp.MustCompile(`<a [^>]*id="lesson-playground"[^>]*>`).FindString(html)
	q, ok := strings.CutPrefix(attr(a, "href"), "?")
	if !ok {
		t.Fatalf("no link to the playground: %q", a)
	}
	s, notes := parseQuery(q)
	les, _ := parseLesson(must(lessonSource(lessonPath("ru", 1))))
	want, _ := parseQuery(les.Query)
	if len(notes) > 0 || s.Lesson != 0 || s.Present || s.Lang != "ru" || s.Policy != want.Policy {
		t.Errorf("the playground's link %q: lesson %d, present %v, lang %q, policy %+v, want the lesson's %+v", q, s.Lesson, s.Present, s.Lang, s.Policy, want.Policy)
	}
}

func must(s string, ok bool) string {
	if !ok {
		panic("no such file")
	}
	return s
}

// attr is the value of attribute name in tag.
func attr(tag, name string) string {
	m := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindStringSubmatch(tag)
	if m == nil {
		return ""
	}
	return m[1]
}

// htmlText is s as go-app writes text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

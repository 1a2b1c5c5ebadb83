package app

import (
	"net/url"
	"os"
	"strings"
	"testing"
)

// ?view= shows one widget with its title and a link to the whole page with
// the same state; nothing else of the page.
func TestViews(t *testing.T) {
	for _, c := range []struct {
		view       string
		has, hasnt []string
	}{
		{"table", []string{`id="delay-table"`}, []string{`id="herd-chart"`, `id="preset"`, `id="compare"`}},
		{"delays", []string{`id="delay-chart"`}, []string{`id="delay-table"`, `id="preset"`}},
		{"herd", []string{`id="herd-chart"`, `id="metric-calls"`}, []string{`id="clients-value"`, `id="preset"`, `id="delay-table"`}},
		{"compare", []string{`id="compare"`}, []string{`id="herd-chart"`, `id="preset"`}},
		{"classify", []string{`id="classify-verdict"`, `id="classify-status"`}, []string{`id="delay-table"`, `id="preset"`}},
	} {
		page := render(t, "preset=gax&attempts=4&view="+c.view+"&theme=dark")
		for _, s := range append(c.has, `id="open-full"`) {
			if !strings.Contains(page, s) {
				t.Errorf("view=%s: no %s", c.view, s)
			}
		}
		for _, s := range c.hasnt {
			if strings.Contains(page, s) {
				t.Errorf("view=%s: %s shown", c.view, s)
			}
		}
		if !strings.Contains(page, `href="?preset=gax&base=1s&factor=2&cap=30s&jitter=full&attempts=4&seed=1&clients=1000&server=outage"`) {
			t.Errorf("view=%s: the open link is not the whole page's state without view and theme", c.view)
		}
	}
	s, notes := parseQuery("view=nope&theme=purple")
	if len(notes) != 2 || s.View != "" || s.Theme != "" {
		t.Errorf("bad view and theme: %v %+v", notes, s)
	}
	s, _ = parseQuery("view=herd&theme=auto")
	if s.View != "herd" || s.Theme != "" || !strings.Contains(s.query(), "view=herd") || strings.Contains(s.query(), "theme") {
		t.Errorf("view=herd&theme=auto: %+v -> %q", s, s.query())
	}
}

func TestEmbedSnippet(t *testing.T) {
	base, _ := url.Parse("https://docs.example.com/backoff/?lang=ru")
	s, _ := parseQuery("preset=gax&attempts=4")
	got := embedSnippet(base, s, "herd", `A "herd"`)
	for _, want := range []string{
		`<iframe class="backoff-playground" src="https://docs.example.com/backoff/?preset=gax&amp;`, `&amp;view=herd"`,
		`title="A &#34;herd&#34;"`, `allow="clipboard-write"`,
		`<script src="https://docs.example.com/backoff/web/static/embed.js" defer></script>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("snippet lacks %q:\n%s", want, got)
		}
	}
	// A docs page whose Content-Security-Policy has no 'unsafe-inline'
	// for styles blocks a style attribute: embed.js styles the class.
	if strings.Contains(got, "style=") {
		t.Errorf("the snippet has a style attribute:\n%s", got)
	}
	script, err := os.ReadFile("../static/embed.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "'"+embedClass+"'") {
		t.Errorf("static/embed.js does not style the snippet's class %q", embedClass)
	}
	if page := embedSnippet(base, s, "page", "x"); strings.Contains(page, "view=") {
		t.Errorf("the whole page's snippet has a view: %s", page)
	}
}

func TestMarkdownImage(t *testing.T) {
	base, _ := url.Parse("https://pg.example/backoff/")
	s, _ := parseQuery("preset=gax&attempts=4&view=herd")
	got := markdownImage(base, s, "herd", "A herd")
	want := "[![A herd](https://pg.example/backoff/svg/herd.svg?preset=gax&base=1s&factor=2&cap=30s&jitter=full&attempts=4&seed=1&clients=1000&server=outage)](https://pg.example/backoff/?preset=gax&base=1s&factor=2&cap=30s&jitter=full&attempts=4&seed=1&clients=1000&server=outage)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if markdownImage(base, s, "classify", "x") != "" {
		t.Error("classify is not an image")
	}
}

// The snippets name the page's folder, whatever file name the address
// has (a static host serves the page as index.html too).
func TestPageBase(t *testing.T) {
	for in, want := range map[string]string{
		"https://h.example/repo/?lang=ru#x":          "https://h.example/repo/",
		"https://h.example/repo/index.html?lesson=2": "https://h.example/repo/",
		"http://127.0.0.1:8080/":                     "http://127.0.0.1:8080/",
		"http://127.0.0.1:8080":                      "http://127.0.0.1:8080/",
		"https://h.example/a%2Fb/index.html":         "https://h.example/a%2Fb/",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := pageBase(*u); got.String() != want {
			t.Errorf("pageBase(%s) = %s, want %s", in, got.String(), want)
		}
	}
}

// What an answer to a path only the server has (healthz, export) says of
// the page's host: a static host answers 404, or its page with 200 when it
// answers every unknown path so; the server answers JSON or plain text,
// errors included.
func TestAnswerHost(t *testing.T) {
	for _, c := range []struct {
		a    answer
		want int
	}{
		{answer{}, serverUnknown},
		{answer{status: 404, contentType: "text/html; charset=utf-8"}, serverNone},
		{answer{status: 404, contentType: "text/plain; charset=utf-8"}, serverNone},
		{answer{status: 200, contentType: "text/html; charset=utf-8"}, serverNone},
		{answer{status: 200, contentType: "TEXT/HTML"}, serverNone},
		{answer{status: 200, contentType: "application/xhtml+xml"}, serverNone},
		{answer{status: 200, contentType: "application/json"}, serverHere},
		{answer{status: 200, contentType: "text/plain; charset=utf-8"}, serverHere},
		{answer{status: 400, contentType: "text/plain; charset=utf-8"}, serverHere},
		{answer{status: 503, contentType: "text/plain; charset=utf-8"}, serverHere},
		{answer{status: 431, contentType: "text/html; charset=utf-8"}, serverHere},
	} {
		if got := c.a.host(); got != c.want {
			t.Errorf("%d %q: host %d, want %d", c.a.status, c.a.contentType, got, c.want)
		}
	}
}

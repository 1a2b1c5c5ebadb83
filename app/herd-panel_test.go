package app

import (
	stdhtml "html"
	"regexp"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderWith renders the page for query after set has changed the
// playground (the herd's output, say), as the server renders it.
func renderWith(t *testing.T, query string, set func(p *playground)) string {
	t.Helper()
	p := newPlayground()
	p.load(query)
	set(p)
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(p)
}

// legendKeys are the key classes of the herd's legend (key-ok, ...).
func legendKeys(t *testing.T, html string) []string {
	t.Helper()
	i := strings.Index(html, `id="herd-status"`)
	if i < 0 {
		t.Fatal("no #herd-status")
	}
	m := regexp.MustCompile(`(?s)<p class="legend">(.*?)</p>`).FindStringSubmatch(html[i:])
	if m == nil {
		t.Fatal("no legend after #herd-status")
	}
	var keys []string
	for _, k := range regexp.MustCompile(`class="key key-([a-z-]+)"`).FindAllStringSubmatch(m[1], -1) {
		keys = append(keys, k[1])
	}
	return keys
}

// The herd's legend names only what the chosen server has: occ has no
// capacity and no outage, capacity no outage.
func TestHerdLegendFollowsTheServer(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"server=occ", "ok rejected"},
		{"server=capacity", "ok rejected capacity"},
		{"server=outage", "ok rejected capacity outage"},
		{"server=outage&runs=3", "ok rejected capacity outage spread"},
	} {
		keys := legendKeys(t, render(t, c.q))
		if got := strings.Join(keys, " "); got != c.want {
			t.Errorf("%s: legend keys %q, want %q", c.q, got, c.want)
		}
	}
}

// herdStatus is the text of #herd-status.
func herdStatus(t *testing.T, html string) string {
	t.Helper()
	m := regexp.MustCompile(`<p[^>]*id="herd-status"[^>]*>([^<]*)</p>`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no #herd-status")
	}
	return stdhtml.UnescapeString(m[1])
}

// A herd run faster than a millisecond says so: the status never reads
// "in 0 ms" (nor "in 0"), in either language.
func TestHerdStatusNeverInZeroMs(t *testing.T) {
	st := defaultState()
	c := st.Herd.config(st.Policy)
	c.Clients = 10
	res, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	zero := regexp.MustCompile(`(in|за) 0([\s\x{00a0}]*(ms|мс))?(\s|$)`)
	for _, lang := range []string{"en", "ru"} {
		l, _ := i18n.Parse(lang)
		fast := l.F("herd.done-fast", l.Count(10, "herd.clients-n"))
		for _, ms := range []float64{0, 0.0004, 0.3, 0.999, 1, 1.5, 12} {
			st := herdStatus(t, renderWith(t, "lang="+lang, func(p *playground) {
				p.herd.a = &herdOut{}
				p.herd.a.add(res)
				p.herd.ms = ms
			}))
			if zero.MatchString(st) {
				t.Errorf("%s, %g ms: status %q says it took no time", lang, ms, st)
			}
			if got := st == fast; got != (ms < 1) {
				t.Errorf("%s, %g ms: status %q; the under-a-millisecond wording (%q) is for runs under 1 ms only", lang, ms, st, fast)
			}
		}
	}
}

// "On the tick" rounds every retry up to the tick too, and the clock
// arrival's entry says so in both languages, in the select and under it.
func TestClockArrivalSaysRetriesToo(t *testing.T) {
	for _, c := range []struct{ lang, short, long string }{
		{"en", "retries too", "every retry also waits for the next tick"},
		{"ru", "и повторы", "каждый повтор тоже ждёт следующего тика"},
	} {
		l, _ := i18n.Parse(c.lang)
		if got := herdLabel(l, sim.ParamArrival, "clock:1m", ""); !strings.Contains(got, c.short) {
			t.Errorf("%s: clock arrival entry %q lacks %q", c.lang, got, c.short)
		}
		html := render(t, "lang="+c.lang+"&arrival=clock:1m")
		sel := regexp.MustCompile(`(?s)<select[^>]*id="arrival".*?</select>`).FindString(html)
		opt := regexp.MustCompile(`<option[^>]*value="clock:1m"[^>]*>([^<]*)<`).FindStringSubmatch(sel)
		if opt == nil || !strings.Contains(opt[1], c.short) {
			t.Errorf("%s: the arrival select's clock entry %v lacks %q", c.lang, opt, c.short)
		}
		hint := regexp.MustCompile(`<p[^>]*id="arrival-hint"[^>]*>([^<]*)<`).FindStringSubmatch(html)
		if hint == nil || !strings.Contains(hint[1], c.long) {
			t.Errorf("%s: the hint under the arrival select %v lacks %q", c.lang, hint, c.long)
		}
	}
}

// A herd select's typed box shows only once its "custom…" entry is chosen,
// or while the link's value is none of the list's.
func TestHerdSelectCustomBox(t *testing.T) {
	box := `id="arrival-value"`
	if html := render(t, "arrival=uniform:10s"); strings.Contains(html, box) {
		t.Error("a listed arrival shows the typed box")
	}
	if html := render(t, "arrival=uniform:3s"); !strings.Contains(html, box) {
		t.Error("an arrival none of the list's has no typed box to edit it")
	}
	st, _ := parseQuery("arrival=uniform:10s")
	k := &herdKnobs{Lang: i18n.En, Link: st.Herd, Policy: st.Policy, custom: map[string]bool{sim.ParamArrival: true}}
	e := app.NewTestEngine()
	if err := e.Load(k); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	html := app.HTMLString(k)
	if !strings.Contains(html, box) {
		t.Error(`"custom…" chosen: no typed box`)
	}
	if !regexp.MustCompile(`<option[^>]*value="custom"[^>]*selected`).MatchString(html) &&
		!regexp.MustCompile(`<option[^>]*selected[^>]*value="custom"`).MatchString(html) {
		t.Error(`"custom…" chosen but not the selected entry`)
	}
}

// A queue server offers its defences: the discipline and the admission
// rule are selects, each with the sentence of the chosen one under it,
// its arguments written even where the link leaves them at their
// defaults; a server that has no queue offers neither.
func TestHerdDefencesSelects(t *testing.T) {
	for _, c := range []struct{ lang, query, id, want string }{
		{"en", "server=queue&discipline=codel", "discipline", "If the queue has not been empty in the last 100ms, a call may wait at most 5ms, else at most 100ms"},
		{"ru", "server=queue&discipline=codel", "discipline", "Если очередь не пустела последние 100\u00a0мс, вызов может ждать не больше 5\u00a0мс"},
		{"en", "server=queue&discipline=bounded:30", "discipline", "a call that finds 30 waiting is refused"},
		{"en", "server=queue&admission=aimd", "admission", "each call that waited longer than 50ms cuts it"},
		{"ru", "server=queue&admission=token-bucket:100:10", "admission", "Корзина на 10 токенов пополняется на 100 в секунду"},
	} {
		html := render(t, "lang="+c.lang+"&"+c.query)
		if !regexp.MustCompile(`<select[^>]*id="` + c.id + `"`).MatchString(html) {
			t.Errorf("%s %s: no #%s select", c.lang, c.query, c.id)
			continue
		}
		hint := regexp.MustCompile(`<p[^>]*id="` + c.id + `-hint"[^>]*>([^<]*)<`).FindStringSubmatch(html)
		if hint == nil || !strings.Contains(hint[1], c.want) {
			t.Errorf("%s %s: the sentence under #%s is %v, want it to hold %q", c.lang, c.query, c.id, hint, c.want)
		}
	}
	html := render(t, "server=outage")
	for _, id := range []string{"discipline", "admission"} {
		if strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("an outage server (no queue) offers #%s", id)
		}
	}
}

// cache-flush is one click away, with what it teaches beside it: the
// cache's knobs, the database's queue discipline, and the hit ratio among
// the results.
func TestCacheFlushInThePage(t *testing.T) {
	html := render(t, "scenario=cache-flush")
	for _, id := range []string{"cache-keys-value", "cache-ttl-value", "cache-start", "cache-zipf-value", "discipline", "admission", "metric-hit-ratio", "metric-misses"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("scenario=cache-flush: no #%s", id)
		}
	}
	if html := render(t, "server=queue&traffic=open:100"); strings.Contains(html, `id="metric-hit-ratio"`) || strings.Contains(html, `id="cache-ttl-value"`) {
		t.Error("a run without a cache shows the cache's ttl or hit ratio")
	}
}

// A chain's layer timeout is one wait or one for each layer, typed in the
// page's language: its commas separate waits, except a decimal comma
// between digits; the box shows the list back in the page's language.
func TestHerdLayerTimeoutList(t *testing.T) {
	for _, c := range []struct {
		lang  i18n.Lang
		typed string
		want  string
	}{
		{i18n.En, "2s,500ms", "2s,500ms"},
		{i18n.En, "2s, 500ms", "2s,500ms"},
		{i18n.Ru, "1,5 с, 500 мс", "1.5s,500ms"},
		{i18n.Ru, "2 с", "2s"},
		{i18n.En, "1.5", "1.5"},
	} {
		k := &herdKnobs{Lang: c.lang}
		if got := k.canonical(sim.ParamLayerTimeout, c.typed); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.lang.Code(), c.typed, got, c.want)
		}
	}
	html := render(t, "layers=3&layer-timeout=1.5s,500ms&lang=ru")
	// go-app's test rendering writes a value's no-break spaces escaped.
	if v := regexp.MustCompile(`<input[^>]*id="layer-timeout-value"[^>]*>`).FindString(html); !strings.Contains(v, `value="1,5\u00a0с, 500\u00a0мс"`) {
		t.Errorf("the box: %s", v)
	}
}

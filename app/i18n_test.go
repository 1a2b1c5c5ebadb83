package app

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// Every kind the core exports has a label in both languages.
func TestEveryKindHasALabel(t *testing.T) {
	for family, names := range kindFamilies {
		for _, n := range names() {
			key := family + "." + n
			for _, l := range i18n.Langs {
				if l.T(key) == key {
					t.Errorf("%s: no %s label for the core's %q", key, l.Code(), n)
				}
			}
		}
	}
	// Each server model's labels, as the registry names their keys.
	for _, m := range sim.Models() {
		short, long := m.Labels()
		for _, key := range []string{short, long} {
			for _, l := range i18n.Langs {
				if l.T(key) == key {
					t.Errorf("%s: no %s label for the server model %q", key, l.Code(), m.Name())
				}
			}
		}
	}
	// Each queue discipline's sentence, its arguments in the registry's
	// order as {1}, {2}.
	for _, d := range sim.Disciplines() {
		key := "discipline." + d.Name() + "-long"
		for _, l := range i18n.Langs {
			text := l.T(key)
			if text == key {
				t.Errorf("%s: no %s sentence for the queue discipline %q", key, l.Code(), d.Name())
			}
			for i := range d.Args() {
				if p := "{" + strconv.Itoa(i+1) + "}"; !strings.Contains(text, p) {
					t.Errorf("%s: the %s sentence has no %s for the argument %s", key, l.Code(), p, d.Args()[i].Name)
				}
			}
		}
	}
	// Each admission rule's sentence, its arguments as {1}, {2}.
	for _, a := range sim.AdmissionRules() {
		key := "admission." + a.Name() + "-long"
		for _, l := range i18n.Langs {
			text := l.T(key)
			if text == key {
				t.Errorf("%s: no %s sentence for the admission rule %q", key, l.Code(), a.Name())
			}
			for i := range a.Args() {
				if p := "{" + strconv.Itoa(i+1) + "}"; !strings.Contains(text, p) {
					t.Errorf("%s: the %s sentence has no %s for the argument %s", key, l.Code(), p, a.Args()[i].Name)
				}
			}
		}
	}
	// Each model's own parameter, labelled as the herd's form reads it.
	for _, n := range sim.ParamNames {
		if sim.ParamOwn(n) == nil {
			continue
		}
		for _, key := range []string{"herd." + n, "herd." + n + "-hint"} {
			for _, l := range i18n.Langs {
				if l.T(key) == key {
					t.Errorf("%s: no %s label for the own parameter %q", key, l.Code(), n)
				}
			}
		}
	}
	for _, n := range backoff.JitterNames() {
		if k := "jname." + n; i18n.Ru.T(k) == k {
			t.Errorf("no short name for the jitter kind %q", n)
		}
		// The sentence describe writes, and a label for each of its boxes.
		for _, scaled := range []bool{false, true} {
			p := backoff.Default()
			_ = p.Set(backoff.ParamJitter, n)
			p.JitterAddScaled = scaled
			suffix, _ := p.JitterWords()
			keys := []string{"desc.jitter." + suffix}
			for _, f := range p.Jitter.Params() {
				keys = append(keys, "policy."+f, "policy."+f+"-hint")
			}
			for _, key := range keys {
				for _, l := range i18n.Langs {
					if l.T(key) == key {
						t.Errorf("%s: no %s text for the jitter kind %q", key, l.Code(), n)
					}
				}
			}
		}
	}
	for _, pr := range backoff.Presets() {
		if k := "family." + pr.Family; i18n.Ru.T(k) == k {
			t.Errorf("no label for the preset family %q", pr.Family)
		}
	}
}

// Every error code the core can give is worded in both languages, never
// with the generic fallback.
func TestEveryErrorCodeIsWorded(t *testing.T) {
	for _, code := range backoff.ErrorCodes {
		fe := &backoff.FieldError{Field: "base", Value: "x", Code: code, Args: []string{"1", "2", "3"}, Other: "cap"}
		for _, l := range i18n.Langs {
			if got := ruleText(l, fe); got == l.T("err.generic") || strings.Contains(got, "{") {
				t.Errorf("%s: code %q is not worded: %q", l.Code(), code, got)
			}
		}
	}
}

// visibleText returns the text nodes and the person-facing attributes of
// rendered HTML.
func visibleText(page string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`>([^<]+)<`).FindAllStringSubmatch(page, -1) {
		if s := strings.TrimSpace(html.UnescapeString(m[1])); s != "" {
			out = append(out, s)
		}
	}
	for _, m := range regexp.MustCompile(`(?:title|aria-label|placeholder|label)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if s := strings.TrimSpace(html.UnescapeString(m[1])); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// englishOnly are the catalog's English texts that differ from their
// Russian ones and hold words.
func englishOnly() []string {
	var out []string
	for _, key := range i18n.Keys() {
		en, ru := i18n.En.T(key), i18n.Ru.T(key)
		if en == ru || !strings.ContainsFunc(en, unicode.IsLetter) {
			continue
		}
		// The part before the first placeholder: the words a leak shows.
		if i := strings.Index(en, "{"); i >= 0 {
			en = en[:i]
		}
		if len(strings.TrimSpace(en)) >= 4 {
			out = append(out, strings.TrimSpace(en))
		}
	}
	return out
}

// The page rendered in Russian shows no English UI string, for the default
// page and for pages with every optional part shown.
func TestRussianPageHasNoEnglish(t *testing.T) {
	en := englishOnly()
	for _, q := range []string{
		"lang=ru",
		"lang=ru&jitter=proportional&attempts=0&deadline=1m&bogus=1&base=fast",
		"lang=ru&preset=sidekiq&growth=geometric&steps=3&cap=1h&server=collapse&budget=ratio:0.2:3&breaker=consecutive:5:5s",
		"lang=ru&jitter=decorrelated&server=occ&arrival=clock:1m&scale=log",
	} {
		page := render(t, q)
		if !strings.Contains(page, "Политика повторов") || !strings.Contains(page, "Толпа клиентов") {
			t.Fatalf("%s: the page is not in Russian", q)
		}
		missing := regexp.MustCompile(`^[a-z0-9-]+\.[a-z0-9-]+$`)
		for _, s := range visibleText(page) {
			if missing.MatchString(s) && i18n.Ru.T(s) == s && strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz") && !strings.Contains(s, "..") {
				if _, err := backoff.LookupPreset(s); err != nil && !strings.HasSuffix(s, ".go") {
					t.Errorf("%s: %q looks like a catalog key with no entry", q, s)
				}
			}
			if _, err := backoff.LookupPreset(s); err == nil {
				continue // names stay as they are
			}
			for _, e := range en {
				if s == e || (len(e) >= 10 && strings.Contains(s, e)) {
					t.Errorf("%s: English %q in %q", q, e, s)
				}
			}
		}
	}
}

// The switch keeps the state: only the language differs in the query.
func TestLangIsInTheQuery(t *testing.T) {
	s, notes := parseQuery("preset=gax&attempts=4&lang=ru")
	if len(notes) > 0 || s.Lang != "ru" {
		t.Fatalf("lang=ru not read: %+v %v", s.Lang, notes)
	}
	if q := s.query(); !strings.HasSuffix(q, "&lang=ru") || !strings.Contains(q, "attempts=4") {
		t.Errorf("query %q", q)
	}
	s.Lang = "en"
	if q := s.query(); !strings.Contains(q, "lang=en") || !strings.Contains(q, "preset=gax") {
		t.Errorf("query after switching %q", q)
	}
	if _, notes := parseQuery("lang=fr"); len(notes) != 1 || notes[0].Key != "lang" {
		t.Errorf("lang=fr: notices %v", notes)
	}
	if s, _ := parseQuery(""); s.Lang != "" || strings.Contains(s.query(), "lang") {
		t.Error("a link without lang gained one")
	}
}

func TestRussianPageFormats(t *testing.T) {
	page := render(t, "lang=ru&base=1.5s&factor=1.5&cap=2m&attempts=4&jitter=none")
	for _, want := range []string{`value="1,5`, `value="1,5"`, `value="2`, "= 3 повтора"} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in the Russian page", want)
		}
	}
}

// Every classification reason the core gives is worded in both languages,
// with every argument it carries.
func TestEveryReasonIsWorded(t *testing.T) {
	calls := []backoff.Call{
		{Status: 200}, {Status: 999}, {Status: 401, Body: "token expired"}, {Status: 403},
		{Status: 500, Body: "invalid token"}, {Status: 503, Method: "POST"},
		{Status: 503, Body: "temporarily unavailable"}, {Status: 400, Body: "service temporarily unavailable"},
		{Status: 0}, {Status: 429, Method: "POST", IdempotencyKey: "k"}, {Status: 404}, {Status: 501},
		{Status: 599}, {Status: 418},
	}
	seen := map[string]bool{}
	for _, c := range calls {
		v := backoff.Classify(c, backoff.DefaultRules())
		seen[v.Code] = true
		for _, l := range i18n.Langs {
			got := l.T(verdictKey(v)) + ": " + verdictReason(l, v)
			if strings.Contains(got, "{") || strings.Contains(got, "reason.") {
				t.Errorf("%s: %+v worded %q", l.Code(), c, got)
			}
			for _, a := range v.Args {
				if !strings.Contains(got, a) {
					t.Errorf("%s: %q lacks the argument %q", l.Code(), got, a)
				}
			}
		}
	}
	for _, code := range backoff.ReasonCodes {
		if !seen[code] {
			t.Errorf("no test call gives the reason %q", code)
		}
	}
	v := backoff.Classify(backoff.Call{Status: 503, Header: map[string][]string{"Retry-After": {"soon"}}}, backoff.DefaultRules())
	if got := verdictReason(i18n.Ru, v); !strings.Contains(got, "Retry-After") || !strings.Contains(got, "не учтён") {
		t.Errorf("an unreadable Retry-After is not reported: %q", got)
	}
}

// aws-standard's throttling switch: shown for it alone, checked when the
// policy is the throttled schedule (base 1 s).
func TestThrottleSwitch(t *testing.T) {
	// The server render writes a true boolean attribute bare (or "true")
	// and a false one as "false" (or not at all).
	attr := func(page, tag, id, name string) string {
		el := regexp.MustCompile(`<` + tag + `[^>]*(?:id|for)="` + id + `"[^>]*>`).FindString(page)
		if el == "" {
			t.Fatalf("no <%s> for #%s", tag, id)
		}
		m := regexp.MustCompile(`\s` + name + `(?:="([^"]*)")?[\s>]`).FindStringSubmatch(el)
		switch {
		case m == nil || m[1] == "false":
			return "false"
		}
		return "true"
	}
	for _, c := range []struct{ q, hidden, checked string }{
		{"preset=aws-standard", "false", "false"},
		{"preset=aws-standard&base=1s", "false", "true"},
		{"preset=gax", "true", "false"},
		{"", "true", "false"},
	} {
		page := render(t, c.q)
		if h := attr(page, "label", "throttle", "hidden"); h != c.hidden {
			t.Errorf("%q: switch hidden=%s, want %s", c.q, h, c.hidden)
		}
		if ch := attr(page, "input", "throttle", "checked"); ch != c.checked {
			t.Errorf("%q: switch checked=%s, want %s", c.q, ch, c.checked)
		}
	}
}

// Every parameter a link or a topology can set is named in an error in
// the page's language: its label, then its key.
func TestEveryParamIsNamed(t *testing.T) {
	for _, n := range append(append([]string{}, sim.ParamNames...), backoff.ParamNames...) {
		for _, l := range i18n.Langs {
			if got := fieldName(l, n); got == n || strings.HasPrefix(got, "herd.") || strings.HasPrefix(got, "policy.") {
				t.Errorf("%s: %q is named %q", l.Code(), n, got)
			}
		}
	}
}

package i18n

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
)

func TestEveryEntryHasBothLanguages(t *testing.T) {
	for key, m := range messages {
		for _, l := range Langs {
			if strings.TrimSpace(m[l]) == "" {
				t.Errorf("%q has no %s text", key, l.Code())
			}
		}
		// The same placeholders in both: a translation must not drop one.
		for i := 1; i <= 9; i++ {
			ph := "{" + string(rune('0'+i)) + "}"
			if strings.Contains(m[En], ph) != strings.Contains(m[Ru], ph) {
				t.Errorf("%q: %s in one language only", key, ph)
			}
		}
		// A whole message of plural forms (Plural's), or a noun's forms
		// after a number's placeholder (Fill's {1|call|calls}): one|many in
		// English, one|few|many in Russian.
		en, ru := nounForms(m[En]), nounForms(m[Ru])
		if strings.Contains(m[En], "|") && len(en) == 0 {
			en = [][]string{strings.Split(m[En], "|")}
			ru = [][]string{strings.Split(m[Ru], "|")}
		}
		for _, f := range en {
			if len(f) != 2 {
				t.Errorf("%q: English forms %q want one|many", key, f)
			}
		}
		for _, f := range ru {
			if len(f) != 3 {
				t.Errorf("%q: Russian forms %q want one|few|many", key, f)
			}
		}
	}
}

// A Russian text that differs from the English one must read as Russian:
// at least one Cyrillic letter (names such as AWS stay the same in both).
func TestRussianIsRussian(t *testing.T) {
	for key, m := range messages {
		if m[Ru] == m[En] || !strings.ContainsFunc(m[En], unicode.IsLetter) {
			continue
		}
		if !strings.ContainsFunc(m[Ru], func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
			t.Errorf("%q: the Russian text %q has no Russian word", key, m[Ru])
		}
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{En.Seconds(1.5), "1.5s"},
		{Ru.Seconds(1.5), "1,5\u00a0с"},
		{Ru.Seconds(0.25), "250\u00a0мс"},
		{Ru.Seconds(90), "1\u00a0мин 30\u00a0с"},
		{Ru.Seconds(7200), "2\u00a0ч"},
		{Ru.Seconds(3 * 86400), "3\u00a0д"},
		{En.Seconds(0), "0"},
		{En.Seconds(31), "31s"},
		{En.Seconds(101 * 365.25 * 86400), "> 100 years"},
		{Ru.Seconds(1e300), "> 100 лет"},
		{En.Int(9997), "9,997"},
		{Ru.Int(9997), "9997"},
		{Ru.Int(10000), "10\u202f000"},
		{Ru.Int(1234567), "1\u202f234\u202f567"},
		{En.Int(-1234567), "-1,234,567"},
		{En.Compact(9997), "9,997"},
		{En.Compact(99999), "99,999"},
		{En.Compact(100000), "100k"},
		{En.Compact(1234567), "1.23M"},
		{Ru.Compact(1500000), "1,5\u00a0млн"},
		{En.Percent(9997, 10000), "99.9%"},
		{En.Percent(10000, 10000), "100.0%"},
		{En.Percent(1, 100000), "0.1%"},
		{En.Percent(0, 10), "0.0%"},
		{Ru.Percent(1, 8), "12,5\u00a0%"},
		{En.Ratio(5.789), "5.79×"},
		{Ru.Ratio(5.789), "5,79×"},
		{Ru.Num(1.6), "1,6"},
		{En.Count(1, "unit.retries"), "1 retry"},
		{En.Count(5, "unit.retries"), "5 retries"},
		{Ru.Count(1, "unit.retries"), "1 повтор"},
		{Ru.Count(3, "unit.retries"), "3 повтора"},
		{Ru.Count(5, "unit.retries"), "5 повторов"},
		{Ru.Count(11, "unit.retries"), "11 повторов"},
		{Ru.Count(21, "unit.retries"), "21 повтор"},
		{Ru.Count(22, "unit.retries"), "22 повтора"},
		{Ru.Count(112, "unit.retries"), "112 повторов"},
		{Fill("{2} of {1}", "a", "b"), "b of a"},
		{Fill("{1} {1|call|calls}", "1"), "1 call"},
		{Fill("{1} {1|call|calls}", "5,794"), "5,794 calls"},
		{Fill("{1} {1|call|calls}", "0.2"), "0.2 calls"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "5794"), "5794 вызова"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "11"), "11 вызовов"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "21"), "21 вызов"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "15\u202f795"), "15\u202f795 вызовов"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "0,2"), "0,2 вызова"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "1,5"), "1,5 вызова"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "12,3\u00a0тыс."), "12,3\u00a0тыс. вызовов"},
		{Fill("{1} {1|вызов|вызова|вызовов}", "1\u00a0млн"), "1\u00a0млн вызовов"},
		{Fill("{2}: {1|вызов|вызова|вызовов}", "3", "x"), "x: вызова"},
		{Ru.F("chart.desc-capacity", Ru.Compact(0.2), Ru.Seconds(0.002)), "Пропускная способность: 0,2 вызова за 2\u00a0мс."},
		{Ru.F("summary.herd", "1000 клиентов", Ru.Compact(5794), "5,79", "0"), "1000 клиентов: 5794 вызова к серверу (5,79 на клиента), сдались 0."},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// One rule for every time the page prints: three significant digits under
// a minute, then whole units of the two largest that apply, never a
// decimal minute ("1.52min" read as 1:52).
func TestSecondsAsAClock(t *testing.T) {
	for _, c := range []struct {
		sec    float64
		en, ru string
	}{
		{59.9, "59.9s", "59,9 с"},
		{59.95, "1 min", "1 мин"},
		{60, "1 min", "1 мин"},
		{91.2, "1 min 31 s", "1 мин 31 с"},
		{90, "1 min 30 s", "1 мин 30 с"},
		{496.2, "8 min 16 s", "8 мин 16 с"},
		{3599.6, "1 h", "1 ч"},
		{3660, "1 h 1 min", "1 ч 1 мин"},
		{15.7 * 3600, "15 h 42 min", "15 ч 42 мин"},
		{86400 - 10, "1 d", "1 д"},
		{3.5 * 86400, "3 d 12 h", "3 д 12 ч"},
		{-91.2, "-1 min 31 s", "-1 мин 31 с"},
	} {
		// No-break spaces between a Russian number and its unit.
		nb := func(s string) string { return regexp.MustCompile(`(\d) `).ReplaceAllString(s, "$1\u00a0") }
		if got := En.Seconds(c.sec); got != nb(c.en) {
			t.Errorf("En.Seconds(%v) = %q, want %q", c.sec, got, c.en)
		}
		if got := Ru.Seconds(c.sec); got != nb(c.ru) {
			t.Errorf("Ru.Seconds(%v) = %q, want %q", c.sec, got, c.ru)
		}
		for _, l := range Langs {
			if got := l.Seconds(c.sec); strings.ContainsAny(got, ".,") && math.Abs(c.sec) >= 60 {
				t.Errorf("%s.Seconds(%v) = %q: a decimal past a minute", l.Code(), c.sec, got)
			}
		}
	}
}

func TestCanonDuration(t *testing.T) {
	for in, want := range map[string]string{
		"1,5 с":      "1.5s",
		"250 мс":     "250ms",
		"2 мин":      "2m",
		"1 ч":        "1h",
		"1 д":        "24h",
		"1,5 д":      "36h",
		"1 мин 30 с": "1m30s",
		"51,2 мкс":   "51.2us",
		"250ms":      "250ms",
		"1.5s":       "1.5s",
		"2 min":      "2m",
		"3 sec":      "3s",
		"1d":         "24h",
		"30":         "30",
		"1,5":        "1.5",
		"fast":       "fast",
		"1e9h":       "1e9h",
		"5 лет":      "5 лет",
		"1 2":        "1 2",
	} {
		if got := CanonDuration(in); got != want {
			t.Errorf("CanonDuration(%q) = %q, want %q", in, got, want)
		}
	}
}

// What Duration prints, CanonDuration reads back to the same duration.
func TestDurationRoundTrip(t *testing.T) {
	for _, d := range []time.Duration{0, time.Nanosecond, 51200 * time.Nanosecond, 250 * time.Millisecond,
		1500 * time.Millisecond, 90 * time.Second, 2 * time.Minute, 15 * time.Minute, 36 * time.Hour,
		30 * 24 * time.Hour, 1234567 * time.Microsecond, 61 * time.Second} {
		for _, l := range Langs {
			shown := l.Duration(d, d.String())
			back, err := time.ParseDuration(CanonDuration(shown))
			if shown == "0" {
				back, err = 0, nil
			}
			if err != nil || back != d {
				t.Errorf("%s: %v shown as %q reads back as %v (%v)", l.Code(), d, shown, back, err)
			}
		}
	}
	if got := Ru.Duration(1500*time.Millisecond, "1.5s"); got != "1,5\u00a0с" {
		t.Errorf("Ru 1.5s = %q", got)
	}
}

func TestCanonNumber(t *testing.T) {
	for _, c := range []struct {
		l        Lang
		in, want string
	}{
		{Ru, "1,5", "1.5"}, {Ru, "10 000", "10000"}, {Ru, "10\u202f000", "10000"},
		{En, "10,000", "10000"}, {En, "1.5", "1.5"}, {En, "1e3", "1e3"},
	} {
		if got := c.l.CanonNumber(c.in); got != c.want {
			t.Errorf("%s CanonNumber(%q) = %q, want %q", c.l.Code(), c.in, got, c.want)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		prefs []string
		want  Lang
	}{
		{nil, En}, {[]string{"ru-RU", "en"}, Ru}, {[]string{"en-US", "ru"}, En},
		{[]string{"de", "ru"}, Ru}, {[]string{"de", "fr"}, En}, {[]string{"RU"}, Ru}, {[]string{"rue"}, En},
	} {
		if got := Detect(c.prefs); got != c.want {
			t.Errorf("Detect(%v) = %s", c.prefs, got.Code())
		}
	}
}

func FuzzCanonDuration(f *testing.F) {
	for _, s := range []string{"1,5 с", "1 мин 30 с", "1d", "", "-1s", "1..5s", "9999999999999 д", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := CanonDuration(s)
		if len(out) > 4*len(s)+64 {
			t.Fatalf("%q grew to %d bytes", s, len(out))
		}
	})
}

func TestNanoseconds(t *testing.T) {
	if got := En.Seconds(1e-9); got != "1ns" {
		t.Errorf("1 ns = %q", got)
	}
	if got := Ru.Seconds(1e-9); got != "1\u00a0нс" {
		t.Errorf("1 ns = %q", got)
	}
}

// nounForms are the noun forms after a number's placeholder in a message:
// [[call calls]] for "{1} {1|call|calls}".
func nounForms(msg string) [][]string {
	var out [][]string
	for i := 0; i+3 < len(msg); i++ {
		if msg[i] == '{' && msg[i+1] >= '1' && msg[i+1] <= '9' && msg[i+2] == '|' {
			end := strings.IndexByte(msg[i:], '}')
			if end < 0 {
				break
			}
			out = append(out, strings.Split(msg[i+3:i+end], "|"))
			i += end
		}
	}
	return out
}

// A count in a Russian sentence agrees with its number: a countable noun
// right after a number's placeholder is written as its forms ({1|вызов|
// вызова|вызовов}), which Fill picks from, never as one fixed form ("5794
// вызовов", "0,2 вызовов").
func TestRussianCountsAgree(t *testing.T) {
	stems := []string{"вызов", "клиент", "запрос", "токен", "байт", "символ", "попыт", "прогон", "отказ", "шаг", "повтор", "секунд"}
	// Placeholders that are no count of what follows them: a share ("12,5 %
	// запросов"), a probability ("с вероятностью 0,01 вызов идёт"), a time
	// before a verb ("за 10 с отказывает").
	notCounts := map[string]bool{"metric.share/1": true, "metric.share-requests/1": true, "summary.requests/1": true,
		"service-dist.bimodal-long/1": true, "breaker.ratio-long/3": true}
	for key, m := range messages {
		ru := m[Ru]
		for i := 0; i+3 < len(ru); i++ {
			if ru[i] != '{' || ru[i+2] != '}' || notCounts[key+"/"+ru[i+1:i+2]] {
				continue
			}
			word := strings.TrimLeft(ru[i+3:], " \u00a0")
			if strings.HasPrefix(word, "(") || len(word) == len(ru[i+3:]) {
				continue // no space: not a count and its noun
			}
			for _, st := range stems {
				if strings.HasPrefix(word, st) {
					t.Errorf("%q: %q follows {%c} in one form: write its forms, {%c|…|…|…}", key, strings.Fields(word)[0], ru[i+1], ru[i+1])
				}
			}
		}
	}
}

// Package i18n is the page's message catalog and its number, time and
// count formats, in English and Russian.
//
// Every string a person reads on the page comes from Lang.T or Lang.F with a
// key of the catalog; the catalog has both languages for every key (a test
// checks). It has no go-app dependency, so the charts can be drawn with it
// anywhere (page, server, CLI).
//
// Russian display conventions: a decimal comma, digits grouped by a narrow
// no-break space (U+202F, the typographic thin space that never breaks a
// number across lines), units мс, с, мин, ч, д after a no-break space:
//
//	En.Seconds(1.5)  = "1.5s"       Ru.Seconds(1.5)  = "1,5 с"
//	En.Int(9997)     = "9,997"      Ru.Int(9997)     = "9 997"
//	En.Seconds(91.2) = "1 min 31 s" Ru.Seconds(91.2) = "1 мин 31 с"
//
// A count in a sentence agrees with its number: a message writes the
// noun's forms after the number's placeholder, {1|call|calls} in English
// and {1|вызов|вызова|вызовов} in Russian, and F picks the form for the
// number it was given (Fill).
package i18n

import (
	"math"
	"strconv"
	"strings"
)

// Lang is a language of the page.
type Lang uint8

const (
	En Lang = iota
	Ru
)

// Langs lists the page's languages in the order the switch shows them.
var Langs = []Lang{En, Ru}

// Code is the language's code in URLs and <html lang>.
func (l Lang) Code() string {
	if l == Ru {
		return "ru"
	}
	return "en"
}

// Parse reads a language code (en, ru, any case).
func Parse(s string) (Lang, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "en":
		return En, true
	case "ru":
		return Ru, true
	}
	return En, false
}

// Detect picks the page's language from the browser's preferences, most
// preferred first: the first that is Russian (ru, ru-RU...) or English
// decides; with neither, English.
func Detect(prefs []string) Lang {
	for _, p := range prefs {
		p = strings.ToLower(strings.TrimSpace(p))
		switch {
		case p == "ru" || strings.HasPrefix(p, "ru-"):
			return Ru
		case p == "en" || strings.HasPrefix(p, "en-"):
			return En
		}
	}
	return En
}

// Space characters of the Russian formats.
const (
	nbsp   = "\u00a0" // between a number and its unit
	thinSp = "\u202f" // between digit groups
)

// T is the message key in l. A key missing from the catalog reads as the key
// itself, so a mistake shows on the page instead of an empty label.
func (l Lang) T(key string) string {
	if m, ok := messages[key]; ok {
		return m[l]
	}
	return key
}

// F is the message key with {1}, {2}... replaced by args, in the order
// the translation puts them.
func (l Lang) F(key string, args ...string) string {
	return Fill(l.T(key), args...)
}

// Fill replaces {1}..{9} in s by args, and {1|form|form...} by the form
// of a noun that agrees with args[0] as a number (nounForm).
func Fill(s string, args ...string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '{' && i+2 < len(s) && s[i+1] >= '1' && s[i+1] <= '9' && (s[i+2] == '}' || s[i+2] == '|') {
			n := int(s[i+1] - '1')
			if s[i+2] == '}' {
				if n < len(args) {
					b.WriteString(args[n])
				}
				i += 2
				continue
			}
			if end := strings.IndexByte(s[i:], '}'); end > 0 {
				if n < len(args) {
					b.WriteString(nounForm(args[n], strings.Split(s[i+3:i+end], "|")))
				}
				i += end
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// nounForm is the form of a noun (one|many in English, one|few|many in
// Russian) that agrees with num, a number as the page prints it: "5 794",
// "0,2", "1.5", "12,3 тыс.", "2M". A fraction takes Russian's few form,
// the genitive singular (0,2 вызова, 1,5 секунды), and English's plural; a
// number with a word for thousands or millions takes the many form (12,3
// тыс. вызовов); a whole number the usual rule (Plural).
func nounForm(num string, forms []string) string {
	if len(forms) == 0 {
		return ""
	}
	pick := func(i int) string { return forms[min(i, len(forms)-1)] }
	digits, frac, scaled := "", false, false
	for _, r := range num {
		switch {
		case r >= '0' && r <= '9':
			digits += string(r)
		case r == '.' || r == ',':
			// A comma is Russian's decimal mark (1,5) and English's
			// thousands separator (10,000): three forms are Russian's.
			frac = frac || r == '.' || len(forms) == 3
		case r == ' ' || r == '\u00a0' || r == '\u202f' || r == '-' || r == '+' || r == '−':
		default:
			scaled = scaled || digits != ""
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	switch {
	case err != nil || scaled:
		return pick(len(forms) - 1)
	case frac:
		return pick(1)
	case len(forms) == 3:
		return pick(pluralIndex(Ru, n))
	}
	return pick(pluralIndex(En, n))
}

// pluralIndex is which form a whole number n takes: one, few, many in
// Russian (1 повтор, 2 повтора, 5 повторов, 11 повторов, 21 повтор); one,
// many in English.
func pluralIndex(l Lang, n int64) int {
	if n < 0 {
		n = -n
	}
	if l == Ru {
		switch d, dd := n%10, n%100; {
		case d == 1 && dd != 11:
			return 0
		case d >= 2 && d <= 4 && (dd < 12 || dd > 14):
			return 1
		}
		return 2
	}
	if n == 1 {
		return 0
	}
	return 1
}

// Plural picks the form of a count: forms is "one|many" in English and
// "one|few|many" in Russian (1 повтор, 2 повтора, 5 повторов).
func (l Lang) Plural(n int64, key string) string {
	forms := strings.Split(l.T(key), "|")
	i := pluralIndex(l, n)
	if l == Ru && len(forms) != 3 {
		i = pluralIndex(En, n)
	}
	if i >= len(forms) {
		i = len(forms) - 1
	}
	return forms[i]
}

// Count is n and the right form of key: "5 retries", "5 повторов".
func (l Lang) Count(n int64, key string) string {
	return l.Int(n) + " " + l.Plural(n, key)
}

// Int prints a whole number with grouped thousands: 9,997 or 9 997.
// Russian groups only from five digits (1000, 10 000), as its typography
// does.
func (l Lang) Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	sep := ","
	if l == Ru {
		sep = thinSp
		if len(s) <= 4 {
			sep = ""
		}
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && sep != "" && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Float prints v with prec decimals (-1: as few as needed), in l's decimal
// mark.
func (l Lang) Float(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	return l.decimal(s)
}

// decimal turns a Go number's decimal point into l's mark and groups a long
// integer part.
func (l Lang) decimal(s string) string {
	ip, fp, hasFrac := strings.Cut(s, ".")
	if n, err := strconv.ParseInt(ip, 10, 64); err == nil && len(strings.TrimPrefix(ip, "-")) > 4 {
		ip = l.Int(n)
		if n == 0 && strings.HasPrefix(s, "-") {
			ip = "-" + ip
		}
	}
	if !hasFrac {
		return ip
	}
	if l == Ru {
		return ip + "," + fp
	}
	return ip + "." + fp
}

// Num prints a parameter's value as people read it: Go's shortest form with
// l's decimal mark (1.5 or 1,5).
func (l Lang) Num(v float64) string {
	return l.decimal(strconv.FormatFloat(v, 'f', -1, 64))
}

// NumText is a value in Go syntax (a URL's or Get's) in l's decimal mark.
func (l Lang) NumText(s string) string {
	if l == Ru {
		return strings.ReplaceAll(s, ".", ",")
	}
	return s
}

// Unit names, largest first.
var units = []struct {
	sec    float64
	en, ru string
}{
	{86400, "d", "д"},
	{3600, "h", "ч"},
	{60, "min", "мин"},
	{1, "s", "с"},
	{1e-3, "ms", "мс"},
	{1e-6, "µs", "мкс"},
	{1e-9, "ns", "нс"},
}

// centurySec is 100 years: anything longer prints as "> 100 years", since
// more digits would only pretend to matter.
const centurySec = 100 * 365.25 * 86400

// Seconds prints a time for people. Under a minute: three significant
// digits in the largest unit that keeps the number at least 1 (9.63s,
// 428ms, 1,5 с). From a minute on, as a clock is read: whole units of the
// two largest that apply, the smaller rounded, and left out when 0
// (1 min 31 s, 2 min, 15 h 42 min, 3 d 12 h; 1 мин 31 с), never a decimal
// minute that reads as a clock's 1:52. 0 is 0; beyond 100 years, as such.
func (l Lang) Seconds(sec float64) string {
	switch {
	case math.IsNaN(sec):
		return "—"
	case sec == 0:
		return "0"
	case sec < 0:
		return "-" + l.Seconds(-sec)
	case sec > centurySec:
		return l.T("time.century")
	case sec >= 59.95: // 59.95 s would print as 60s
		return l.clock(sec)
	}
	for i, u := range units {
		if sec >= u.sec || i == len(units)-1 {
			return l.unit(sig3(sec/u.sec), u.en, u.ru)
		}
	}
	return ""
}

// clock prints sec (a minute or more) in whole units of the two largest
// that apply: days and hours, hours and minutes, or minutes and seconds,
// rounded to the smaller.
func (l Lang) clock(sec float64) string {
	const minute, hour, day = 60, 3600, 86400
	big, small := units[2], units[3] // minutes and seconds
	n := math.Round(sec)
	switch {
	case math.Round(sec/minute) >= 24*60:
		big, small, n = units[0], units[1], math.Round(sec/hour)
	case math.Round(sec) >= hour:
		big, small, n = units[1], units[2], math.Round(sec/minute)
	}
	per := math.Round(big.sec / small.sec)
	whole, rest := math.Floor(n/per), math.Mod(n, per)
	// Each unit stands apart from its number, as words do, after a
	// no-break space: a line breaks between the reading's two parts
	// (8 min / 16 s, as a narrow card needs), never inside one ("p99 1" /
	// "min 1 s").
	big1, small1 := big.en, small.en
	if l == Ru {
		big1, small1 = big.ru, small.ru
	}
	s := l.decimal(strconv.FormatFloat(whole, 'f', 0, 64)) + nbsp + big1
	if rest > 0 {
		s += " " + l.decimal(strconv.FormatFloat(rest, 'f', 0, 64)) + nbsp + small1
	}
	return s
}

func (l Lang) unit(num, en, ru string) string {
	if l == Ru {
		return l.decimal(num) + nbsp + ru
	}
	return num + en
}

// sig3 prints x > 0 with three significant digits, no trailing zeros.
func sig3(x float64) string {
	digits := max(2-int(math.Floor(math.Log10(x))), 0)
	s := strconv.FormatFloat(x, 'f', digits, 64)
	if digits > 0 {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Compact prints a count for an axis or a card: exact below 100,000 (9,997
// is not "10k"), else three significant digits with k or M (тыс., млн).
func (l Lang) Compact(v float64) string {
	a := math.Abs(v)
	if a < 1e5 {
		if v == math.Trunc(v) {
			return l.Int(int64(v))
		}
		return l.Float(math.Round(v*10)/10, -1)
	}
	if a < 1e6 {
		return l.unit(sig3(v/1e3), "k", "тыс.")
	}
	if a < 1e9 {
		return l.unit(sig3(v/1e6), "M", "млн")
	}
	return l.unit(sig3(v/1e9), "G", "млрд")
}

// Ratio prints a multiple with two decimals: 5.79× (5,79×).
func (l Lang) Ratio(v float64) string { return l.Float(v, 2) + "×" }

// Percent prints part of whole with one decimal. It shows 100.0% or 0.0%
// only when exact: 9,997 of 10,000 is 99.9%, never 100.0%.
func (l Lang) Percent(part, whole float64) string {
	if whole <= 0 {
		return "—"
	}
	p := 100 * part / whole
	r := math.Round(p*10) / 10
	switch {
	case part > 0 && r == 0:
		r = 0.1
	case part < whole && r == 100:
		r = 99.9
	}
	s := l.Float(r, 1)
	if l == Ru {
		return s + nbsp + "%"
	}
	return s + "%"
}

// Keys lists the catalog's keys (for tests that check pages against it).
func Keys() []string {
	out := make([]string, 0, len(messages))
	for k := range messages {
		out = append(out, k)
	}
	return out
}

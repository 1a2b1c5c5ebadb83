package i18n

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Duration prints a duration for a typed box: Go syntax in English (250ms,
// 1.5s, 2m30s: what links and flags use), and in Russian one unit with a
// decimal comma when that is exact (250 мс, 1,5 с, 2,5 мин), which
// CanonDuration reads back to the same value.
func (l Lang) Duration(d time.Duration, goText string) string {
	if l != Ru {
		return goText
	}
	if d == 0 {
		return "0"
	}
	for _, u := range durUnits {
		if u.d > d && u.d != time.Nanosecond {
			continue
		}
		// At most three decimals, and only when exact.
		q := float64(d) / float64(u.d)
		if r := math.Round(q*1000) / 1000; time.Duration(math.Round(r*float64(u.d))) == d {
			return l.decimal(strconv.FormatFloat(r, 'f', -1, 64)) + nbsp + u.ru
		}
	}
	return goText
}

// durUnits are the units a typed duration may use, largest first; Go's
// syntax has no day, so days become hours.
var durUnits = []struct {
	d       time.Duration
	goUnit  string
	ru      string
	spoken  []string // other spellings, English and Russian
	perUnit float64  // Go units per unit (24 for days)
}{
	{24 * time.Hour, "h", "д", []string{"d", "day", "days", "дн", "дня", "дней", "день", "сут"}, 24},
	{time.Hour, "h", "ч", []string{"h", "hr", "hour", "hours", "час", "часа", "часов"}, 1},
	{time.Minute, "m", "мин", []string{"m", "min", "mins", "minute", "minutes", "минута", "минуты", "минут"}, 1},
	{time.Second, "s", "с", []string{"s", "sec", "secs", "second", "seconds", "сек", "секунда", "секунды", "секунд"}, 1},
	{time.Millisecond, "ms", "мс", []string{"ms", "msec", "millisecond", "milliseconds"}, 1},
	{time.Microsecond, "us", "мкс", []string{"us", "µs", "μs", "microsecond", "microseconds"}, 1},
	{time.Nanosecond, "ns", "нс", []string{"ns", "nanosecond", "nanoseconds"}, 1},
}

// CanonDuration turns a typed duration into the Go syntax the core parses:
// a decimal comma becomes a point, spaces go, and Russian or spelled-out
// units become Go's ("1,5 с" -> "1.5s", "2 мин" -> "2m", "1 д" -> "24h",
// "1 мин 30 с" -> "1m30s"). A bare number stays a bare number (seconds).
// Text it cannot read is returned as typed, for the core to refuse.
func CanonDuration(s string) string {
	in := strings.TrimSpace(s)
	if in == "" || len(in) > 64 {
		return in
	}
	t := strings.ReplaceAll(in, ",", ".")
	var b strings.Builder
	rest := t
	for {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			break
		}
		// A number.
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.' || (i == 0 && (rest[i] == '-' || rest[i] == '+'))) {
			i++
		}
		if i == 0 {
			return in
		}
		num := rest[:i]
		rest = strings.TrimLeftFunc(rest[i:], unicode.IsSpace)
		// A unit: letters up to the next digit or space.
		j := 0
		for j < len(rest) {
			r, size := rune(rest[j]), 1
			if r >= 0x80 {
				r, size = utf8.DecodeRuneInString(rest[j:])
			}
			if unicode.IsDigit(r) || unicode.IsSpace(r) || r == '.' {
				break
			}
			j += size
		}
		unit := strings.TrimSuffix(strings.ToLower(rest[:j]), ".")
		rest = rest[j:]
		if unit == "" {
			if b.Len() > 0 || strings.TrimSpace(rest) != "" {
				return in // a bare number must stand alone
			}
			return num
		}
		found := false
		for _, u := range durUnits {
			if unit != u.ru && !contains(u.spoken, unit) {
				continue
			}
			found = true
			if u.perUnit != 1 {
				f, err := strconv.ParseFloat(num, 64)
				if err != nil {
					return in
				}
				num = strconv.FormatFloat(f*u.perUnit, 'f', -1, 64)
			}
			b.WriteString(num)
			b.WriteString(u.goUnit)
			break
		}
		if !found {
			return in
		}
	}
	return b.String()
}

// CanonNumber turns a typed number into Go syntax: digit-group spaces go,
// and a comma is Russian's decimal mark ("1,5" -> "1.5") or English's
// thousands separator ("10,000" -> "10000").
func (l Lang) CanonNumber(s string) string {
	t := strings.TrimSpace(s)
	t = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009' {
			return -1
		}
		return r
	}, t)
	if l == Ru && strings.Count(t, ",") == 1 && !strings.Contains(t, ".") {
		return strings.Replace(t, ",", ".", 1)
	}
	if l == En && strings.Contains(t, ",") && !strings.ContainsAny(t, "eE") {
		return strings.ReplaceAll(t, ",", "")
	}
	return t
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

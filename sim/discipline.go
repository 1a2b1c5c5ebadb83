package sim

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// A queue discipline is how the queue server treats the calls waiting in
// its queue: which one a free worker takes, which arriving call finds no
// room, which call has waited too long to be worth serving. Each is a
// part in its own file (discipline_NAME.go) that registers itself; its
// name, arguments and help are read from the registry by Set, Get,
// Validate, the CLI's help and the page, and a run resolves
// Config.Discipline once per server (QueueDiscipline.start), so that the
// queue server's hot path makes interface calls, never lookups.

// DisciplineKind is a registered discipline's place in DisciplineNames.
// The zero value is fifo.
type DisciplineKind uint8

// MaxDisciplineArgs is how many arguments a discipline may take.
const MaxDisciplineArgs = 2

// Discipline is the queue server's queue discipline with its arguments.
// Text form (Set/Get "discipline"): NAME[:ARG[:ARG]] as the kind
// declares it (DisciplineSyntax): fifo, lifo, bounded:N, codel[:N[:M]],
// adaptive-lifo[:N]. Get writes the canonical form: trailing arguments at
// their defaults left out. A plain value, compared with ==; the zero
// value is fifo.
type Discipline struct {
	Kind DisciplineKind
	// Args are the arguments in the kind's declared order, each in its
	// ParamKind's unit (nanoseconds for a duration); an optional one left
	// out holds its default.
	Args [MaxDisciplineArgs]float64
}

// DisciplineArg declares one argument of a discipline.
type DisciplineArg struct {
	// Name is the argument as the syntax writes it: N, M.
	Name string
	// Kind is IntParam or DurationParam.
	Kind ParamKind
	// Min and Max bound it (inclusive), Default is its value when left
	// out (Optional): numbers, or seconds for a DurationParam.
	Min, Max, Default float64
	Optional          bool
}

// QueueDiscipline is one registered discipline. Implementations are
// stateless values; what a run keeps lives in what start returns. The
// unexported method keeps implementations in this package: a discipline
// is a file here, registered from its init with registerDiscipline.
type QueueDiscipline interface {
	// Name is its value for --discipline and the URL's "discipline" key.
	Name() string
	// Args are its arguments, in the order the syntax takes them; a
	// required one may not follow an optional one.
	Args() []DisciplineArg
	// Help is the CLI's sentence for it, in English; the page's words
	// are the catalog's "discipline.NAME" and "discipline.NAME-hint".
	Help() string
	// start is the discipline at work in one queue server for one run,
	// with d's arguments (validated).
	start(d *Discipline) queueDisc
}

// queueDisc is a discipline at work in one queue server during a run. The
// server tells it how long its queue has been non-empty (backlog, seconds;
// 0 while empty): both of Maurer's disciplines ("Fail at Scale", ACM Queue
// 2015) key on the last time the queue was empty. Not safe for concurrent
// use.
type queueDisc interface {
	// arrive: a call arrives to find waiting live calls queued (no free
	// worker). full refuses it at once (a 503); else it joins the queue
	// carrying class, which overdue reads back.
	arrive(waiting int, backlog float64) (full bool, class uint8)
	// newest reports whether a free worker takes the newest waiting call
	// rather than the oldest.
	newest(backlog float64) bool
	// overdue reports whether a call of class that has waited seconds
	// when a worker would take it is refused instead (a 503).
	overdue(class uint8, waited float64) bool
}

// disciplines is the registry, indexed by DisciplineKind. Written only
// while the package initialises, so reading it needs no lock.
var disciplines []QueueDiscipline

// registerDiscipline puts a discipline at its place in the list the CLI
// and the page show (files initialise in name order, not the list's). It
// panics on a place or name taken or a malformed argument list:
// programming errors, found as the package initialises.
//
//go:noinline
func registerDiscipline(k DisciplineKind, d QueueDiscipline) {
	for len(disciplines) <= int(k) {
		disciplines = append(disciplines, nil)
	}
	args := d.Args()
	bad := disciplines[k] != nil || len(args) > MaxDisciplineArgs || d.Name() == "" || strings.ContainsAny(d.Name(), ": ")
	for i, a := range args {
		bad = bad || !(a.Min <= a.Default && a.Default <= a.Max) || a.Kind == FloatParam ||
			i > 0 && args[i-1].Optional && !a.Optional ||
			a.Kind == DurationParam && a.Max > MaxOwnDuration.Seconds()
	}
	for _, o := range disciplines {
		bad = bad || o != nil && o.Name() == d.Name()
	}
	if bad {
		panic("sim: queue discipline " + d.Name() + " registered twice or malformed")
	}
	disciplines[k] = d
}

// Disciplines lists the registered disciplines, indexed by
// DisciplineKind. The slice is a copy.
func Disciplines() []QueueDiscipline { return slices.Clone(disciplines) }

// DisciplineNames lists every discipline's name, indexed by
// DisciplineKind: the names Set and the URL accept.
func DisciplineNames() []string {
	names := make([]string, len(disciplines))
	for i, d := range disciplines {
		names[i] = d.Name()
	}
	return names
}

// DisciplineSyntax is d's text form with its arguments, optional ones in
// brackets: "codel[:N[:M]]", "bounded:N".
func DisciplineSyntax(d QueueDiscipline) string {
	s, closing := d.Name(), ""
	for _, a := range d.Args() {
		if a.Optional {
			s += "["
			closing += "]"
		}
		s += ":" + a.Name
	}
	return s + closing
}

// DisciplineRanges words d's arguments' ranges and defaults in English:
// "N from 1 to 1000000000". Empty for a discipline without arguments.
func DisciplineRanges(d QueueDiscipline) string {
	var parts []string
	for _, a := range d.Args() {
		s := a.Name + " from " + a.format(a.Min) + " to " + a.format(a.Max)
		if a.Optional {
			s += " (default " + a.format(a.Default) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// disciplineForms are every discipline's syntax, as CodeFormat's Args.
func disciplineForms() []string {
	forms := make([]string, len(disciplines))
	for i, d := range disciplines {
		forms[i] = DisciplineSyntax(d)
	}
	return forms
}

// format is a value of a's, in seconds for a duration, as Get writes it.
func (a *DisciplineArg) format(v float64) string {
	if a.Kind == DurationParam {
		return backoff.FormatDuration(time.Duration(math.Round(v * float64(time.Second))))
	}
	return strconv.Itoa(int(v))
}

// scale is what a value in a's Min/Max/Default unit is multiplied by to
// be stored in Discipline.Args.
func (a *DisciplineArg) scale() float64 {
	if a.Kind == DurationParam {
		return float64(time.Second)
	}
	return 1
}

// QueueDiscipline is d's registered discipline, nil for none.
func (d *Discipline) QueueDiscipline() QueueDiscipline {
	if int(d.Kind) < len(disciplines) {
		return disciplines[d.Kind]
	}
	return nil
}

// Arg is d's i-th argument in its unit: a count, or seconds for a
// duration.
func (d *Discipline) Arg(i int) float64 {
	if q := d.QueueDiscipline(); q != nil && i < len(q.Args()) {
		return d.Args[i] / q.Args()[i].scale()
	}
	return 0
}

// defaultDiscipline is kind k with every argument at its default (the
// required ones too, where a config built in code starts).
func defaultDiscipline(k DisciplineKind) Discipline {
	d := Discipline{Kind: k}
	for i, a := range disciplines[k].Args() {
		d.Args[i] = a.Default * a.scale()
	}
	return d
}

func (d *Discipline) text() string {
	q := d.QueueDiscipline()
	if q == nil {
		return "unknown"
	}
	args := q.Args()
	n := len(args)
	for n > 0 && args[n-1].Optional && d.Args[n-1] == args[n-1].Default*args[n-1].scale() {
		n--
	}
	s := q.Name()
	for i := range n {
		v := d.Args[i]
		if args[i].Kind == DurationParam {
			s += ":" + backoff.FormatDuration(time.Duration(v))
		} else {
			s += ":" + strconv.Itoa(int(v))
		}
	}
	return s
}

// parseDiscipline reads a discipline's text form.
func parseDiscipline(v string) (Discipline, error) {
	name, rest, _ := strings.Cut(v, ":")
	k, err := parseEnum[DisciplineKind](ParamDiscipline, name, DisciplineNames())
	if err != nil {
		return Discipline{}, formatErr(ParamDiscipline, v, disciplineForms())
	}
	q := disciplines[k]
	args := q.Args()
	var given []string
	if rest != "" || strings.Contains(v, ":") {
		given = strings.Split(rest, ":")
	}
	need := 0
	for _, a := range args {
		if !a.Optional {
			need++
		}
	}
	if len(given) < need || len(given) > len(args) {
		return Discipline{}, formatErr(ParamDiscipline, v, disciplineForms())
	}
	d := defaultDiscipline(k)
	for i, s := range given {
		a := &args[i]
		s = strings.TrimSpace(s)
		var f float64
		switch a.Kind {
		case IntParam:
			n, err := backoff.ParseInt(ParamDiscipline, s, int(a.Min), int(a.Max))
			if err != nil {
				return Discipline{}, discArgErr(err, v, q, a)
			}
			f = float64(n)
		default:
			lo, hi := a.dur(a.Min), a.dur(a.Max)
			t, err := backoff.ParseDuration(ParamDiscipline, s, hi)
			if err != nil { // not a duration: the same words as one out of range
				err = &backoff.FieldError{Field: ParamDiscipline, Code: backoff.CodeDuration,
					Args: []string{backoff.FormatDuration(lo), backoff.FormatDuration(hi)}}
			} else {
				err = backoff.CheckDuration(ParamDiscipline, t, lo, hi)
			}
			if err != nil {
				return Discipline{}, discArgErr(err, v, q, a)
			}
			f = float64(t)
		}
		d.Args[i] = f
	}
	return d, nil
}

func (a *DisciplineArg) dur(sec float64) time.Duration {
	return time.Duration(math.Round(sec * float64(time.Second)))
}

// discArgErr restates an argument's range error as one about the whole
// value, naming the argument and the discipline's syntax and ranges.
func discArgErr(err error, v string, q QueueDiscipline, a *DisciplineArg) error {
	return partErr(err, v, a.Name, DisciplineSyntax(q)+" with "+DisciplineRanges(q))
}

// validate checks d on a config built in code, as parseDiscipline would
// have, and that only the queue server has a queue to order.
func (d *Discipline) validate(c *Config) error {
	q := d.QueueDiscipline()
	if q == nil {
		return formatErr(ParamDiscipline, d.text(), disciplineForms())
	}
	for i, a := range q.Args() {
		v := d.Args[i]
		var err error
		if a.Kind == IntParam {
			n := int(v)
			if float64(n) != v { // 2.5, NaN: out of range as ParseInt would find them
				n = int(a.Min) - 1
			}
			err = backoff.CheckInt(ParamDiscipline, n, int(a.Min), int(a.Max))
		} else {
			err = backoff.CheckDuration(ParamDiscipline, time.Duration(v), a.dur(a.Min), a.dur(a.Max))
		}
		if err != nil {
			return discArgErr(err, d.text(), q, &a)
		}
	}
	if d.Kind != 0 && !c.UsesField(ParamDiscipline) {
		first := disciplines[0].Name()
		return &backoff.FieldError{Field: ParamDiscipline, Value: clip(d.text()), Code: backoff.CodeNeeds, Other: ParamServer,
			Args:    []string{c.Server.String(), first, first},
			Allowed: first + " with the " + c.Server.String() + " server (only the queue server has a queue to order)"}
	}
	return nil
}

// start is d at work in one server for one run.
func (d *Discipline) start() queueDisc { return disciplines[d.Kind].start(d) }

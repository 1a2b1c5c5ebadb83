package sim

import (
	"slices"
	"strings"

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

// Discipline is the queue server's queue discipline with its arguments.
// Text form (Set/Get "discipline"): NAME[:ARG[:ARG]] as the kind
// declares it (DisciplineSyntax): fifo, lifo, bounded:N, codel[:N[:M]],
// adaptive-lifo[:N]. Get writes the canonical form: trailing arguments at
// their defaults left out. A plain value, compared with ==; the zero
// value is fifo.
type Discipline struct {
	Kind DisciplineKind
	Args PartArgs
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
	Args() []PartArg
	// Help is the CLI's sentence for it, in English; the page's words
	// are the catalog's "discipline.NAME" and "discipline.NAME-hint"
	// (the arguments as {1}, {2}).
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
// panics on a place or name taken or malformed arguments: programming
// errors, found as the package initialises.
//
//go:noinline
func registerDiscipline(k DisciplineKind, d QueueDiscipline) {
	for len(disciplines) <= int(k) {
		disciplines = append(disciplines, nil)
	}
	checkPartArgs("queue discipline "+d.Name(), d.Args())
	bad := disciplines[k] != nil || d.Name() == "" || strings.ContainsAny(d.Name(), ": ")
	for _, o := range disciplines {
		bad = bad || o != nil && o.Name() == d.Name()
	}
	if bad {
		panic("sim: queue discipline " + d.Name() + " registered twice or misnamed")
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
func DisciplineSyntax(d QueueDiscipline) string { return partSyntax(d.Name(), d.Args()) }

// DisciplineRanges words d's arguments' ranges and defaults in English:
// "N from 1 to 1000000000". Empty for a discipline without arguments.
func DisciplineRanges(d QueueDiscipline) string { return partRanges(d.Args()) }

// disciplineForms are every discipline's syntax, as CodeFormat's Args.
func disciplineForms() []string {
	forms := make([]string, len(disciplines))
	for i, d := range disciplines {
		forms[i] = DisciplineSyntax(d)
	}
	return forms
}

// QueueDiscipline is d's registered discipline, nil for none.
func (d *Discipline) QueueDiscipline() QueueDiscipline {
	if int(d.Kind) < len(disciplines) {
		return disciplines[d.Kind]
	}
	return nil
}

// Arg is d's i-th argument in its declared unit: a count, or seconds for
// a duration.
func (d *Discipline) Arg(i int) float64 {
	if q := d.QueueDiscipline(); q != nil && i < len(q.Args()) {
		return d.Args[i] / q.Args()[i].scale()
	}
	return 0
}

func (d *Discipline) text() string {
	q := d.QueueDiscipline()
	if q == nil {
		return "unknown"
	}
	return partText(q.Name(), q.Args(), &d.Args)
}

// parseDiscipline reads a discipline's text form.
func parseDiscipline(v string) (Discipline, error) {
	name, rest, colon := strings.Cut(v, ":")
	k, err := parseEnum[DisciplineKind](ParamDiscipline, name, DisciplineNames())
	if err != nil {
		return Discipline{}, formatErr(ParamDiscipline, v, disciplineForms())
	}
	q := disciplines[k]
	args, err := parsePartArgs(ParamDiscipline, v, q.Name(), rest, colon, q.Args(), disciplineForms())
	if err != nil {
		return Discipline{}, err
	}
	return Discipline{Kind: k, Args: args}, nil
}

// validate checks d on a config built in code, as parseDiscipline would
// have, and that only the queue server has a queue to order.
func (d *Discipline) validate(c *Config) error {
	q := d.QueueDiscipline()
	if q == nil {
		return formatErr(ParamDiscipline, d.text(), disciplineForms())
	}
	if err := checkPartValues(ParamDiscipline, d.text(), q.Name(), q.Args(), &d.Args); err != nil {
		return err
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

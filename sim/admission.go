package sim

import (
	"math"
	"slices"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// An admission rule decides, as a call reaches the queue server, whether
// it is let in at all: a rate limit (token bucket, fixed or sliding
// window) or a concurrency limit. A call refused gets a 429, carrying a
// Retry-After where the rule knows when a call would be let in (the rate
// limits do; a concurrency limit does not). Each rule is a part in its
// own file (admission_NAME.go) that registers itself, as the queue
// disciplines do; a run resolves Config.Admission once per server.

// AdmissionKind is a registered rule's place in AdmissionNames. The zero
// value is none.
type AdmissionKind uint8

// Admission is the queue server's admission rule with its arguments.
// Text form (Set/Get "admission"): none, token-bucket:RATE:BURST,
// fixed-window:N:W, sliding-window:N:W, concurrency:N, aimd[:TARGET]. A plain value,
// compared with ==; the zero value lets every call in.
type Admission struct {
	Kind AdmissionKind
	Args PartArgs
}

// AdmissionRule is one registered rule. Implementations are stateless
// values; what a run keeps lives in what start returns. A rule is a file
// here, registered from its init with registerAdmission.
type AdmissionRule interface {
	// Name is its value for --admission and the URL's "admission" key.
	Name() string
	// Args are its arguments, in the order the syntax takes them.
	Args() []PartArg
	// Help is the CLI's sentence for it, in English; the page's words
	// are the catalog's "admission.NAME" and "admission.NAME-hint" (the
	// arguments as {1}, {2}).
	Help() string
	// start is the rule at work in one queue server for one run, with
	// a's arguments (validated).
	start(a *Admission) admitter
}

// admitter is a rule at work in one queue server during a run. Not safe
// for concurrent use.
type admitter interface {
	// admit: a call reaches the server at t (in time order) and finds
	// inside calls there, waiting or in service. ok lets it in (and
	// counts it); else the server refuses it with a 429 that carries
	// retryAfter seconds when above 0: the rule knows that a call then
	// would be let in.
	admit(t float64, inside int) (ok bool, retryAfter float64)
	// taken: a worker takes a call that waited seconds in the queue,
	// with inside calls in the server (it among them): an adaptive
	// limit's signal.
	taken(waited float64, inside int)
}

// comeBack is the Retry-After for a call refused at t that would be let
// in from at: at - t, and a nanosecond's slack per second of t, so that a
// retry at t + comeBack(t, at) is at or after at whatever the rounding
// (a retry that lands a rounding error early would be refused again, by
// a Retry-After too small to move the clock).
func comeBack(t, at float64) float64 { return at - t + 1e-9*math.Max(1, t) }

// admissions is the registry, indexed by AdmissionKind. Written only
// while the package initialises.
var admissions []AdmissionRule

// registerAdmission puts a rule at its place in the list the CLI and the
// page show. It panics on a place or name taken or malformed arguments.
//
//go:noinline
func registerAdmission(k AdmissionKind, a AdmissionRule) {
	for len(admissions) <= int(k) {
		admissions = append(admissions, nil)
	}
	checkPartArgs("admission rule "+a.Name(), a.Args())
	bad := admissions[k] != nil || a.Name() == "" || strings.ContainsAny(a.Name(), ": ")
	for _, o := range admissions {
		bad = bad || o != nil && o.Name() == a.Name()
	}
	if bad {
		panic("sim: admission rule " + a.Name() + " registered twice or misnamed")
	}
	admissions[k] = a
}

// AdmissionRules lists the registered rules, indexed by AdmissionKind.
// The slice is a copy.
func AdmissionRules() []AdmissionRule { return slices.Clone(admissions) }

// AdmissionNames lists every rule's name, indexed by AdmissionKind.
func AdmissionNames() []string {
	names := make([]string, len(admissions))
	for i, a := range admissions {
		names[i] = a.Name()
	}
	return names
}

// AdmissionSyntax is a's text form with its arguments:
// "token-bucket:RATE:BURST".
func AdmissionSyntax(a AdmissionRule) string { return partSyntax(a.Name(), a.Args()) }

// AdmissionRanges words a's arguments' ranges in English.
func AdmissionRanges(a AdmissionRule) string { return partRanges(a.Args()) }

func admissionForms() []string {
	forms := make([]string, len(admissions))
	for i, a := range admissions {
		forms[i] = AdmissionSyntax(a)
	}
	return forms
}

// Rule is a's registered rule, nil for none.
func (a *Admission) Rule() AdmissionRule {
	if int(a.Kind) < len(admissions) {
		return admissions[a.Kind]
	}
	return nil
}

// Arg is a's i-th argument in its declared unit: a number, or seconds for
// a duration.
func (a *Admission) Arg(i int) float64 {
	if q := a.Rule(); q != nil && i < len(q.Args()) {
		return a.Args[i] / q.Args()[i].scale()
	}
	return 0
}

func (a *Admission) text() string {
	q := a.Rule()
	if q == nil {
		return "unknown"
	}
	return partText(q.Name(), q.Args(), &a.Args)
}

// parseAdmission reads a rule's text form.
func parseAdmission(v string) (Admission, error) {
	name, rest, colon := strings.Cut(v, ":")
	k, err := parseEnum[AdmissionKind](ParamAdmission, name, AdmissionNames())
	if err != nil {
		return Admission{}, formatErr(ParamAdmission, v, admissionForms())
	}
	q := admissions[k]
	args, err := parsePartArgs(ParamAdmission, v, q.Name(), rest, colon, q.Args(), admissionForms())
	if err != nil {
		return Admission{}, err
	}
	return Admission{Kind: k, Args: args}, nil
}

// validate checks a on a config built in code, as parseAdmission would
// have, and that the server is the queue server.
func (a *Admission) validate(c *Config) error {
	q := a.Rule()
	if q == nil {
		return formatErr(ParamAdmission, a.text(), admissionForms())
	}
	if err := checkPartValues(ParamAdmission, a.text(), q.Name(), q.Args(), &a.Args); err != nil {
		return err
	}
	if a.Kind != 0 && !c.UsesField(ParamAdmission) {
		first := admissions[0].Name()
		return &backoff.FieldError{Field: ParamAdmission, Value: clip(a.text()), Code: backoff.CodeNeeds, Other: ParamServer,
			Args:    []string{c.Server.String(), first, first},
			Allowed: first + " with the " + c.Server.String() + " server (admission rules guard the queue server)"}
	}
	return nil
}

// start is a at work in one server for one run.
func (a *Admission) start() admitter { return admissions[a.Kind].start(a) }

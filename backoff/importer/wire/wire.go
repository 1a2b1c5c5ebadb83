// Package wire holds what the importer's reading gives (a Result, or an
// error that says why there is none) as data, and as JSON for a program
// that shows a reading without linking the readers: the page reads a text
// in a second WebAssembly program, loaded when its Import panel is first
// used, and decodes the answer here.
//
// A Result crosses as JSON with its policy as the page's query
// (Result.Query), which Decode replays key by key from backoff.Default, as
// the page reads a link: the policy that arrives is the one read.
package wire

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// MaxInput is the longest text the importer reads, in bytes: a config file, not
// a code base.
const MaxInput = 256 << 10

// MaxCandidates is the most policies of one text listed: a file with more
// is generated, not written.
const MaxCandidates = 1000

// Setting is one value the source set, or a library default it left
// unset.
type Setting struct {
	// Key is the setting as the library names it: "initialBackoff",
	// "o.MaxAttempts", "wait_exponential.multiplier".
	Key string `json:"key"`
	// Value is the value as the source writes it, or the default's text.
	Value string `json:"value"`
	// Line is the 1-based line it was read from; 0 for a default.
	Line int `json:"line"`
	// Default is true when the source left the setting unset and this is
	// the library's default.
	Default bool `json:"default,omitempty"`
}

// Warning is something read that the policy does not hold, or a value
// that could not be read. Code and Args say it as data, for a page that
// words it in its own language; Message says it in English.
type Warning struct {
	Code    string   `json:"code"`
	Args    []string `json:"args"`
	Line    int      `json:"line,omitempty"`
	Message string   `json:"message"`
}

// Warning codes. Each code's comment says what its Args hold.
const (
	// CodeUnreadable: a value is not a literal (a variable, a call, a
	// computed value); the library's default or nothing is used instead.
	// Args: the key, the expression as written.
	CodeUnreadable = "unreadable"
	// CodeIgnored: a key read and left out of the policy. Args: the key,
	// the reason (one of the Reason* constants).
	CodeIgnored = "ignored"
	// CodeRange: a value outside the library's or the playground's range
	// was moved into it. Args: the key, the value, the value used.
	CodeRange = "range"
	// CodeInvalid: the library rejects or ignores the whole policy for
	// this value, so it makes no retries. Args: the key, the value.
	CodeInvalid = "invalid"
	// CodeBudget: a retry budget (gRPC's retryThrottling) is read; the
	// delay table does not draw it, the simulator's budget does. Args:
	// maxTokens, tokenRatio.
	CodeBudget = "budget"
	// CodeRounding: the library keeps durations in whole units, so delays
	// may differ from the policy's by up to one unit. Args: the unit.
	CodeRounding = "rounding"
	// CodeDeadlineTimeout: an overall timeout is read as the deadline; it
	// also cancels a try in flight, where the deadline only stops new
	// retries. Args: the duration.
	CodeDeadlineTimeout = "deadline-timeout"
	// CodeSeveral: the source holds several policies; one is read (the
	// first, unless another is picked). Args: how many, the line of the
	// one read.
	CodeSeveral = "several"
	// CodeThrottleBase: the library backs off from another base after a
	// throttling error. Args: that base.
	CodeThrottleBase = "throttle-base"
	// CodeCapDrawn: the library still draws a random delay at the one
	// retry whose nominal delay equals the cap, where the policy waits
	// exactly the cap. Args: that retry's number, the cap.
	CodeCapDrawn = "cap-drawn"
	// CodeParamDefault: a value names a parameter of the function it is
	// in, and the parameter's default is read; a caller may pass another.
	// Args: the parameter, the function ("" for an anonymous one), the
	// default as written.
	CodeParamDefault = "param-default"
	// CodeNotInText: a value the library takes from outside the text
	// (an Envoy route's timeout, around a bare retry_policy) is not in
	// it: the library's default is read. Args: the key, the default.
	CodeNotInText = "not-in-text"
	// CodeVersion: the reading holds for the library from a version on;
	// before it, the library runs what a preset says. Args: the version,
	// the preset's name.
	CodeVersion = "version"
)

// Codes lists every Warning code, for a page's message catalog.
var Codes = []string{CodeUnreadable, CodeIgnored, CodeRange, CodeInvalid, CodeBudget, CodeRounding,
	CodeDeadlineTimeout, CodeSeveral, CodeThrottleBase, CodeCapDrawn, CodeParamDefault, CodeNotInText, CodeVersion}

// Reasons a key is ignored (CodeIgnored's second Arg).
const (
	// ReasonClassify: the key says what to retry, not when; the
	// playground's classifier decides that.
	ReasonClassify = "classify"
	// ReasonPerTry: a timeout of each try, which the delay table does not
	// model (the simulator's client timeout does).
	ReasonPerTry = "per-try"
	// ReasonUnknown: the library does not read this key.
	ReasonUnknown = "unknown"
	// ReasonNotModelled: the library reads it, but it does not change the
	// delays between retries (hedging, a host predicate, a callback).
	ReasonNotModelled = "not-modelled"
)

// Reasons lists every CodeIgnored reason.
var Reasons = []string{ReasonClassify, ReasonPerTry, ReasonUnknown, ReasonNotModelled}

// Budget is a retry budget the source sets: gRPC's retryThrottling
// (gRFC A6: a failure costs 1 token, a success returns TokenRatio;
// retries stop while the tokens are at or below MaxTokens/2).
type Budget struct {
	Kind       string  `json:"kind"` // "grpc"
	MaxTokens  float64 `json:"max_tokens"`
	TokenRatio float64 `json:"token_ratio"`
}

// Flag is the budget as the simulator's --budget flag spells it:
// grpc:MAX:RATIO.
func (b Budget) Flag() string {
	return b.Kind + ":" + formatFloat(b.MaxTokens) + ":" + formatFloat(b.TokenRatio)
}

// BudgetFlag is the budget as the simulator's --budget flag spells it,
// or "" when the source sets none (or r is nil).
func (r *Result) BudgetFlag() string {
	if r == nil || r.Budget == nil {
		return ""
	}
	return r.Budget.Flag()
}

// Result is what the importer read.
type Result struct {
	// Format is the format's name (one of FormatNames).
	Format string `json:"format"`
	// Source is the library's file and version the reading follows.
	Source string `json:"source"`
	// Policy is the schedule the source runs, valid.
	Policy backoff.Policy `json:"-"`
	// Settings are the values read, in the order of the source, then the
	// defaults used.
	Settings []Setting `json:"settings"`
	// Warnings say what was ignored, could not be read, or was moved.
	Warnings []Warning `json:"warnings"`
	// Budget is the retry budget the source sets, or nil.
	Budget *Budget `json:"budget,omitempty"`
	// Candidates are every retry policy the text holds, in its order;
	// Pick is the index of the one read.
	Candidates []Candidate `json:"candidates"`
	Pick       int         `json:"pick"`
}

// NoPolicyError is the error for a text in which no format finds a retry
// policy. Formats are the recognised formats' names.
type NoPolicyError struct {
	Formats []string
	// Reason, when not empty, says why the format the text looked like
	// found none (a gRPC service config without a retryPolicy).
	Reason string
}

func (e *NoPolicyError) Error() string {
	s := "no retry policy found"
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s + "; the recognised formats are " + strings.Join(e.Formats, ", ")
}

// TooLongError is the error for a text longer than MaxInput.
type TooLongError struct {
	// Len is the text's length in bytes; when AtLeast, the text was read
	// no further than that (an endless stream).
	Len     int
	AtLeast bool
}

func (e *TooLongError) Error() string {
	more := ""
	if e.AtLeast {
		more = "more than "
	}
	return fmt.Sprintf("the text is %s%d bytes: at most %d are read", more, e.Len, MaxInput)
}

// Candidate is one retry policy a text holds: its format, its name (a
// gRPC method config's service/method, an Istio route's name, a Python
// function or variable, a resilience4j instance; "" when it has none)
// and its line.
type Candidate struct {
	Format string `json:"format"`
	Name   string `json:"name,omitempty"`
	Line   int    `json:"line"`
}

// Label is the candidate as a list shows it: N. name (format, line L).
func (c Candidate) Label(n int) string {
	s := strconv.Itoa(n) + ". "
	if c.Name != "" {
		s += c.Name + " "
	}
	return s + "(" + c.Format + ", line " + strconv.Itoa(c.Line) + ")"
}

// RefusedError is the error for a JSON or YAML text the readers refuse to
// read whole, and in which no format found a policy.
type RefusedError struct {
	// Syntax is "JSON" or "YAML".
	Syntax string
	// Reason is RefusedDepth (Limit is MaxDepth) or RefusedValues (Limit
	// is the most values read, which a YAML alias bomb passes).
	Reason string
	Limit  int
}

// Refusal reasons (RefusedError.Reason).
const (
	RefusedDepth  = "depth"
	RefusedValues = "values"
)

func (e *RefusedError) Error() string {
	if e.Reason == RefusedDepth {
		return fmt.Sprintf("the %s nests deeper than %d levels: it is not read", e.Syntax, e.Limit)
	}
	return fmt.Sprintf("the %s holds more than %d values (YAML aliases can expand a short text into millions): it is not read", e.Syntax, e.Limit)
}

func formatFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64) // 2147483647, not 2.147483647e+09
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

package sim

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// A call chain: Config.Layers services, each calling the one below, the
// bottom one calling the server. A request is a call to the top layer;
// each layer tries the layer below up to its attempts, with the policy's
// delays between tries, and its call fails when every try below failed. So
// with every layer retrying, a bottom that always fails sees the product
// of the attempts per request: 3^5 = 243 for five layers of three (the
// Amazon Builders' Library's example), 4^3 = 64 for three of four
// (Google's SRE book, ch. 22); retrying at the top only (RetryAt Top), 3.
//
// Calls between layers take no time (the hops are the bottom's, to the
// server). A LayerTimeout makes a layer give up on its call to the layer
// below after that long, and retry, while the layer below goes on trying:
// the calls it still makes are orphans, work for nobody (Totals.
// OrphanCalls). With several layers, each layer has its own budget of
// Config.Budget's kind, shared by that layer's calls; the breaker,
// throttling and hedging belong to the bottom layer, which calls the
// server.

// MaxLayers is the deepest chain; MaxLayerAttempts the most attempts a
// layer of a chain makes (a chain's calls grow as their product).
const (
	MaxLayers        = 8
	MaxLayerAttempts = 100
)

// RetryAt is which layers of a chain retry.
type RetryAt uint8

const (
	// RetryAll: every layer tries its attempts.
	RetryAll RetryAt = iota
	// RetryTop: only the top layer retries; the others try once (the
	// usual fix for amplification).
	RetryTop
)

var retryAtNames = []string{"all", "top"}

func (k RetryAt) String() string { return nameOf(retryAtNames, int(k)) }

// RetryAtNames lists every RetryAt's name, indexed by RetryAt. The slice
// is a copy.
func RetryAtNames() []string { return slices.Clone(retryAtNames) }

// LayerAttempts is each layer's attempts, top first. Text form (Set/Get
// "layer-attempts"): "policy" (the policy's attempts at every layer, the
// zero value), one number for every layer, or a list "A1,A2,…" of one per
// layer. A struct of arrays, so that Config stays comparable.
type LayerAttempts struct {
	// Each is a layer's attempts (0: the policy's).
	Each [MaxLayers]uint16
	// List is how many entries a list gave (0: one number, or "policy",
	// for every layer); it must then equal Config.Layers.
	List uint8
}

func (a *LayerAttempts) text() string {
	if a.List == 0 {
		if a.Each[0] == 0 {
			return "policy"
		}
		return strconv.Itoa(int(a.Each[0]))
	}
	parts := make([]string, a.List)
	for i := range parts {
		parts[i] = strconv.Itoa(int(a.Each[i]))
	}
	return strings.Join(parts, ",")
}

// parseLayerAttempts reads a layer-attempts value.
func parseLayerAttempts(v string) (LayerAttempts, error) {
	var a LayerAttempts
	if strings.EqualFold(v, "policy") || v == "" {
		return a, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > MaxLayers {
		return a, formatErr(ParamLayerAttempts, v, layerAttemptsForms(MaxLayers))
	}
	for i, p := range parts {
		n, err := backoff.ParseInt(ParamLayerAttempts, strings.TrimSpace(p), 1, MaxLayerAttempts)
		if err != nil {
			if len(parts) == 1 {
				return a, err
			}
			return a, partErr(err, v, "A"+strconv.Itoa(i+1), "1 to "+strconv.Itoa(MaxLayerAttempts)+" attempts for each layer")
		}
		a.Each[i] = uint16(n)
	}
	if len(parts) == 1 {
		for i := range a.Each {
			a.Each[i] = a.Each[0]
		}
	} else {
		a.List = uint8(len(parts))
	}
	return a, nil
}

// LayerTimeouts is how long each layer above a chain's bottom waits for
// each try of the layer below (0: for ever), the clients' layer first: one
// value for them all, or a list of one a layer.
type LayerTimeouts struct {
	Each [MaxLayers - 1]time.Duration
	// List is how many entries a list gave (0: one value for every
	// layer); it must then be Config.Layers-1.
	List uint8
}

// At is layer k's wait for a try below (the clients' layer is 0).
func (l *LayerTimeouts) At(k int) time.Duration {
	if l.List == 0 {
		return l.Each[0]
	}
	if k < int(l.List) {
		return l.Each[k]
	}
	return 0
}

// Any reports whether some layer stops waiting.
func (l *LayerTimeouts) Any() bool {
	for _, d := range l.Each {
		if d > 0 {
			return true
		}
	}
	return false
}

func (l *LayerTimeouts) text() string {
	n := max(int(l.List), 1)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = backoff.FormatDuration(l.Each[i])
	}
	return strings.Join(parts, ",")
}

// parseLayerTimeouts reads a layer-timeout value: D, or D1,...,Dn.
func parseLayerTimeouts(v string) (LayerTimeouts, error) {
	var l LayerTimeouts
	parts := strings.Split(v, ",")
	if len(parts) > MaxLayers-1 {
		return l, formatErr(ParamLayerTimeout, v, layerTimeoutForms(MaxLayers))
	}
	for i, p := range parts {
		d, err := backoff.ParseDuration(ParamLayerTimeout, strings.TrimSpace(p), MaxTime)
		if err != nil {
			if len(parts) == 1 {
				return l, err
			}
			return l, partErr(err, v, "D"+strconv.Itoa(i+1), "a duration from 0s to "+backoff.FormatDuration(MaxTime)+" for each layer above the bottom")
		}
		l.Each[i] = d
	}
	if len(parts) > 1 {
		l.List = uint8(len(parts))
	}
	return l, nil
}

// layerTimeoutForms are layer-timeout's forms for a chain of n layers:
// one duration for each layer above the bottom.
func layerTimeoutForms(n int) []string {
	if n <= 2 {
		return []string{"D"}
	}
	return []string{"D", valueList("D", n-1)}
}

// layerAttemptsForms are layer-attempts' forms for a chain of n layers.
func layerAttemptsForms(n int) []string {
	return []string{"policy", "A", valueList("A", n)}
}

// valueList is a list of n values named x1, x2, ...: written out up to
// three, so that "A1,A2" says how many where "A1,…,A2" did not.
func valueList(x string, n int) string {
	if n > 3 {
		return x + "1,…," + x + strconv.Itoa(n)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = x + strconv.Itoa(i+1)
	}
	return strings.Join(names, ",")
}

// LayerAttemptsAt is layer k's attempts, top first (0 = no limit, as the
// policy's): what layer-attempts, retry-at and the policy give it; without
// a chain, the policy's.
func (c *Config) LayerAttemptsAt(k int) int {
	switch {
	case c.Layers <= 1:
	case c.RetryAt == RetryTop && k > 0:
		return 1
	case c.LayerAttempts.Each[k] > 0:
		return int(c.LayerAttempts.Each[k])
	}
	return c.Policy.Attempts
}

// validateChain checks the chain's fields.
func (c *Config) validateChain() error {
	if err := backoff.CheckInt(ParamLayers, c.Layers, 1, MaxLayers); err != nil {
		return err
	}
	if int(c.RetryAt) >= len(retryAtNames) {
		return choiceErr(ParamRetryAt, c.RetryAt.String(), retryAtNames)
	}
	if n := int(c.LayerAttempts.List); n > 0 && n != c.Layers {
		return formatErr(ParamLayerAttempts, c.LayerAttempts.text(), layerAttemptsForms(c.Layers))
	}
	if n := int(c.LayerTimeout.List); n > 0 && n != c.Layers-1 {
		return formatErr(ParamLayerTimeout, c.LayerTimeout.text(), layerTimeoutForms(c.Layers))
	}
	if c.PropagateDeadline && c.Timeout == 0 && c.Policy.Deadline == 0 && (c.Layers == 1 || !c.LayerTimeout.Any()) {
		return &backoff.FieldError{Field: ParamPropagate, Value: "true", Code: backoff.CodeChoice, Args: []string{"false"},
			Allowed: "false without a deadline to pass down: give a timeout, a layer timeout or the policy's deadline"}
	}
	if c.Layers > 1 && c.BudgetScope == CallerScope {
		// Each layer has its own budget, shared by its calls.
		return choiceErr(ParamBudgetScope, c.BudgetScope.String(), []string{SharedScope.String()})
	}
	return nil
}

package sim

import (
	"strconv"

	"github.com/backoff-playground/playground/backoff"
)

// A service node is a layer of a call chain (chain.go): it calls the node
// to: names, trying it retry.attempts times (omitted: as many as the
// clients' policy) with the clients' policy's delays. Its timeout is how
// long its caller waits for each try of it (0 or omitted: for ever): a
// chain's layer timeouts, one a service, the clients' wait first; the
// last service waits the document's timeout for the server. Its budget
// is of the clients' budget's kind, its own.
type serviceKind struct{}

func init() { registerNodeKind(serviceKind{}) }

const (
	kindService     = "service"
	keyRetryAttempt = "retry.attempts"
	keyTimeout      = "timeout"
)

var serviceKeys = []NodeKey{
	{Name: keyTo, List: true, Help: "the node it calls"},
	{Name: keyRetryAttempt, Help: "its attempts at the node below (omitted: the clients' policy's)"},
	{Name: keyTimeout, Help: "how long its caller waits for each try of it (0: for ever)"},
}

func (serviceKind) Name() string    { return kindService }
func (serviceKind) Keys() []NodeKey { return serviceKeys }

func (serviceKind) canon(key string, s Setting) (Setting, error) {
	c := DefaultConfig()
	switch key {
	case keyRetryAttempt:
		n, err := backoff.ParseInt("retry.attempts", s.Value, 1, MaxLayerAttempts)
		if err != nil {
			return s, err
		}
		s.Value = formatFloat(float64(n))
	case keyTimeout:
		if err := c.Set(ParamLayerTimeout, s.Value); err != nil {
			return s, err
		}
		s.Value = c.Get(ParamLayerTimeout)
	}
	return s, nil
}

func (serviceKind) stage() int    { return 0 }
func (serviceKind) aimable() bool { return false }
func (serviceKind) repeats() bool { return true }

// A service is a layer of the chain; a chain has at most MaxLayers-1.
func (serviceKind) walk(w *walk, n *Node) (*Node, error) {
	if len(w.chain) >= MaxLayers-1 {
		return nil, shapeErr(w.caller, w.key, n.Name, "at most "+strconv.Itoa(MaxLayers-1)+" services in a chain")
	}
	w.chain = append(w.chain, n)
	return w.next(n, keyTo, "a service calls exactly one node")
}

// A service's figures: the calls the layer above made to it, and those of
// them that timed out (its caller's layer timeout).
func (serviceKind) figures(r *reqSim, i int, _ float64, out []NodeFigure) []NodeFigure {
	return append(out, NodeFigure{"calls", float64(r.layerCalls[i-1])},
		NodeFigure{"timeouts", float64(r.layerTimeoutsAt[i-1])})
}

// A service's figures in a bucket: the calls made to it, and those its
// caller's timeout cut.
func (serviceKind) bucket(_ *Bucket, _ *xbin, _, lay []sbin, i int, out []float64) []float64 {
	l := &lay[i-1]
	return append(out, float64(l.calls), float64(l.timeouts))
}

var serviceBucketKeys = []string{"calls", "timeouts"}

func (serviceKind) bucketKeys() []string { return serviceBucketKeys }

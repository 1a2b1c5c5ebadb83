package sim

import (
	"strconv"
	"strings"
)

// A balancer node is a load balancer in front of servers (fleet.go): rule
// is how it picks one (Balance), to: the servers, retry-other sends a
// retry to another server than its previous try's.
type balancerKind struct{}

func init() { registerNodeKind(balancerKind{}) }

const (
	kindBalancer = "balancer"
	keyRule      = "rule"
	keyTo        = "to"
)

var balancerKeys = []NodeKey{
	{Name: keyRule, Help: "how it picks a server"},
	{Name: keyTo, List: true, Help: "the servers behind it"},
	{Name: ParamRetryOther, Help: "a retry goes to another server than its previous try's"},
}

func (balancerKind) Name() string    { return kindBalancer }
func (balancerKind) Keys() []NodeKey { return balancerKeys }

func (balancerKind) canon(key string, s Setting) (Setting, error) {
	p := key
	switch key {
	case keyTo:
		return s, nil
	case keyRule:
		p = ParamBalance
	}
	c := DefaultConfig()
	if err := c.Set(p, s.Value); err != nil {
		return s, err
	}
	s.Value = c.Get(p)
	return s, nil
}

func (balancerKind) stage() int    { return 2 }
func (balancerKind) aimable() bool { return false }
func (balancerKind) repeats() bool { return false }

// A balancer ends the walk: its to: are the fleet's servers, each once.
func (balancerKind) walk(w *walk, n *Node) (*Node, error) {
	w.lb = n
	to := n.Get(keyTo)
	if to == nil || len(to.List) == 0 || len(to.List) > MaxServers {
		v := ""
		if to != nil {
			v = strings.Join(to.List, ",")
		}
		return nil, shapeErr(n, keyTo, v, "a balancer calls 1 to "+strconv.Itoa(MaxServers)+" servers")
	}
	for _, name := range to.List {
		s := w.t.Node(name)
		if s == nil {
			return nil, unknownNode(n, keyTo, name, w.t)
		}
		if s.Kind != kindServer || w.seen[name] {
			return nil, shapeErr(n, keyTo, name, "a balancer's nodes are servers, each once; node "+name+" is a "+s.Kind)
		}
		w.seen[name], w.names = true, append(w.names, name)
		w.servers = append(w.servers, s)
	}
	return nil, nil
}

// A balancer's figure: the calls it passed on, every one to a server.
func (balancerKind) figures(r *reqSim, _ int, _ float64, out []NodeFigure) []NodeFigure {
	n := 0
	for k := range r.srvs {
		n += r.srvs[k].calls
	}
	return append(out, NodeFigure{"calls", float64(n)})
}

// A balancer's figure in a bucket: the calls it passed on, every call
// of the bucket's.
func (balancerKind) bucket(o *Bucket, _ *xbin, _, _ []sbin, _ int, out []float64) []float64 {
	return append(out, float64(o.Calls))
}

var balancerBucketKeys = []string{"calls"}

func (balancerKind) bucketKeys() []string { return balancerBucketKeys }

// BalancerNode is t's balancer, or nil.
func (t *Topology) BalancerNode() *Node {
	for i := range t.Nodes {
		if t.Nodes[i].Kind == kindBalancer {
			return &t.Nodes[i]
		}
	}
	return nil
}

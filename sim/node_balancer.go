package sim

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

// A balancer's figure: the calls it passed on, every one to a server.
func (balancerKind) figures(r *reqSim, _ int, _ float64, out []NodeFigure) []NodeFigure {
	n := 0
	for k := range r.srvs {
		n += r.srvs[k].calls
	}
	return append(out, NodeFigure{"calls", float64(n)})
}

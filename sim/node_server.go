package sim

import "slices"

// A server node is one server of a model (model.go): its keys are model,
// the model's own fields (every model's, Model.Fields(nil); workers is
// concurrency's name in a topology), and commonServerKeys. A key its
// model does not read is refused when the document is lowered
// (Topology.Config).
type serverKind struct{}

func init() { registerNodeKind(serverKind{}) }

const (
	kindServer = "server"
	keyModel   = "model"
	keyWorkers = "workers"
)

func (serverKind) Name() string { return kindServer }

func (serverKind) Keys() []NodeKey { return serverKeys() }
func (serverKind) stage() int      { return 3 }
func (serverKind) aimable() bool   { return true }
func (serverKind) repeats() bool   { return false }

// A server called alone is the whole fleet, and calls nothing.
func (serverKind) walk(w *walk, n *Node) (*Node, error) {
	w.servers = []*Node{n}
	return nil, nil
}

// serverKeys are read when asked, after the models have registered
// (files initialise in name order, the models' after this one); a
// function, not a package variable, so that a program that never reads a
// topology (app.wasm) links none of it.
func serverKeys() []NodeKey {
	keys := []NodeKey{{Name: keyModel, Help: "the server's model"}, {Name: keyWorkers, Help: "queue server: workers (concurrency)"}}
	for _, f := range append(serverFields(), commonServerKeys...) {
		if f != ParamConcurrency && !slices.ContainsFunc(keys, func(k NodeKey) bool { return k.Name == f }) {
			keys = append(keys, NodeKey{Name: f})
		}
	}
	return keys
}

// commonServerKeys are what any server does whatever its model: skip the
// calls whose caller stopped waiting, fail at random, send Retry-After.
var commonServerKeys = []string{ParamDropExpired, ParamErrorRate, ParamRetryAfterS}

// serverParam is the Config parameter a server node's key sets.
func serverParam(key string) string {
	if key == keyWorkers {
		return ParamConcurrency
	}
	if key == keyModel {
		return ParamServer
	}
	return key
}

func (serverKind) canon(key string, s Setting) (Setting, error) {
	c := DefaultConfig()
	p := serverParam(key)
	if err := c.Set(p, s.Value); err != nil {
		return s, err
	}
	s.Value = c.Get(p)
	return s, nil
}

// A server's figures: the calls sent to it, those it served, refused
// (no capacity, queue room or admission), failed with an error, refused
// while down, the calls to it that timed out, the calls its crashes lost,
// and its utilization.
func (serverKind) figures(r *reqSim, i int, span float64, out []NodeFigure) []NodeFigure {
	sv := &r.srvs[i]
	return serverFigures(out, [...]int{sv.calls, sv.served, sv.refused, sv.errs, sv.outage, sv.timeouts, sv.lost}, sv.utilization(span))
}

// serverFigures appends a server's figures: its counts in
// serverCountKeys' order, then its utilization.
func serverFigures(out []NodeFigure, counts [7]int, utilization float64) []NodeFigure {
	for k, n := range counts {
		out = append(out, NodeFigure{serverCountKeys[k], float64(n)})
	}
	return append(out, NodeFigure{"utilization", utilization})
}

var serverCountKeys = [7]string{"calls", "served", "refused", "errors", "outage", "timeouts", "lost"}

// herdNode is the herd's one server as a node (the herd's engine,
// loop.go, has no errors, timeouts or crashes): the calls sent to it and
// its answers, from the server's own counts, over span seconds.
func herdNode(s *Sim, name string, span float64) NodeTotals {
	sv := &s.srv
	return NodeTotals{Name: name, Kind: kindServer, Figures: serverFigures(nil,
		[...]int{s.calls, sv.served, sv.failed - sv.down, 0, sv.down, 0, 0}, sv.utilization(&s.c, span))}
}

// herdNodeBuckets gives each of the herd's buckets its server's figures:
// the calls sent to it, and its answers there (ok, rejected) as its slot.
func herdNodeBuckets(tl []Bucket) {
	nodes := make([]NodeBucket, len(tl))
	figs := make([]float64, 0, len(tl)*len(serverBucketKeys))
	for i := range tl {
		o := &tl[i]
		slot := [1]sbin{{calls: int32(o.Calls), served: int32(o.OK), failed: int32(o.Rejected)}}
		from := len(figs)
		figs = serverKind{}.bucket(o, &xbin{}, slot[:], nil, 0, figs)
		nodes[i] = NodeBucket{serverBucketKeys, figs[from:len(figs):len(figs)]}
		o.Nodes = nodes[i : i+1 : i+1]
	}
}

// A server's figures in a bucket: the calls sent to it, served, failed
// (refused, errors, refused while down), timed out, and lost to a crash:
// a fleet's server's from its slot, one server's the bucket's own.
func (serverKind) bucket(o *Bucket, x *xbin, srv, _ []sbin, i int, out []float64) []float64 {
	s := sbin{calls: int32(o.Calls), served: int32(o.Served), failed: int32(o.Refused + o.Errors + o.Outage),
		timeouts: int32(o.Timeouts), lost: x.lost}
	if len(srv) > 0 {
		s = srv[i]
	}
	return append(out, float64(s.calls), float64(s.served), float64(s.failed), float64(s.timeouts), float64(s.lost))
}

var serverBucketKeys = []string{"calls", "served", "failed", "timeouts", "lost"}

func (serverKind) bucketKeys() []string { return serverBucketKeys }

// ServerNodes are the indexes of t's server nodes, in order.
func (t *Topology) ServerNodes() []int {
	var out []int
	for i, n := range t.Nodes {
		if n.Kind == kindServer {
			out = append(out, i)
		}
	}
	return out
}

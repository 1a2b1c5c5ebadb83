package app

import (
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/sim"
)

// Edits of a topology document that the topology panel's controls make
// (topology-controls.go): each changes the document as a person would
// by hand, and the page lowers the result (lowerDoc), whose errors say
// what the shorthand cannot run.

// The node kinds and keys the fleet's edits name: a fleet is a balancer
// whose to: lists servers.
const (
	kindServer   = "server"
	kindBalancer = "balancer"
	keyTo        = "to"
	keyMiss      = "miss"
)

// servers are the indexes of t's server nodes, in order.
func servers(t *sim.Topology) []int {
	var out []int
	for i, n := range t.Nodes {
		if n.Kind == kindServer {
			out = append(out, i)
		}
	}
	return out
}

// freeName is prefix, or prefix and the first number from 1 that makes
// a name no node of t has.
func freeName(t *sim.Topology, prefix string, numbered bool) string {
	for k := 1; ; k++ {
		name := prefix + strconv.Itoa(k)
		if !numbered && k == 1 {
			name = prefix
		}
		if t.Node(name) == nil {
			return name
		}
	}
}

// renameCalls makes every node of t that calls from call to instead.
func renameCalls(t *sim.Topology, from, to string) {
	for i := range t.Nodes {
		for j := range t.Nodes[i].Keys {
			s := &t.Nodes[i].Keys[j]
			for k, v := range s.List {
				if v == from {
					s.List = append([]string(nil), s.List...)
					s.List[k] = to
				}
			}
		}
	}
}

// addServer adds a server like t's first behind its balancer, or, for a
// single server, puts a balancer in front of it and the new one.
func addServer(t *sim.Topology) {
	at := servers(t)
	if len(at) == 0 {
		return
	}
	first := t.Nodes[at[0]]
	prefix := strings.TrimRight(first.Name, "0123456789")
	if prefix == first.Name {
		prefix = "s"
	}
	n := sim.Node{Name: freeName(t, prefix, true), Kind: kindServer, Keys: append([]sim.Setting(nil), first.Keys...)}
	if lb := balancerOf(t); lb != nil {
		to := lb.Get(keyTo)
		to.List = append(append([]string(nil), to.List...), n.Name)
		t.Nodes = insertNode(t.Nodes, at[len(at)-1]+1, n)
		return
	}
	lb := sim.Node{Name: freeName(t, "lb", false), Kind: kindBalancer, Keys: []sim.Setting{{Key: keyTo, List: []string{first.Name, n.Name}}}}
	renameCalls(t, first.Name, lb.Name)
	t.Nodes = insertNode(insertNode(t.Nodes, at[0]+1, n), at[0], lb)
}

// insertNode puts n at index i of nodes.
func insertNode(nodes []sim.Node, i int, n sim.Node) []sim.Node {
	nodes = append(nodes, sim.Node{})
	copy(nodes[i+1:], nodes[i:])
	nodes[i] = n
	return nodes
}

// without is list without name (its items' spaces trimmed), a new slice.
func without(list []string, name string) []string {
	var out []string
	for _, v := range list {
		if v = strings.TrimSpace(v); v != name {
			out = append(out, v)
		}
	}
	return out
}

// dropNode is nodes without the node called name.
func dropNode(nodes []sim.Node, name string) []sim.Node {
	out := nodes[:0]
	for _, n := range nodes {
		if n.Name != name {
			out = append(out, n)
		}
	}
	return out
}

// balancerOf is t's balancer, or nil.
func balancerOf(t *sim.Topology) *sim.Node {
	for i := range t.Nodes {
		if t.Nodes[i].Kind == kindBalancer {
			return &t.Nodes[i]
		}
	}
	return nil
}

// removeServer removes t's last server from its fleet, and the faults'
// mentions of it (a fault at it alone goes too); the last but one takes
// the balancer's place.
func removeServer(t *sim.Topology) {
	at := servers(t)
	lb := balancerOf(t)
	if len(at) < 2 || lb == nil {
		return
	}
	gone := t.Nodes[at[len(at)-1]].Name
	to := lb.Get(keyTo)
	to.List = without(to.List, gone)
	left, name := to.List, lb.Name
	t.Nodes = dropNode(t.Nodes, gone) // lb may have moved
	var faults []sim.Setting
	for _, f := range t.Faults {
		text, on, aimed := strings.Cut(f.Value, "/")
		if aimed {
			names := without(strings.Split(on, ","), gone)
			if len(names) == 0 {
				continue
			}
			f.Value = text + "/" + strings.Join(names, ",")
		}
		faults = append(faults, f)
	}
	t.Faults = faults
	if len(left) == 1 {
		t.Nodes = dropNode(t.Nodes, name)
		renameCalls(t, name, left[0])
	}
}

// setKnob sets key of the node called node, or of every server for
// node "" (a fleet's servers are alike); the lowering checks the value
// (a key that takes nodes reads "a,b" as a list).
func setKnob(t *sim.Topology, node, key, value string) {
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Name != node && (node != "" || n.Kind != kindServer) {
			continue
		}
		s := sim.Setting{Key: key, Value: value}
		if key == keyTo || key == keyMiss {
			s.Value, s.List = "", strings.Split(value, ",")
		}
		if old := n.Get(key); old != nil {
			*old = s
		} else {
			n.Keys = append(n.Keys, s)
		}
	}
}

// faultText is a fault as a document writes it: KIND[:ARG]@START-END,
// then /NODE when it names one.
func faultText(kind, start, end, node string) string {
	s := kind + "@" + start + "-" + end
	if node != "" {
		s += "/" + node
	}
	return s
}

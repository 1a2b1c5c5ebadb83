package sim

import (
	"strconv"
	"strings"
)

// Edits of a topology document that the page's controls make: each
// changes the document as a person would by hand, and the page lowers the
// result (Topology.Config), whose errors say what the engine cannot run.

// AddServer adds a server like t's first behind its balancer, or, for a
// single server, puts a balancer in front of it and the new one.
func (t *Topology) AddServer() {
	at := t.ServerNodes()
	if len(at) == 0 {
		return
	}
	first := t.Nodes[at[0]]
	prefix := strings.TrimRight(first.Name, "0123456789")
	if prefix == first.Name {
		prefix = "s"
	}
	n := Node{Name: freeName(t, prefix, true), Kind: kindServer, Keys: append([]Setting(nil), first.Keys...)}
	if lb := t.BalancerNode(); lb != nil {
		to := lb.Get(keyTo)
		to.List = append(append([]string(nil), to.List...), n.Name)
		t.Nodes = insertNode(t.Nodes, at[len(at)-1]+1, n)
		return
	}
	lb := Node{Name: freeName(t, "lb", false), Kind: kindBalancer, Keys: []Setting{{Key: keyTo, List: []string{first.Name, n.Name}}}}
	renameCalls(t, first.Name, lb.Name)
	t.Nodes = insertNode(insertNode(t.Nodes, at[0]+1, n), at[0], lb)
}

// RemoveServer removes t's last server from its fleet, and the faults'
// mentions of it (a fault at it alone goes too); the last but one takes
// the balancer's place.
func (t *Topology) RemoveServer() {
	at := t.ServerNodes()
	lb := t.BalancerNode()
	if len(at) < 2 || lb == nil {
		return
	}
	gone := t.Nodes[at[len(at)-1]].Name
	to := lb.Get(keyTo)
	to.List = without(to.List, gone)
	left, name := to.List, lb.Name
	t.Nodes = dropNode(t.Nodes, gone) // lb may have moved
	var faults []Setting
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

// SetKnob sets key of the node called node, or of every server for
// node "" (a fleet's servers are alike); the lowering checks the value
// (a key that takes nodes reads "a,b" as a list).
func (t *Topology) SetKnob(node, key, value string) {
	at := t.ServerNodes()
	if node != "" {
		at = at[:0]
		for i := range t.Nodes {
			if t.Nodes[i].Name == node {
				at = append(at, i)
			}
		}
	}
	for _, i := range at {
		n := &t.Nodes[i]
		s := Setting{Key: key, Value: value}
		if k := kindNamed(n.Kind); k != nil {
			if d, ok := declared(k, key); ok && d.List {
				s.Value, s.List = "", strings.Split(value, ",")
			}
		}
		if old := n.Get(key); old != nil {
			*old = s
		} else {
			n.Keys = append(n.Keys, s)
		}
	}
}

// freeName is prefix, or prefix and the first number from 1 that makes
// a name no node of t has.
func freeName(t *Topology, prefix string, numbered bool) string {
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
func renameCalls(t *Topology, from, to string) {
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

// insertNode puts n at index i of nodes.
func insertNode(nodes []Node, i int, n Node) []Node {
	nodes = append(nodes, Node{})
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
func dropNode(nodes []Node, name string) []Node {
	out := nodes[:0]
	for _, n := range nodes {
		if n.Name != name {
			out = append(out, n)
		}
	}
	return out
}

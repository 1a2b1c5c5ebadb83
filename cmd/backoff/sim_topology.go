package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// topoFlags are sim's flags for topologies and named scenarios. Each
// records its text; topology checks them, so that a bad value is a
// FieldError naming its flag as the other flags' are.
type topoFlags struct {
	file, scenario textFlag
	print          textFlag
	sets           []string // --set NODE.KEY=VALUE, in order
}

// textFlag records a flag's value and that it was given.
type textFlag struct {
	v     string
	given bool
	bool  bool
}

func (f *textFlag) String() string     { return "" }
func (f *textFlag) IsBoolFlag() bool   { return f.bool }
func (f *textFlag) Set(v string) error { f.v, f.given = v, true; return nil }

// setFlag records each --set.
type setFlag struct{ tf *topoFlags }

func (f setFlag) String() string     { return "" }
func (f setFlag) Set(v string) error { f.tf.sets = append(f.tf.sets, v); return nil }

func addTopoFlags(fs *flag.FlagSet) *topoFlags {
	tf := &topoFlags{print: textFlag{bool: true}}
	fs.Var(&tf.file, "topology", fmt.Sprintf("run the topology document FILE (YAML or JSON, at most %d KB): the simulator's flags "+
		"at its top, retry: for the clients' policy, nodes: (kinds %s), faults: naming nodes after /; the flags given override it",
		sim.MaxTopologyBytes>>10, strings.Join(sim.NodeKindNames(), ", ")))
	fs.Var(&tf.print, "print-topology", "print the topology the other flags describe, as YAML, instead of running it "+
		"(--topology FILE runs it back to the same results)")
	fs.Var(&tf.scenario, "scenario", "start from a named scenario, the page's; the flags given override its values (list: print their names)")
	fs.Var(setFlag{tf}, "set", "NODE.KEY=VALUE: override one key of one node of the topology (repeatable; e.g. s2.workers=3)")
	return tf
}

// printing reports whether --print-topology was given true.
func (tf *topoFlags) printing() (bool, error) {
	if !tf.print.given {
		return false, nil
	}
	v := tf.print.v
	if v == "" {
		v = "true"
	}
	return backoff.ParseBool("print-topology", v)
}

// splitSet reads one --set value.
func splitSet(v string) (node, key, value string, err error) {
	node, rest, ok := strings.Cut(v, ".")
	key, value, ok2 := strings.Cut(rest, "=")
	if !ok || !ok2 || node == "" || key == "" {
		return "", "", "", &backoff.FieldError{Field: "set", Value: clip(v), Code: backoff.CodeFormat, Args: []string{"NODE.KEY=VALUE"},
			Allowed: "NODE.KEY=VALUE, such as db.workers=60 or layer1.retry.attempts=2"}
	}
	return node, key, value, nil
}

// topology is the document --topology or --scenario names, --set applied;
// nil with neither.
func (tf *topoFlags) topology() (*sim.Topology, *sim.Config, error) {
	for _, s := range tf.sets {
		if _, _, _, err := splitSet(s); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range []struct {
		name string
		f    *textFlag
	}{{"topology", &tf.file}, {"scenario", &tf.scenario}} {
		if f.f.given && strings.TrimSpace(f.f.v) == "" {
			return nil, nil, &backoff.FieldError{Field: f.name, Value: "", Code: backoff.CodeFormat, Args: []string{"NAME"},
				Allowed: map[string]string{"topology": "the name of a topology file (YAML or JSON)",
					"scenario": "a scenario's name, or list"}[f.name]}
		}
	}
	switch {
	case tf.file.v != "" && tf.scenario.v != "":
		return nil, nil, &backoff.FieldError{Field: "scenario", Value: clip(tf.scenario.v), Code: backoff.CodeFormat,
			Allowed: "--scenario or --topology, not both"}
	case tf.file.v != "":
		text, err := readRegular(tf.file.v, sim.MaxTopologyBytes+1)
		if err != nil {
			return nil, nil, err
		}
		t, err := sim.ParseTopology(string(text))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", clip(tf.file.v), err)
		}
		return t, nil, nil
	case tf.scenario.v != "":
		sc, err := sim.LookupScenario(tf.scenario.v)
		if err != nil {
			return nil, nil, err
		}
		c, err := sc.Config()
		if err != nil {
			return nil, nil, err
		}
		c.Names = sc.Names
		return nil, &c, nil
	}
	return nil, nil, nil
}

// applySets puts the --set values in t.
func (tf *topoFlags) applySets(t *sim.Topology) error {
	for _, s := range tf.sets {
		node, key, value, err := splitSet(s)
		if err != nil {
			return err
		}
		if err := t.SetKey(node, key, value); err != nil {
			return err
		}
	}
	return nil
}

// listScenarios prints the scenarios, one a line: name, group, and the
// flags each stands for.
func listScenarios(w io.Writer) error {
	for _, s := range sim.Scenarios() {
		if _, err := fmt.Fprintf(w, "%-18s %-8s %s\n", s.Name, s.Group, s.Query); err != nil {
			return err
		}
	}
	return nil
}

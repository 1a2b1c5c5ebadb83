//go:build !wasm

// YAML's reader is not in the WebAssembly build (topology_yaml.go).

package sim

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// liteDocs are documents in the subset written as people write them:
// block maps and lists, nested blocks, comments, quotes, nulls, JSON
// over several lines.
var liteDocs = []string{
	"# a fleet\ntraffic: open:150   # per second\nduration: 30s\nnodes:\n  lb:\n    kind: balancer\n    rule: p2c\n    to: [a, b]\n  a: {kind: server, model: queue}\n  b: {kind: server, model: queue}\nfaults:\n- crash@10s-15s/b\n",
	"nodes:\n  up:\n    kind: service\n    to: db\n    retry:\n      attempts: 2\n    timeout: 500ms\n  db: {kind: server}\nretry:\n  attempts: 3\n  jitter: 'full'\n",
	"{\n  \"traffic\": \"open:100\",\n  \"nodes\": {\n    \"app\": {\"kind\": \"cache\", \"miss\": [\"db\"], \"keys\": 100},\n    \"db\": {\"kind\": \"server\", \"model\": \"queue\"}\n  },\n  \"faults\": [\"flush@5s-5s/app\"]\n}\n",
	`{"nodes":{"a":{"kind":"server","workers":"3"}},"entry":"a"}`,
	"nodes:\n  a: {kind: server, model: \"queue\", service: \"100ms\", discipline: bounded:30}\nentry: ~\n",
	"nodes:\n  a:\n    kind: server\n    model: queue\n\n    # the workers\n    workers: 4\nfaults: [\"outage@1s-2s/a\", 'errors:0.5@3s-4s/a']\n",
	"nodes:\n    lb: {kind: balancer, to: [\n        a,\n        b,\n      ]}\n    a: {kind: server}\n    b: {kind: server}\n",
	"timeout: null\nnodes: {a: {kind: server}}\n",
	"nodes:\n  a: {kind: server, model: }\n",
	"nodes:\n  a: {kind: server, model}\n",
	"nodes:\n  a: {kind: server, workers: 0}\n",
	"nodes:\n  a: {kind: serv\"er}\n",
	"nodes:\n  a: {kind: \"serv\\u0065r\", model: \"queu\\x65\"}\n",
	"\ufeffnodes:\r\n  a: {kind: server}\r\n",
	"nodes:\n  a: {kind: server}\nnodes:\n  b: {kind: server}\n",
	"nodes: {a: {kind: server}, a: {kind: server}}\n",
	"retry: {attempts: 2, attempts: 3}\nnodes: {a: {kind: server}}\n",
	"nodes:\n  a: {kind: server}\n  b:\n",
	"nodes:\n  a: [kind, server]\n",
	"nodes:\n- a\n",
	"x: 1\n",
	"[a, b]\n",
	"hello\n",
	"a: {b: c\n",
	"a: [b, c\n",
	"a: {b: c} d\n",
	"a: b: c\n",
	"a: 'b\n",
	"a: \"\\q\"\n",
	"nodes:\n  a: {kind: server}\n   b: {kind: server}\n",
	"nodes:\n  a: {kind: server}\n b: {kind: server}\n",
	"a: x\n  y\n",
	"nodes:\n  a: {kind: server, model: queue,\n     workers: 3}\n",
	"nodes:\n  a: {kind: server, to: [x: 1]}\n",
	"nodes: {a: {kind: server}}\nfaults:\n  - crash@1s-2s/a\n  - crash@3s-4s/a\n",
	"nodes: {a: {kind: server}}\nfaults: crash@1s-2s/a\n",
	"nodes: {a: {kind: server}}\nfaults:\n",
	"nodes: {a: {kind: server}}\nfaults: []\n",
	"nodes: {}\n",
	"{}\n",
	"# nothing\n",
	"",
	"nodes: {a: {\"kind\":server}}\n",
	"nodes: {a: {kind :server}}\n",
	"nodes: {a: {kind: server, workers: 1e1}}\n",
}

// outsideDocs use YAML the subset leaves out: the subset's reader
// refuses each, naming the line.
var outsideDocs = []struct {
	doc  string
	line int
}{
	{"nodes:\n  a: &s {kind: server}\n  b: *s\n", 2},
	{"nodes:\n  a: !!map {kind: server}\n", 2},
	{"nodes:\n  a:\n    kind: |\n      server\n", 3},
	{"? nodes\n: {a: {kind: server}}\n", 1},
	{"nodes:\n  a: {kind: server}\n  <<: {b: {kind: server}}\n", 3},
	{"nodes:\n\ta: {kind: server}\n", 2},
	{"traffic: open:150\nnodes:\n  a: {kind: server,\n    model: queue\n      workers: 3}\n", 5},
	{"faults:\n  - crash@1s-2s/a\n  -\n    crash@3s-4s/a\n", 3},
	{"timeout: 'one\n  second'\n", 1},
	{"---\nnodes: {a: {kind: server}}\n", 1},
}

// outside reports whether err is the subset's refusal of YAML it leaves
// out.
func outside(err error) bool {
	var fe *backoff.FieldError
	return errors.As(err, &fe) && slices.Equal(fe.Args, liteForms) && strings.HasPrefix(fe.Allowed, "the YAML a topology is written in")
}

// syntaxErr reports whether err is about the text's syntax (either
// reader's), not about what it says.
func syntaxErr(err error) bool {
	var fe *backoff.FieldError
	return errors.As(err, &fe) && (slices.Equal(fe.Args, []string{"YAML"}) || slices.Equal(fe.Args, liteForms) || fe.Code == backoff.CodeTooLong)
}

// agree checks the two readers on doc: the same Topology, or both an
// error (the same one when it is about what the document says), or the
// subset's refusal of YAML it leaves out.
func agree(t *testing.T, doc string) (liteOK bool) {
	t.Helper()
	want, werr := ParseTopology(doc)
	got, gerr := parseTopologyLite(doc)
	switch {
	case werr == nil && gerr == nil:
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\nlite %+v\nyaml %+v", doc, got, want)
		}
		return true
	case werr == nil && !outside(gerr):
		t.Errorf("%q: YAML reads it, the subset's reader says %v", doc, gerr)
	case werr != nil && gerr == nil:
		t.Errorf("%q: the subset's reader reads it, YAML says %v", doc, werr)
	case werr != nil && !syntaxErr(werr) && !syntaxErr(gerr) && werr.Error() != gerr.Error():
		t.Errorf("%q:\nlite %v\nyaml %v", doc, gerr, werr)
	}
	var fe *backoff.FieldError
	if gerr != nil && (!errors.As(gerr, &fe) || fe.Line < 1 && fe.Code != backoff.CodeTooLong) {
		t.Errorf("%q: %v: want a FieldError with a line", doc, gerr)
	}
	return false
}

// Both readers give the same Topology for every document of sim's tests
// and testdata, the subset's own, the scenarios' and random configs'
// printed topologies (or both an error); the subset's reader refuses
// the YAML it leaves out, naming the line.
func TestTopologyReadersAgree(t *testing.T) {
	docs := []string{issueExample}
	docs = append(docs, topologySeeds...)
	docs = append(docs, liteDocs...)
	for _, tc := range topologyErrorCases() {
		docs = append(docs, tc.doc)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzParseTopology*", "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "string("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(v, ")")); err == nil {
					docs = append(docs, s)
				}
			}
		}
	}
	for _, sc := range Scenarios() {
		c, err := sc.Config()
		if err != nil {
			t.Fatalf("scenario %s: %v", sc.Name, err)
		}
		docs = append(docs, c.Topology().String())
	}
	rng := rand.New(rand.NewPCG(26, 4))
	for range 200 {
		c, _ := randomConfig(rng)
		if c.Validate() == nil {
			docs = append(docs, c.Topology().String())
		}
	}
	read := 0
	for _, doc := range docs {
		if agree(t, doc) {
			read++
		}
	}
	if read < len(docs)/2 {
		t.Errorf("the subset's reader read %d of %d documents", read, len(docs))
	}
	for _, tc := range outsideDocs {
		_, err := parseTopologyLite(tc.doc)
		var fe *backoff.FieldError
		if !errors.As(err, &fe) || fe.Line != tc.line {
			t.Errorf("%q: %v, want an error at line %d", tc.doc, err, tc.line)
		}
	}
	t.Logf("%d documents, %d read by both", len(docs), read)
}

// The subset's reader is bounded as YAML's is: the text, the values.
func TestTopologyLiteBounds(t *testing.T) {
	if _, err := parseTopologyLite(strings.Repeat("#", MaxTopologyBytes+1)); err == nil {
		t.Error("a text over MaxTopologyBytes was read")
	}
	doc := "faults: [" + strings.Repeat("a,", maxTopologyValues) + "a]\n"
	_, err := parseTopologyLite(doc)
	var fe *backoff.FieldError
	if !errors.As(err, &fe) || fe.Code != backoff.CodeTooLong {
		t.Errorf("%d values: %v, want too many", maxTopologyValues+1, err)
	}
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	if _, err := parseTopologyLite("a: " + deep + "\n"); err == nil {
		t.Error("20,000 nested lists were read")
	}
}

// The subset's reader never panics, and where both readers accept a
// text they give the same Topology; its canonical form reads back.
func FuzzParseTopologyLite(f *testing.F) {
	for _, d := range append(append(slices.Clone(topologySeeds), liteDocs...), issueExample) {
		f.Add(d)
	}
	for _, tc := range outsideDocs {
		f.Add(tc.doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got, gerr := parseTopologyLite(doc)
		want, werr := ParseTopology(doc)
		if gerr == nil && werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("lite %+v\nyaml %+v", got, want)
		}
		if gerr != nil {
			var fe *backoff.FieldError
			if !errors.As(gerr, &fe) || fe.Line < 1 && fe.Field != "topology" {
				t.Fatalf("error %v: want a FieldError with a line", gerr)
			}
			return
		}
		s := got.String()
		again, err := parseTopologyLite(s)
		if err != nil {
			t.Fatalf("canonical form does not read: %v\n%s", err, s)
		}
		if again.String() != s {
			t.Fatalf("canonical form changes:\n%s\nthen\n%s", s, again.String())
		}
	})
}

//go:build wasm

package sim

// ParseTopology reads a topology document in the subset of YAML that
// documents are written in (topology_lite.go): the WebAssembly build has
// no YAML package. Errors are *backoff.FieldError with the line.
func ParseTopology(text string) (*Topology, error) { return parseTopologyLite(text) }

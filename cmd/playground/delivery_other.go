//go:build !linux && !wasm

package main

import "net"

// ackedBytes is nil: only Linux says here what a peer acknowledged, and
// the server falls back to a deadline per write.
func ackedBytes(net.Conn) func() (int64, bool) { return nil }

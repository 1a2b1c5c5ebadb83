// Package uuid stands in for github.com/google/uuid in the WebAssembly
// build only (see the Makefile): go-app asks it for nothing but
// NewString, ids of its own for a page's contexts and state broadcasts,
// which need to be unlikely to repeat, not unguessable. The real package
// reads crypto/rand, whose generator brought AES, SHA-256, SHA-3, MD5
// and SHA-1 into app.wasm; this one reads the runtime's random source.
package uuid

import "math/rand/v2"

// NewString returns a random (version 4) UUID in its text form,
// xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx.
func NewString() string {
	const hex = "0123456789abcdef"
	var b [16]byte
	hi, lo := rand.Uint64(), rand.Uint64()
	for i := range 8 {
		b[i], b[8+i] = byte(hi>>(8*i)), byte(lo>>(8*i))
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	out := make([]byte, 0, 36)
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[x>>4], hex[x&0x0f])
	}
	return string(out)
}

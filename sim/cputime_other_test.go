//go:build !unix

package sim

import "time"

var cpuStart = time.Now()

// cpuTime is the time since the tests started where the process's CPU
// time is not to be had (WebAssembly).
func cpuTime() time.Duration { return time.Since(cpuStart) }

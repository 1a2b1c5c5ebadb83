//go:build unix

package sim

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far: on a loaded machine a check of
// how long something took counts the work, not the wait for a core.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

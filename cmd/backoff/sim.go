package main

import (
	"fmt"
	"io"
)

// runSim is filled in with the sim package (issue 3).
func runSim(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "backoff sim: not built yet")
	return 1
}

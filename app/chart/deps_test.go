package chart

import (
	"os/exec"
	"strings"
	"testing"
)

// The charts are drawn by the server and the CLI as well as the page: the
// package must not pull go-app in.
func TestNoGoApp(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "maxence-charriere/go-app") {
		t.Fatal("package chart depends on go-app")
	}
}

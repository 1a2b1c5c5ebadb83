//go:build benchserver && !wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// simWasmPage runs a GOOS=js test binary as the page runs app.wasm: fetched
// and compiled by Chromium's WebAssembly engine, driven by Go's
// wasm_exec.js. Its standard output is kept in lines for the benchmark to
// read.
const simWasmPage = `<!doctype html><meta charset=utf-8><title>sim</title>
<script src="wasm_exec.js"></script><script>
window.out = [];
const dec = new TextDecoder();
let rest = "";
globalThis.fs.writeSync = (fd, b) => {
  rest += dec.decode(b);
  let i;
  while ((i = rest.indexOf("\n")) >= 0) { window.out.push(rest.slice(0, i)); rest = rest.slice(i + 1); }
  return b.length;
};
async function runTest(args) {
  const go = new Go();
  go.argv = ["sim.test"].concat(args);
  let code = -1;
  go.exit = c => { code = c; };
  const r = await WebAssembly.instantiateStreaming(fetch("sim.wasm"), go.importObject);
  await go.run(r.instance);
  if (rest) window.out.push(rest);
  return code;
}
</script>`

// BenchmarkSimWasmChromium runs the simulator's WebAssembly test binary
// SIM_WASM_TEST in headless Chromium (CHROME_PATH, default Debian's) with
// the flags SIM_WASM_ARGS (space-separated) and prints its output, each
// line after "chromium: ". make bench-wasm calls it each round beside the
// same binary under Node and the native one: Node's engine is years older
// than the browser's, and the page runs in the browser. WASM_EXEC_JS is
// Go's wasm_exec.js.
func BenchmarkSimWasmChromium(b *testing.B) {
	bin, args, execJS := os.Getenv("SIM_WASM_TEST"), strings.Fields(os.Getenv("SIM_WASM_ARGS")), os.Getenv("WASM_EXEC_JS")
	if bin == "" || execJS == "" {
		b.Fatal("SIM_WASM_TEST and WASM_EXEC_JS must name the test binary and Go's wasm_exec.js: run `make bench-wasm`")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, simWasmPage)
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, execJS) })
	mux.HandleFunc("/sim.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, bin)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	chrome := chromePath(b)
	ctx, stop := headlessChromium(b, chrome)
	defer stop()
	ctx, cancelTime := context.WithTimeout(ctx, 15*time.Minute)
	defer cancelTime()

	argsJSON, _ := json.Marshal(args)
	for b.Loop() {
		if _, err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
			b.Fatalf("starting %s: %v", chrome, err)
		}
		code, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf("runTest(%s)", argsJSON), chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatalf("running %s in Chromium: %v", bin, err)
		}
		out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.out`))
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range out {
			fmt.Println("chromium:", l)
		}
		if code != 0 {
			b.Fatalf("%s %s exited with %d in Chromium", bin, strings.Join(args, " "), code)
		}
	}
}

//go:build benchserver && !wasm

// Lighthouse against the server: run with `make bench-lighthouse` (part of
// `make bench`), which builds bin/playground and installs Lighthouse,
// pinned, from npm. LIGHTHOUSE names Lighthouse's CLI (index.js, run with
// node), CHROME_PATH the browser (default Debian's /usr/bin/chromium),
// FLOOR_DIR go-app's smallest program as the Makefile builds it (tmp/floor),
// LH_RUNS the loads per page and setting (default 3; medians are printed),
// LH_PRESETS the settings (default desktop,mobile),
// PLAYGROUND_BASE_BIN an older build of the server (`make bench-lighthouse
// LH_BASE=rev` builds one), whose pages are loaded in the same rounds so a
// change can be held to the page before it.

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/cmd/playground/testdata/minimal/hello"
	"github.com/backoff-playground/playground/static"
)

// A first load's layout shift on Lighthouse's mobile settings, a goal of
// its own: it does not move with the machine. Scores and blocking times
// do (a loaded 2-core host scores the playground and go-app's smallest
// program alike in the 70s, a quiet one in the 90s), so they are held
// only against the floor measured in the same run.
const goalMobileCLS = 0.02

// Goals against the slim floor (go-app's smallest program built and served
// the playground's way), desktop and mobile alike: a page's total blocking
// time at most goalFloorTBT times the floor's, its longest task at most
// goalFloorLongestMs longer than the floor's.
const (
	goalFloorTBT       = 1.5
	goalFloorLongestMs = 50
)

// lhPage is one page measured: the playground's pages, or a floor.
type lhPage struct {
	name, url string
	floor     bool
	base      string // for a page of the older build, the page it is the old copy of
}

// lighthousePages are the playground's pages measured: the whole page, a
// lesson, and one embedded view.
var lighthousePages = []string{"/", "/?lesson=1", "/?view=herd"}

// lhReport is what the benchmark reads of Lighthouse's JSON report.
type lhReport struct {
	Categories struct {
		Performance struct {
			Score float64 `json:"score"`
		} `json:"performance"`
	} `json:"categories"`
	Audits map[string]struct {
		NumericValue float64 `json:"numericValue"`
		Details      struct {
			Items []struct {
				URL      string  `json:"url"`
				Duration float64 `json:"duration"`
			} `json:"items"`
		} `json:"details"`
	} `json:"audits"`
}

// lhRun is one load's figures. longestMs is 0 when no task reached 50 ms
// (Lighthouse lists only those).
type lhRun struct {
	score, tbtMs, lcpMs, cls, longestMs float64
	longestURL                          string
	load                                string // uptime's load averages when it ran
}

// BenchmarkLighthouse loads the playground's pages and go-app's smallest
// program (cmd/playground/testdata/minimal) built twice: plainly, served by
// go-app's Handler ("floor plain"), and the playground's way, served by
// this package's server code ("floor slim"); the Makefile builds both
// into FLOOR_DIR. Every page is loaded once per round, in turn, so a
// neighbour's load on the shared machine falls on all of them alike, and
// each page's medians are set against the slim floor's.
func BenchmarkLighthouse(b *testing.B) {
	cli := os.Getenv("LIGHTHOUSE")
	if cli == "" {
		b.Fatal("LIGHTHOUSE is not set: run `make bench-lighthouse`, which installs Lighthouse 12.2.3 from npm and sets it")
	}
	if _, err := os.Stat(cli); err != nil {
		b.Fatalf("Lighthouse's CLI %s is missing (%v): run `make bench-lighthouse`", cli, err)
	}
	node := need(b, "node", "")
	chrome := chromePath(b)
	floorDir := floorDirOf(b, "bench-lighthouse")
	pages := benchPages(b,
		lhPage{"floor plain", startFloorPlain(b, filepath.Join(floorDir, "plain")), true, ""},
		lhPage{"floor slim", startFloorSlim(b, filepath.Join(floorDir, "slim")), true, ""})
	runs := envInt("LH_RUNS", 3)

	type key struct{ page, preset string }
	results := map[key][]lhRun{}
	presets := []string{"desktop", "mobile"}
	if v := os.Getenv("LH_PRESETS"); v != "" {
		presets = strings.Split(v, ",")
		for _, p := range presets {
			if p != "desktop" && p != "mobile" {
				b.Fatalf("LH_PRESETS: %q is not a setting; desktop, mobile or both, comma separated", p)
			}
		}
	}
	fmt.Printf("\nLighthouse 12.2.3, %d cold loads per page and setting (Chromium %s, --headless=new), one at a time, interleaved\n", runs, chrome)
	fmt.Printf("floor plain: go-app's smallest program as its docs build it (%s), served by go-app's Handler\n", wasmSizes(filepath.Join(floorDir, "plain", "web", "app.wasm")))
	fmt.Printf("floor slim:  the same program built and served the playground's way (%s)\n", wasmSizes(filepath.Join(floorDir, "slim", "app.wasm")))
	for range runs {
		for _, page := range pages {
			for _, preset := range presets {
				r := runLighthouse(b, node, cli, chrome, page.url, preset)
				results[key{page.name, preset}] = append(results[key{page.name, preset}], r)
				fmt.Printf("  %-12s %-8s score %3.0f  TBT %5.0f ms  LCP %6.0f ms  CLS %.3f  longest task %5.0f ms (%s)  load %s\n",
					page.name, preset, r.score, r.tbtMs, r.lcpMs, r.cls, r.longestMs, r.longestURL, r.load)
			}
		}
	}
	for range b.N {
	}
	median := func(rs []lhRun, f func(lhRun) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		if len(v)%2 == 0 {
			return (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return v[len(v)/2]
	}
	type medians struct{ score, tbt, lcp, cls, long float64 }
	medOf := func(name, preset string) medians {
		rs := results[key{name, preset}]
		return medians{median(rs, func(r lhRun) float64 { return r.score }), median(rs, func(r lhRun) float64 { return r.tbtMs }),
			median(rs, func(r lhRun) float64 { return r.lcpMs }), median(rs, func(r lhRun) float64 { return r.cls }),
			median(rs, func(r lhRun) float64 { return r.longestMs })}
	}
	fmt.Printf("\nmedians of %d loads (a longest task of 0: none reached 50 ms); x floor: TBT over the slim floor's, + floor: longest task minus the slim floor's\n", runs)
	fmt.Printf("%-12s %-8s %5s %8s %9s %6s %11s %8s %9s  %s\n", "page", "setting", "score", "TBT ms", "LCP ms", "CLS", "longest ms", "x floor", "+ floor", "goals")
	for _, preset := range presets {
		floor := medOf("floor slim", preset)
		for _, page := range pages {
			m := medOf(page.name, preset)
			ratio, more := tbtRatio(m.tbt, floor.tbt), m.long-floor.long
			goal := ""
			if !page.floor {
				goal = verdict(ratio <= goalFloorTBT && more <= goalFloorLongestMs,
					fmt.Sprintf("TBT <= %.1fx floor, longest <= floor + %d ms", goalFloorTBT, goalFloorLongestMs))
				if preset != "desktop" {
					goal += "; " + verdict(m.cls <= goalMobileCLS, fmt.Sprintf("CLS <= %.2f", goalMobileCLS))
				}
			}
			fmt.Printf("%-12s %-8s %5.0f %8.0f %9.0f %6.3f %11.0f %8s %+9.0f  %s\n", page.name, preset, m.score, m.tbt, m.lcp, m.cls, m.long, fmtRatio(ratio), more, goal)
			name := strings.NewReplacer("/", "", "?", "", "=", "-", " ", "-").Replace(page.name)
			if name == "" {
				name = "root"
			}
			b.ReportMetric(m.score, name+"-"+preset+"-score")
			b.ReportMetric(m.tbt, name+"-"+preset+"-tbt-ms")
			if !page.floor {
				b.ReportMetric(ratio, name+"-"+preset+"-tbt-x-floor")
				b.ReportMetric(more, name+"-"+preset+"-longest-ms-over-floor")
			}
		}
	}
	var based []lhPage
	for _, page := range pages {
		if page.base != "" {
			based = append(based, page)
		}
	}
	if len(based) == 0 {
		return
	}
	fmt.Printf("\nagainst the older build in the same rounds: x base, TBT over the old page's; + base, longest task minus the old page's\n")
	fmt.Printf("%-12s %-8s %8s %8s %11s %11s %8s %9s\n", "page", "setting", "TBT ms", "base", "longest ms", "base", "x base", "+ base")
	for _, preset := range presets {
		for _, old := range based {
			m, o := medOf(old.base, preset), medOf(old.name, preset)
			ratio := tbtRatio(m.tbt, o.tbt)
			fmt.Printf("%-12s %-8s %8.0f %8.0f %11.0f %11.0f %8s %+9.0f\n", old.base, preset, m.tbt, o.tbt, m.long, o.long, fmtRatio(ratio), m.long-o.long)
			name := strings.NewReplacer("/", "", "?", "", "=", "-").Replace(old.base)
			if name == "" {
				name = "root"
			}
			b.ReportMetric(ratio, name+"-"+preset+"-tbt-x-base")
		}
	}
}

// tbtRatio is a page's total blocking time over the floor's. A floor of
// 0 ms (no task over 50 ms) makes any blocking time infinitely more, and
// none at all the same.
func tbtRatio(page, floor float64) float64 {
	switch {
	case floor > 0:
		return page / floor
	case page > 0:
		return math.Inf(1)
	}
	return 1
}

func fmtRatio(r float64) string {
	if math.IsInf(r, 1) {
		return "inf"
	}
	return fmt.Sprintf("%.2fx", r)
}

// wasmSizes is a wasm file's size, and its brotli copy's when there is one.
func wasmSizes(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return "missing"
	}
	s := fmt.Sprintf("%.1f MB of wasm", float64(st.Size())/1e6)
	if br, err := os.Stat(path + ".br"); err == nil {
		s += fmt.Sprintf(", %.2f MB brotli", float64(br.Size())/1e6)
	}
	return s
}

// chromePath is the browser the benchmarks drive: CHROME_PATH, or
// Debian's Chromium.
func chromePath(b *testing.B) string {
	chrome := os.Getenv("CHROME_PATH")
	if chrome == "" {
		chrome = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chrome); err != nil {
		b.Fatalf("Chromium is missing at %s: run `make browser-deps` (Debian: apt-get install chromium) or set CHROME_PATH", chrome)
	}
	return chrome
}

// floorDirOf is FLOOR_DIR, where the Makefile builds go-app's smallest
// program for target.
func floorDirOf(b *testing.B, target string) string {
	dir := os.Getenv("FLOOR_DIR")
	if dir == "" {
		b.Fatalf("FLOOR_DIR is not set: run `make %s`, which builds go-app's smallest program into tmp/floor and sets it", target)
	}
	return dir
}

// benchPages are the pages a benchmark of the start loads: the floors
// given, the playground's lighthousePages from the server (PLAYGROUND_BIN
// or a build of this package), and with PLAYGROUND_BASE_BIN the same pages
// from that older build.
func benchPages(b *testing.B, floors ...lhPage) []lhPage {
	srv := startProcess(b, serverBinary(b), "--addr", "127.0.0.1:0")
	pages := floors
	for _, p := range lighthousePages {
		pages = append(pages, lhPage{p, strings.TrimSuffix(srv.url, "/") + p, false, ""})
	}
	if bin := os.Getenv("PLAYGROUND_BASE_BIN"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			b.Fatalf("PLAYGROUND_BASE_BIN: %v", err)
		}
		base := startProcess(b, bin, "--addr", "127.0.0.1:0")
		for _, p := range lighthousePages {
			pages = append(pages, lhPage{"base " + p, strings.TrimSuffix(base.url, "/") + p, false, p})
		}
		fmt.Printf("base: the server built at %s\n", os.Getenv("LH_BASE"))
	}
	return pages
}

// headlessChromium starts chrome headless with a profile of its own and
// gives a chromedp context of its first tab, and the func that ends it.
func headlessChromium(b *testing.B, chrome string) (context.Context, func()) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.UserDataDir(b.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	return ctx, func() { cancel(); cancelAlloc() }
}

// startFloorPlain starts go-app's smallest program's server, built as its
// docs build it, in dir (which holds web/app.wasm, served by go-app's
// Handler from the working directory), and returns its URL.
func startFloorPlain(b *testing.B, dir string) string {
	b.Helper()
	bin := filepath.Join(dir, "minimal")
	for _, f := range []string{bin, filepath.Join(dir, "web", "app.wasm")} {
		if _, err := os.Stat(f); err != nil {
			b.Fatalf("go-app's smallest program is not built (%v): run `make bench-lighthouse`", err)
		}
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("%s did not start: %v", bin, err)
	}
	go io.Copy(io.Discard, out)
	_, url, _ := strings.Cut(strings.TrimSpace(line), " serving ")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		b.Fatalf("%s: start line %q", bin, line)
	}
	return url
}

// startFloorSlim serves go-app's smallest program, built the playground's
// way into dir (app.wasm and its .br and .gz), with the server's own code:
// the pages rendered once by the playground's handler, the rewritten
// app.js (streamed, sliced, shared compile), the same headers and limits.
// It runs in this process: the program's route is the only one here.
func startFloorSlim(b *testing.B, dir string) string {
	b.Helper()
	for _, f := range []string{"app.wasm", "app.wasm.br", "app.wasm.gz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			b.Fatalf("go-app's smallest program is not built the playground's way (%v): run `make bench-lighthouse`", err)
		}
	}
	hello.Route()
	h, info := newServer(serverConfig{}, os.DirFS(dir), static.FS)
	// The floor has no Import panel, so no import.wasm.
	warnings := slices.DeleteFunc(slices.Clone(info.warnings), func(w string) bool { return w == warnNoImport })
	if !info.hasWasm || len(warnings) > 0 {
		b.Fatalf("the slim floor's server: wasm %v, warnings %q", info.hasWasm, warnings)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := newHTTPServer(h, defaultPerWrite)
	go srv.Serve(limitHeaders(ln, "", nil, nil))
	b.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

func verdict(ok bool, goal string) string {
	if ok {
		return "met (" + goal + ")"
	}
	return "MISSED (" + goal + ")"
}

// runLighthouse loads url once in a fresh Chromium profile (a first visit:
// no cache, no service worker) with Lighthouse's desktop preset or its
// default mobile settings, performance only.
func runLighthouse(b *testing.B, node, cli, chrome, url, preset string) lhRun {
	b.Helper()
	// uses-text-compression is left out: it asks the browser for the body
	// of every response sent without compression, within a second, and the
	// plain floor's 13.9 MB app.wasm (a fetch, so taken for text) failed
	// the whole run on a loaded machine. It is advice, not a part of the
	// score.
	args := []string{cli, url, "--only-categories=performance", "--skip-audits=uses-text-compression", "--output=json", "--output-path=stdout", "--quiet",
		"--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync"}
	if preset == "desktop" {
		args = append(args, "--preset=desktop")
	}
	load := uptimeLoad()
	var out []byte
	for try := 1; ; try++ {
		cmd := exec.Command(node, args...)
		cmd.Env = append(os.Environ(), "CHROME_PATH="+chrome)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		var err error
		if out, err = cmd.Output(); err == nil {
			break
		}
		// Lighthouse's own trace sometimes misses the navigation's start
		// (NO_NAVSTART, on this machine's Chromium under load); it says
		// to run it again, and so does this, twice at most.
		if try < 3 && strings.Contains(stderr.String(), "Please run Lighthouse again") {
			fmt.Printf("  %s %s: Lighthouse asked to be run again (try %d)\n", url, preset, try)
			continue
		}
		b.Fatalf("lighthouse %s (%s): %v\n%s", url, preset, err, stderr.String())
	}
	var rep lhReport
	if err := json.Unmarshal(out, &rep); err != nil {
		b.Fatalf("lighthouse %s (%s): reading its report: %v", url, preset, err)
	}
	r := lhRun{
		score: rep.Categories.Performance.Score * 100,
		tbtMs: rep.Audits["total-blocking-time"].NumericValue,
		lcpMs: rep.Audits["largest-contentful-paint"].NumericValue,
		cls:   rep.Audits["cumulative-layout-shift"].NumericValue,
		load:  load,
	}
	for _, it := range rep.Audits["long-tasks"].Details.Items {
		if it.Duration > r.longestMs {
			r.longestMs, r.longestURL = it.Duration, it.URL
		}
	}
	if i := strings.LastIndexByte(r.longestURL, '/'); i >= 0 {
		r.longestURL = r.longestURL[i+1:]
	}
	if r.longestURL == "" {
		r.longestURL = "none over 50 ms"
	}
	return r
}

// uptimeLoad is the 1-minute load average (of 2 cores, shared), read from
// /proc/loadavg.
func uptimeLoad() string {
	s, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(s))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

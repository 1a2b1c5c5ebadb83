//go:build benchserver && !wasm

// The server against nginx, and its memory under hostile links: run with
// `make bench-server`, which builds bin/playground and installs Debian's
// nginx-light and wrk when missing. Everything listens on loopback and stops
// by itself. PLAYGROUND_BIN names the server binary (else it is built);
// BENCH_SECONDS sets each wrk run (default 3), BENCH_ROUNDS their number
// (default 3).

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Goals: the server against nginx on the same files, and its memory
// under hostile links.
const (
	goalIndexRatio = 0.5       // requests/s for /, server over nginx
	goalWasmRatio  = 0.8       // requests/s for /web/app.wasm
	goalP99Ratio   = 2.0       // p99 latency, server over nginx, at most
	goalRSS        = 100 << 20 // peak, under 200 hostile requests at once
)

// BenchmarkServerVsNginx serves the server's own bytes (fetched from it:
// the page and app.wasm, identity and gzip) from nginx with gzip_static and
// the same headers, and runs wrk at 50 connections against / and
// /web/app.wasm on both, asking for gzip: Debian's nginx-light has no
// brotli_static, so both send the .gz copies, like with like.
func BenchmarkServerVsNginx(b *testing.B) {
	nginx, wrk := need(b, "nginx", "/usr/sbin/nginx"), need(b, "wrk", "")
	bin := serverBinary(b)
	srv := startProcess(b, bin, "--addr", "127.0.0.1:0")
	dir, err := os.MkdirTemp("", "playground-bench-") // not b.TempDir, whose parent is private: nginx's workers run as nobody under root
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	headers := exportSite(b, srv.url, dir)
	ngx := startNginx(b, nginx, dir, headers)

	for _, path := range []string{"/", "/web/app.wasm"} {
		a, c := fetchGzip(b, srv.url+path[1:]), fetchGzip(b, ngx+path[1:])
		if a != c {
			b.Fatalf("%s: the server and nginx send different bytes (%d, %d): not like with like", path, len(a), len(c))
		}
	}

	secs, rounds := envInt("BENCH_SECONDS", 3), envInt("BENCH_ROUNDS", 3)
	fmt.Printf("\nserver vs nginx on loopback, %d rounds, each: wrk -t2 -c50 -d%ds --latency -H 'Accept-Encoding: gzip' URL\n", rounds, secs)
	fmt.Printf("%-14s %-10s %s\n", "path", "", "requests/s, p99 and errors of each round")
	type pair struct{ server, nginx []wrkResult }
	paths := []string{"/", "/web/app.wasm"}
	results := map[string]*pair{}
	for _, path := range paths {
		results[path] = &pair{}
	}
	// Rounds alternate the two servers, so a noisy neighbour on the shared
	// machine hits both; the medians are compared.
	for range rounds {
		for _, path := range paths {
			p := results[path]
			p.server = append(p.server, runWrk(b, wrk, srv.url+path[1:], secs))
			p.nginx = append(p.nginx, runWrk(b, wrk, ngx+path[1:], secs))
		}
	}
	for _, path := range paths {
		for _, r := range []struct {
			name string
			rs   []wrkResult
		}{{"playground", results[path].server}, {"nginx", results[path].nginx}} {
			fmt.Printf("%-14s %-10s", path, r.name)
			for _, x := range r.rs {
				fmt.Printf("  %8.0f %9s %d", x.rps, x.p99.Round(10*time.Microsecond), x.errors)
			}
			fmt.Println()
		}
	}
	fmt.Println()
	for _, path := range paths {
		p := results[path]
		s, n := median(p.server), median(p.nginx)
		rps, p99 := s.rps/n.rps, float64(s.p99)/float64(n.p99)
		goal := goalIndexRatio
		if path != "/" {
			goal = goalWasmRatio
		}
		fmt.Printf("%-14s median requests/s %.0f vs %.0f: %.2fx nginx's (goal >= %.1fx); p99 %s vs %s: %.2fx (goal <= %.0fx); errors %d\n",
			path, s.rps, n.rps, rps, goal, s.p99.Round(10*time.Microsecond), n.p99.Round(10*time.Microsecond), p99, goalP99Ratio, s.errors)
		name := strings.Trim(strings.ReplaceAll(path, "/", "-"), "-")
		if name == "" {
			name = "index"
		}
		b.ReportMetric(s.rps, name+"-req/s")
		b.ReportMetric(n.rps, name+"-nginx-req/s")
		b.ReportMetric(rps, name+"-rps-ratio")
		b.ReportMetric(p99, name+"-p99-ratio")
		// The ratios swing with the machine's other load: a missed goal is
		// said, not failed; errors fail.
		if rps < goal || p99 > goalP99Ratio {
			fmt.Printf("%-14s GOAL MISSED\n", path)
		}
		if s.errors > 0 {
			b.Errorf("%s: %d errors", path, s.errors)
		}
	}
}

// median is the median round by requests/s and by p99 separately; errors
// are summed over the rounds.
func median(rs []wrkResult) wrkResult {
	rps := make([]float64, len(rs))
	p99 := make([]time.Duration, len(rs))
	var m wrkResult
	for i, r := range rs {
		rps[i], p99[i] = r.rps, r.p99
		m.errors += r.errors
	}
	slices.Sort(rps)
	slices.Sort(p99)
	m.rps, m.p99 = rps[len(rs)/2], p99[len(rs)/2]
	return m
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkServerHostileRSS sends 200 concurrent requests for the most
// expensive page link there is to a fresh server process and reads its
// peak RSS (VmHWM): the page is made once at start, so each costs nothing.
// PLAYGROUND_OLD_BIN, when set, measures that binary too.
func BenchmarkServerHostileRSS(b *testing.B) {
	const query = "?jitter=decorrelated-v2&attempts=1000&clients=2000000&runs=20"
	fmt.Printf("\n200 concurrent GET /%s\n", query)
	hostile(b, "", func(int) string { return query }, http.StatusOK)
}

// BenchmarkServerHostileSVG sends 200 concurrent requests for distinct
// images (a seed each, so no two share a drawing or a cache entry): of the
// biggest herd the page runs (2M clients, 1000 attempts, a year's
// outage, 20 runs), which the server refuses at once, over its memory for
// a drawing; then of the biggest herd and request-level runs it draws,
// just within that memory, which it draws one at a time, holding a few
// more in its bounded queue and answering the rest 503 with Retry-After at
// once. Every request gets an answer, and the peak RSS stays under
// goalRSS.
func BenchmarkServerHostileSVG(b *testing.B) {
	for _, c := range []struct {
		name, query string
		want        int // the status of every answer; 0: 200 or 503
	}{
		{"herd-2M", "svg/herd.svg?clients=2000000&attempts=1000&cap=1s&outage-end=8760h&runs=20&seed=", http.StatusBadRequest},
		{"herd", "svg/herd.svg?clients=500000&attempts=1000&cap=1s&outage-end=8760h&runs=20&seed=", 0},
		{"queue", "svg/herd.svg?traffic=closed&server=queue&clients=20000&attempts=1000&runs=20&seed=", 0},
		{"compare", "svg/compare.svg?clients=400000&attempts=1000&cap=1s&outage-end=8760h&runs=20&seed=", 0},
		// Open traffic a queue cannot keep up with: each run fills its
		// memory and is refused then (400), or waits its turn (503).
		{"open", "svg/herd.svg?server=queue&traffic=open:7280&duration=1m&seed=", 0},
	} {
		fmt.Printf("\n200 concurrent GET /%s$i, i = 1..200\n", c.query)
		hostile(b, c.name+"-", func(i int) string { return c.query + strconv.Itoa(i+1) }, c.want)
	}
}

// hostile sends 200 concurrent GETs for path(i) to a fresh server process
// (and to PLAYGROUND_OLD_BIN's) and prints its peak RSS, the answers by
// status and the CPU it spent. A request fails when it gets no answer, or
// one other than want (or, when want is 0, other than 200, a 400 for a
// drawing that filled its memory, or a 503 carrying Retry-After). The peak must stay under goalRSS. Its metrics'
// names start with metric.
func hostile(b *testing.B, metric string, path func(int) string, want int) {
	busyOK, goal := want == 0, int64(goalRSS)
	if want == 0 {
		want = http.StatusOK
	}
	bins := [][2]string{{"server", serverBinary(b)}}
	if old := os.Getenv("PLAYGROUND_OLD_BIN"); old != "" {
		bins = append(bins, [2]string{"old server", old})
	}
	for _, bin := range bins {
		p := startProcess(b, bin[1], "--addr", "127.0.0.1:0")
		before := vmHWM(b, p.cmd.Process.Pid)
		cpu0 := processCPU(b, p.cmd.Process.Pid)
		t0 := time.Now()
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 200}, Timeout: 5 * time.Minute}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var ok, busy, refused, failed int
		var slowest200, slowest503 time.Duration
		for i := range 200 {
			wg.Go(func() {
				t := time.Now()
				res, err := client.Get(p.url + path(i))
				if err == nil {
					_, err = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				took := time.Since(t)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					failed++
				case res.StatusCode == want:
					ok++
					slowest200 = max(slowest200, took)
				case busyOK && res.StatusCode == http.StatusBadRequest:
					refused++
				case busyOK && res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") != "":
					busy++
					slowest503 = max(slowest503, took)
				default:
					failed++
				}
			})
		}
		wg.Wait()
		took := time.Since(t0)
		cpu := processCPU(b, p.cmd.Process.Pid) - cpu0
		peak := vmHWM(b, p.cmd.Process.Pid)
		p.stop()
		fmt.Printf("%-10s peak RSS %5.1f MB (%.1f MB after start); %d answered %d (slowest %s), %d 503 (slowest %s), %d 400 after drawing, %d failed; %s wall, %s CPU in the server\n",
			bin[0], float64(peak)/(1<<20), float64(before)/(1<<20), ok, want, slowest200.Round(time.Millisecond), busy, slowest503.Round(time.Millisecond), refused,
			failed, took.Round(time.Millisecond), cpu.Round(time.Millisecond))
		if bin[0] == "server" {
			b.ReportMetric(float64(peak)/(1<<20), metric+"peak-RSS-MB")
			b.ReportMetric(float64(cpu.Milliseconds()), metric+"server-cpu-ms")
			b.ReportMetric(float64(ok), metric+"answered-"+strconv.Itoa(want))
			if busyOK {
				b.ReportMetric(float64(busy), metric+"answered-503")
			}
			if peak >= goal || failed > 0 {
				b.Errorf("peak RSS %d MB (goal < %d MB), %d failed", peak>>20, goal>>20, failed)
			}
		}
	}
}

// need finds a command on PATH or at fallback, or fails naming the make
// target that installs it.
func need(b *testing.B, name, fallback string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if fallback != "" {
		if _, err := os.Stat(fallback); err == nil {
			return fallback
		}
	}
	b.Fatalf("%s is missing: run `make bench-server`, which installs it (Debian: apt-get install %s)", name, map[string]string{"nginx": "nginx-light", "wrk": "wrk"}[name])
	return ""
}

// serverBinary is PLAYGROUND_BIN, or the server built into a temporary
// directory.
func serverBinary(b *testing.B) string {
	if p := os.Getenv("PLAYGROUND_BIN"); p != "" {
		return p
	}
	out := filepath.Join(b.TempDir(), "playground")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, ".")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("building the server: %v", err)
	}
	return out
}

type process struct {
	cmd  *exec.Cmd
	url  string
	stop func()
}

// startProcess starts the server binary and reads its URL; it is stopped
// with SIGTERM when the benchmark ends, if not before.
func startProcess(b *testing.B, bin string, args ...string) *process {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var once sync.Once
	p := &process{cmd: cmd}
	p.stop = func() {
		once.Do(func() {
			cmd.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		})
	}
	b.Cleanup(p.stop)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("%s did not start: %v", bin, err)
	}
	go io.Copy(io.Discard, out)
	_, p.url, _ = strings.Cut(strings.TrimSpace(line), " serving ")
	if !strings.HasPrefix(p.url, "http://127.0.0.1:") {
		b.Fatalf("%s: start line %q", bin, line)
	}
	return p
}

// exportSite writes the server's page and app.wasm, identity and gzip, for
// nginx, and returns the headers every response of the server carries.
func exportSite(b *testing.B, url, dir string) http.Header {
	var headers http.Header
	for path, file := range map[string]string{"": "site/index.html", "web/app.wasm": "site/web/app.wasm"} {
		for _, enc := range []string{"identity", "gzip"} {
			req, _ := http.NewRequest("GET", url+path, nil)
			req.Header.Set("Accept-Encoding", enc)
			res, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				b.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != 200 || (enc == "gzip") != (res.Header.Get("Content-Encoding") == "gzip") {
				b.Fatalf("GET /%s (%s): %d %q %v", path, enc, res.StatusCode, res.Header.Get("Content-Encoding"), err)
			}
			name := filepath.Join(dir, file)
			if enc == "gzip" {
				name += ".gz"
			}
			os.MkdirAll(filepath.Dir(name), 0o755)
			if err := os.WriteFile(name, body, 0o644); err != nil {
				b.Fatal(err)
			}
			if path == "" {
				headers = res.Header
			}
		}
	}
	return headers
}

// startNginx runs nginx in the foreground on a free loopback port, serving
// dir/site with gzip_static and the server's fixed headers, and returns its
// URL.
func startNginx(b *testing.B, nginx, dir string, headers http.Header) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var add strings.Builder
	for _, k := range []string{"X-Content-Type-Options", "Content-Security-Policy", "Permissions-Policy", "X-Frame-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy", "Cache-Control"} {
		if v := headers.Get(k); v != "" {
			fmt.Fprintf(&add, "    add_header %s \"%s\" always;\n", k, v)
		}
	}
	conf := fmt.Sprintf(`worker_processes 2;
daemon off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %[1]s/tmp-body;
  proxy_temp_path %[1]s/tmp-proxy;
  fastcgi_temp_path %[1]s/tmp-fastcgi;
  uwsgi_temp_path %[1]s/tmp-uwsgi;
  scgi_temp_path %[1]s/tmp-scgi;
  types { text/html html; application/wasm wasm; }
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip_static on;
  gzip_vary on;
  server {
    listen %[2]s;
    root %[1]s/site;
    index index.html;
%[3]s  }
}
`, dir, addr, add.String())
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, nginx, "-c", confPath, "-p", dir, "-e", filepath.Join(dir, "error.log"))
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) } // fast shutdown of master and workers
	cmd.WaitDelay = 10 * time.Second
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cancel(); cmd.Wait() })
	url := "http://" + addr + "/"
	for deadline := time.Now().Add(10 * time.Second); ; {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			return url
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			b.Fatalf("nginx did not answer on %s: %s", addr, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// fetchGzip is what a gzip-accepting client receives, as bytes.
func fetchGzip(b *testing.B, url string) string {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.Header.Get("Content-Encoding") != "gzip" {
		b.Fatalf("%s: Content-Encoding %q, want gzip (%d, %v)", url, res.Header.Get("Content-Encoding"), res.StatusCode, res.Header)
	}
	return string(body)
}

type wrkResult struct {
	rps    float64
	p99    time.Duration
	errors int // socket errors and non-2xx/3xx responses
}

var (
	wrkRPS    = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkP99    = regexp.MustCompile(`\n\s+99%\s+([0-9.]+)(us|ms|s)\b`)
	wrkNon2xx = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	wrkSocket = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

func runWrk(b *testing.B, wrk, url string, secs int) wrkResult {
	out, err := exec.Command(wrk, "-t2", "-c50", fmt.Sprintf("-d%ds", secs), "--latency", "-H", "Accept-Encoding: gzip", url).CombinedOutput()
	if err != nil {
		b.Fatalf("wrk %s: %v\n%s", url, err, out)
	}
	s := string(out)
	var r wrkResult
	m := wrkRPS.FindStringSubmatch(s)
	p := wrkP99.FindStringSubmatch(s)
	if m == nil || p == nil {
		b.Fatalf("wrk output not understood:\n%s", s)
	}
	r.rps, _ = strconv.ParseFloat(m[1], 64)
	v, _ := strconv.ParseFloat(p[1], 64)
	r.p99 = time.Duration(v * float64(map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[p[2]]))
	if m := wrkNon2xx.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		r.errors += n
	}
	if m := wrkSocket.FindStringSubmatch(s); m != nil {
		for _, x := range m[1:] {
			n, _ := strconv.Atoi(x)
			r.errors += n
		}
	}
	return r
}

// vmHWM is a process's peak resident set size in bytes.
func vmHWM(b *testing.B, pid int) int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	if m == nil {
		b.Fatalf("no VmHWM in /proc/%d/status", pid)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// processCPU is a process's user plus system CPU time (/proc/PID/stat,
// in clock ticks of 10 ms).
func processCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(stat), ") ") // the command name may hold spaces
	f := strings.Fields(rest)
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

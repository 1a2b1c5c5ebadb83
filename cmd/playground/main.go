//go:build !wasm

// Command playground serves the browser playground: the go-app
// pages, the WebAssembly app (pre-compressed), wasm_exec.js, the style sheet,
// the icons and /healthz, all embedded in the binary.
//
//	playground [--addr 127.0.0.1:8080] [--base-path /prefix] [--frame-ancestors https://docs.example.com] [--log]
//	playground --write-static DIR [--base-path /prefix]
//
// Every file is made once at start (the page rendered, text compressed with
// br and gzip) and served from memory with its own ETag; the page reads its
// state from the query in the browser. With --write-static it writes those
// files to DIR for a static host instead of serving them (static.go).
//
// The same directory holds the wasm main (main_wasm.go), built by the
// Makefile with GOOS=js GOARCH=wasm into web/.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"syscall"
	"time"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

func main() {
	os.Exit(command(os.Args[1:], os.Stdout, os.Stderr, web.FS, static.FS))
}

// command is main with its exit code: SIGTERM or SIGINT stops the server
// gracefully (0), bad usage is 2, any other failure 1. After the first signal
// the default handling comes back, so a second Ctrl-C ends it at once.
func command(args []string, stdout, stderr io.Writer, webFS, staticFS fs.FS) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	switch err := run(ctx, args, stdout, stderr, webFS, staticFS); {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		return 2 // run already said what was wrong
	default:
		fmt.Fprintln(stderr, "playground:", err)
		return 1
	}
}

// errUsage means bad flags or arguments; Run has printed why (exit code 2).
var errUsage = errors.New("bad usage")

// shutdownTimeout bounds how long in-flight responses may finish after ctx
// ends (a SIGTERM): app.wasm at 160 KB/s takes 10 s.
const shutdownTimeout = 10 * time.Second

// Run serves the playground until ctx ends, then shuts down gracefully. It
// writes one line with the URL to stdout once the listener is open, so a
// test can start it on 127.0.0.1:0 and read the port from that line.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return run(ctx, args, stdout, stderr, web.FS, static.FS)
}

// options are the parsed flags.
type options struct {
	addr        string
	log         bool
	writeStatic string // a directory: write the static site there, do not serve
	cfg         serverConfig
}

// parseFlags reads the command line; errors have been printed to stderr.
// --help gives flag.ErrHelp.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	flags := flag.NewFlagSet("playground", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen `address` (host:port; port 0 picks a free one)")
	basePath := flags.String("base-path", "", "serve under this URL `prefix` (e.g. /playground) behind a reverse proxy")
	frames := flags.String("frame-ancestors", "", "`origins` allowed to embed the page in an iframe, comma separated (e.g. https://docs.example.com); default: none")
	flags.BoolVar(&o.log, "log", false, "write one line per request to stderr: time, method, path, status, bytes, duration")
	flags.StringVar(&o.writeStatic, "write-static", "", "write the site to this `directory` for a static host (with --base-path for its URL prefix) and exit, instead of serving")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "playground: unexpected arguments: %q\n", flags.Args())
		return o, errUsage
	}
	var err error
	if o.cfg.prefix, err = cleanBasePath(*basePath); err != nil {
		fmt.Fprintln(stderr, "playground:", err)
		return o, errUsage
	}
	if o.cfg.frameAncestors, err = parseFrameAncestors(*frames); err != nil {
		fmt.Fprintln(stderr, "playground:", err)
		return o, errUsage
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, webFS, staticFS fs.FS) error {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if o.log {
		o.cfg.accessLog = newAccessLog(stderr)
	}
	o.cfg.perWrite = defaultPerWrite

	app.Register()
	if o.writeStatic != "" {
		st, err := writeStatic(o.writeStatic, o.cfg.prefix, webFS, staticFS)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "playground: wrote %d files (%.1f MB) to %s for the base path %s\n",
			st.files, float64(st.bytes)/1e6, o.writeStatic, o.cfg.prefix+"/")
		return nil
	}
	// Building the site holds app.wasm and its copies (12 MB) while it
	// checks them and renders the pages: collected at the default pace the
	// heap peaked at 53 MB of RSS; at 20%, 44 MB.
	gc := debug.SetGCPercent(20)
	h, info := newServer(o.cfg, webFS, staticFS)
	if !info.hasWasm {
		fmt.Fprintln(stderr, "playground: warning: web/app.wasm is not built (run `make run`); pages answer 503 until it is")
	}
	for _, w := range info.warnings {
		fmt.Fprintln(stderr, "playground: warning:", w)
	}
	debug.FreeOSMemory() // building the site left tens of MB of garbage (decoders, encoders)
	debug.SetGCPercent(gc)
	limitMemory()

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "playground %s serving http://%s%s/\n", info.version, ln.Addr(), o.cfg.prefix)
	ln = limitHeaders(ln, o.cfg.prefix, o.cfg.frameAncestors, o.cfg.accessLog)
	return serve(ctx, newHTTPServer(h, o.cfg.perWrite), ln, shutdownTimeout, stderr)
}

// limitMemory tells the garbage collector what the server may hold: what
// it holds now (the site), the answers it keeps and the drawings' budget.
// With the default GOGC alone a finished drawing's 90 MB stays in the heap
// while the next allocates its own, and peak RSS reaches 224 MB for one
// drawing at a time; the limit makes the collector reclaim it first. A
// drawing estimated above the budget (it runs alone) may still take the
// heap past the limit: it is a soft one. GOMEMLIMIT, when set, wins.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	held := int64(s[0].Value.Uint64() - s[1].Value.Uint64())
	debug.SetMemoryLimit(held + cacheBytes + dynamicMemory)
}

// newHTTPServer bounds what a client may hold: headers in 5 s, a request
// in 10 s, an idle connection 2 min. WriteTimeout is perWrite, and it does
// not bound a whole download: net/http sets it when a request arrives, which
// covers a small response, and writeBody extends it for each 64 KB of a
// large one the client receives: a fixed 30 s would cut app.wasm for anyone
// under 55 KB/s. Each request's context holds its connection (withConn): the
// deadline follows what the kernel says the client acknowledged.
func newHTTPServer(h http.Handler, perWrite time.Duration) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      perWrite,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnContext:       withConn,
	}
}

// serve runs srv on ln until ctx ends, then stops accepting and lets the
// responses in flight finish for up to drain; those still running then are
// cut (their connections closed) and stderr says so. Either way the stop is
// the one asked for: nil.
func serve(ctx context.Context, srv *http.Server, ln net.Listener, drain time.Duration, stderr io.Writer) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		fmt.Fprintf(stderr, "playground: responses still in flight %s after the stop were cut\n", drain)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// cleanBasePath turns "", "/", "pg", "/pg/" into "" or "/pg".
func cleanBasePath(p string) (string, error) {
	p = strings.Trim(p, "/")
	if p == "" {
		return "", nil
	}
	if strings.IndexFunc(p, func(r rune) bool { return !isPathChar(r) }) >= 0 || strings.Contains(p, "//") || strings.Contains("/"+p+"/", "/../") || strings.Contains("/"+p+"/", "/./") {
		return "", fmt.Errorf("--base-path %q: want a plain URL path such as /playground", p)
	}
	return "/" + p, nil
}

// isPathChar allows what a plain base path needs (RFC 3986 unreserved and
// '/'): no spaces, control characters, escapes, queries or fragments.
func isPathChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._~/", r)
}

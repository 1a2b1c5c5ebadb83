//go:build !wasm

// Command playground serves the browser playground: the go-app
// pages, the WebAssembly app (pre-compressed), wasm_exec.js, the style sheet,
// the icons and /healthz, all embedded in the binary.
//
//	playground [--addr 127.0.0.1:8080] [--base-path /prefix] [--frame-ancestors https://docs.example.com]
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
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, errUsage) {
			os.Exit(2) // Run already said what was wrong
		}
		fmt.Fprintln(os.Stderr, "playground:", err)
		os.Exit(1)
	}
}

// errUsage means bad flags or arguments; Run has printed why (exit code 2).
var errUsage = errors.New("bad usage")

// shutdownTimeout bounds how long in-flight requests may finish after ctx ends.
const shutdownTimeout = 5 * time.Second

// Run serves the playground until ctx ends, then shuts down gracefully. It
// writes one line with the URL to stdout once the listener is open, so a
// test can start it on 127.0.0.1:0 and read the port from that line.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("playground", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address` (host:port; port 0 picks a free one)")
	basePath := fs.String("base-path", "", "serve under this URL `prefix` (e.g. /playground) behind a reverse proxy")
	frames := fs.String("frame-ancestors", "", "`origins` allowed to embed the page in an iframe, comma separated (e.g. https://docs.example.com); default: none")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "playground: unexpected arguments: %q\n", fs.Args())
		return errUsage
	}
	prefix, err := cleanBasePath(*basePath)
	if err != nil {
		fmt.Fprintln(stderr, "playground:", err)
		return errUsage
	}

	ancestors, err := parseFrameAncestors(*frames)
	if err != nil {
		fmt.Fprintln(stderr, "playground:", err)
		return errUsage
	}

	app.Register()
	h, info := newServer(serverConfig{prefix: prefix, frameAncestors: ancestors}, web.FS, static.FS)
	if !info.hasWasm {
		fmt.Fprintln(stderr, "playground: warning: web/app.wasm is not built (run `make run`); pages answer 503 until it is")
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second, // app.wasm is ~1.5 MB compressed: ample on any link worth serving
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	fmt.Fprintf(stdout, "playground %s serving http://%s%s/\n", info.version, ln.Addr(), prefix)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
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

//go:build !wasm

package main

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// accessLog writes one line per request (--log):
//
//	2026-12-02T17:11:00.123Z GET "/web/app.wasm" 200 1654860 812.345ms
//
// the time the request arrived (UTC), the method, the path quoted as a Go
// string (a path can hold any byte, a newline included), the status, the
// body bytes written (after compression) and the time to the last byte
// written. The query is left out: a link can be long, and the page never
// depends on it on the server. Lines come from the handler (logRequests)
// and from the listener, which answers a request whose header is too long
// before any handler runs (limitHeaders). Safe for concurrent use.
type accessLog struct {
	mu  sync.Mutex
	out io.Writer
}

func newAccessLog(out io.Writer) *accessLog { return &accessLog{out: out} }

// record writes the line of one request.
func (l *accessLog) record(start time.Time, method, path string, status int, bytes int64, took time.Duration) {
	line := make([]byte, 0, 128)
	line = start.UTC().AppendFormat(line, "2006-01-02T15:04:05.000Z")
	line = append(line, ' ')
	line = append(append(line, method...), ' ')
	line = strconv.AppendQuote(line, path)
	line = append(line, ' ')
	line = strconv.AppendInt(line, int64(status), 10)
	line = append(line, ' ')
	line = strconv.AppendInt(line, bytes, 10)
	line = append(line, ' ')
	line = strconv.AppendFloat(line, float64(took.Microseconds())/1000, 'f', 3, 64)
	line = append(line, "ms\n"...)
	l.mu.Lock()
	l.out.Write(line)
	l.mu.Unlock()
}

// logRequests writes each request's line to log once its response is done.
func logRequests(next http.Handler, log *accessLog) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := &loggingWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(lw, r)
		log.record(start, r.Method, r.URL.Path, lw.status, lw.bytes, time.Since(start))
	})
}

// loggingWriter records the status and the body bytes of a response.
// Unwrap lets http.ResponseController reach the connection (write deadlines).
type loggingWriter struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
}

func (w *loggingWriter) WriteHeader(code int) {
	if !w.wroteHeader && code >= 200 {
		w.status, w.wroteHeader = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *loggingWriter) Write(p []byte) (int, error) {
	w.wroteHeader = true
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// ReadFrom keeps the writer's ReadFrom (sendfile for large files) under
// the log.
func (w *loggingWriter) ReadFrom(r io.Reader) (int64, error) {
	w.wroteHeader = true
	n, err := io.Copy(w.ResponseWriter, r)
	w.bytes += n
	return n, err
}

func (w *loggingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

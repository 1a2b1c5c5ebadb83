package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// --trace FILE writes the first run's calls, one JSON object a line:
// request, try, node, sent_s, done_s (null while unfinished), outcome.

// traceFlag is --trace as given: set tells an empty value from none.
type traceFlag struct {
	name string
	set  bool
}

func (f *traceFlag) String() string     { return f.name }
func (f *traceFlag) Set(v string) error { f.name, f.set = v, true; return nil }

func addTraceFlag(fs *flag.FlagSet) *traceFlag {
	f := &traceFlag{}
	fs.Var(f, "trace", "write the first run's calls to FILE, one JSON line each: request, try, node, sent_s, done_s, outcome (no --sweep)")
	return f
}

// checkTrace refuses an empty --trace, and --trace where there is no one
// run to trace.
func (j *simJob) checkTrace(f *traceFlag) error {
	j.trace = f.name
	if f.set && f.name == "" {
		return &backoff.FieldError{Field: "trace", Value: "", Allowed: "a file to write the calls to"}
	}
	if j.trace == "-" {
		return &backoff.FieldError{Field: "trace", Value: "-", Allowed: "a file to write the calls to (standard output has the results)"}
	}
	if st, err := os.Stat(j.trace); j.trace != "" && err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("--trace: %s: not a regular file", clip(j.trace))
	}
	if j.trace != "" && j.sweep != nil {
		return &backoff.FieldError{Field: "trace", Value: clip(j.trace), Code: backoff.CodeChoice,
			Allowed: "a file for one run's calls: not with --sweep or a list of jitter kinds"}
	}
	return nil
}

// traceFile is a sim.Tracer writing JSON lines to a file; err is the first
// write's error, after which it writes nothing.
type traceFile struct {
	f   *os.File
	w   *bufio.Writer
	b   []byte
	err error
}

func createTrace(name string) (*traceFile, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	// checkTrace refused what was not a regular file then; a FIFO made
	// since would hold the run once its buffer filled, or lose the calls.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("--trace: %s: not a regular file", clip(name))
	}
	return &traceFile{f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

// Call writes one line.
func (t *traceFile) Call(c sim.Call) {
	if t.err != nil {
		return
	}
	b := append(t.b[:0], `{"request":`...)
	b = strconv.AppendInt(b, int64(c.Request), 10)
	b = append(b, `,"try":`...)
	b = strconv.AppendInt(b, int64(c.Try), 10)
	b = append(b, `,"node":`...)
	b = strconv.AppendQuote(b, c.Node)
	b = append(b, `,"sent_s":`...)
	b = strconv.AppendFloat(b, c.SentS, 'g', -1, 64)
	b = append(b, `,"done_s":`...)
	if math.IsNaN(c.DoneS) {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendFloat(b, c.DoneS, 'g', -1, 64)
	}
	b = append(b, `,"outcome":"`...)
	b = append(b, c.Outcome...)
	b = append(b, "\"}\n"...)
	t.b = b
	_, t.err = t.w.Write(b)
}

// close flushes and closes the file, with the first error met; closing
// again does nothing.
func (t *traceFile) close() error {
	if t.f == nil {
		return t.err
	}
	defer func() { t.f = nil }()
	if t.err == nil {
		t.err = t.w.Flush()
	}
	if err := t.f.Close(); t.err == nil {
		t.err = err
	}
	return t.err
}

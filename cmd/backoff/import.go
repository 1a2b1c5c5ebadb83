package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
)

// notPolicy marks an import that found no retry policy: bad input (exit
// 2), its message naming the recognised formats.
type notPolicy struct{ error }

func (notPolicy) badInput() {}

// readImport reads and imports a config: a file, or standard input for
// "-". A text with no policy, too long or refused is bad input; a file
// that cannot be read is a failure. o.Format is --as; o.Pick --pick.
func readImport(name string, stdin io.Reader, o importer.Options) (*importer.Result, error) {
	data, err := readImportText(name, stdin)
	if err != nil {
		return nil, err
	}
	res, err := importer.Read(string(data), o)
	return res, importError(name, err)
}

// importError marks the import errors that are bad input.
func importError(name string, err error) error {
	var np *importer.NoPolicyError
	var tl *importer.TooLongError
	var re *importer.RefusedError
	if errors.As(err, &np) || errors.As(err, &tl) || errors.As(err, &re) {
		return notPolicy{fmt.Errorf("%s: %w", displayName(name), err)}
	}
	return err
}

// readImportText reads a file, or standard input for "-", up to
// importer.MaxInput bytes; a longer one is a *importer.TooLongError with
// its size.
func readImportText(name string, stdin io.Reader) ([]byte, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, importer.MaxInput+1))
	} else {
		data, err = readRegular(name, importer.MaxInput+1)
	}
	if err != nil {
		return nil, err
	}
	if len(data) > importer.MaxInput {
		return nil, notPolicy{fmt.Errorf("%s: %w", displayName(name), inputSize(name, stdin, len(data)))}
	}
	return data, nil
}

// maxCounted is how far standard input is read past importer.MaxInput to
// tell its size: further, an endless stream would keep the CLI reading.
const maxCounted = 64 << 20

// inputSize is the error for a text longer than importer.MaxInput, of
// which read bytes were read: a file's size, or standard input's, counted
// up to maxCounted.
func inputSize(name string, stdin io.Reader, read int) *importer.TooLongError {
	if name != "-" {
		if st, err := os.Stat(name); err == nil && st.Size() >= int64(read) {
			return &importer.TooLongError{Len: int(st.Size())}
		}
		return &importer.TooLongError{Len: read, AtLeast: true}
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(stdin, maxCounted))
	more, _ := io.ReadFull(stdin, make([]byte, 1))
	return &importer.TooLongError{Len: read + int(n), AtLeast: more > 0}
}

// readRegular reads at most limit bytes of the regular file name. Any
// other file is refused before it is opened: opening a FIFO blocks until
// a writer comes, forever if none does, and a device may never end.
func readRegular(name string, limit int64) ([]byte, error) {
	notRegular := fmt.Errorf("%s: not a regular file", clip(name))
	if st, err := os.Stat(name); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what a reader is told of a file it cannot read
		}
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, notRegular
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, notRegular // replaced since
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return clip(name)
}

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backoff import", flag.ContinueOnError)
	format := fs.String("format", "text", "output: text|json")
	as := fs.String("as", "", "read as this format instead of detecting it: "+choices(importer.FormatNames()))
	list := fs.Bool("list", false, "list the retry policies the text holds, and read none")
	pick := fs.String("pick", "", "read this policy of the text: its number in --list (from 1) or its name; the first by default")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: backoff import [--format text|json] [--as FORMAT] [--list | --pick N|NAME] [FILE|-]

Reads a retry configuration a real library runs and prints the policy it
draws: the format, each setting with the line it came from (or the library's
default when the file leaves it unset), what was ignored and why, values that
are not literals (a variable, a computed value), and the page's link.
Without FILE, or with -, it reads standard input. In JSON: {"format",
"source", "policy" (as backoff table --format json), "query", "settings",
"warnings": [{"code", "args", "line", "message"}], "budget", "candidates":
[{"format", "name", "line"}], "pick" (the number of the one read, from 1)}.

A text may hold several policies (two gRPC method configs, two Istio routes,
a tenacity decorator and a urllib3 Retry in one module): --list lists them,
in the text's order, numbered and named (a method config's service/method, a
route's name, a Python function or variable...); the first is read unless
--pick names another. With --format json, --list prints [{"format", "name",
"line"}].

Formats: %s.

Then: backoff table --import FILE, backoff sim --import FILE (other policy
flags override the imported values).

`, strings.Join(importer.FormatNames(), ", "))
		fs.PrintDefaults()
	}
	// The file may come before or after the flags.
	fs.SetOutput(stderr)
	var file string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		if file != "" {
			fmt.Fprintf(stderr, "backoff: unexpected arguments: %s (one FILE, or - for standard input)\n", clip(strings.Join(fs.Args(), " ")))
			return 2
		}
		file, rest = fs.Arg(0), fs.Args()[1:]
	}
	if file == "" {
		file = "-"
	}
	bad := func(err error) int { return exitCode(stderr, flagged(fs, err)) }
	if err := checkFormat(*format, "text", "json"); err != nil {
		return bad(err)
	}
	if names := importer.FormatNames(); *as != "" && !slices.Contains(names, *as) {
		// The importer names its parameter "format": here that is --format.
		return bad(&backoff.FieldError{Field: "as", Value: clip(*as), Code: backoff.CodeUnknown, Args: names,
			Allowed: "one of " + strings.Join(names, ", ")})
	}
	if *list {
		if *pick != "" {
			return bad(&backoff.FieldError{Field: "pick", Value: clip(*pick), Code: backoff.CodeFormat, Allowed: "no --pick with --list"})
		}
		data, err := readImportText(file, stdin)
		if err != nil {
			return bad(err)
		}
		cands, err := importer.List(string(data), *as)
		if err != nil {
			return bad(importError(file, err))
		}
		return exitCode(stderr, writeCandidates(stdout, cands, *format))
	}
	res, err := readImport(file, stdin, importer.Options{Format: *as, Pick: *pick})
	if err != nil {
		return bad(err)
	}
	if *format == "json" {
		err = writeImportJSON(stdout, res)
	} else {
		err = writeImportText(stdout, res)
	}
	return exitCode(stderr, err)
}

type importJSON struct {
	Format     string               `json:"format"`
	Source     string               `json:"source"`
	Policy     map[string]any       `json:"policy"`
	Query      string               `json:"query"`
	Settings   []importer.Setting   `json:"settings"`
	Warnings   []importer.Warning   `json:"warnings"`
	Budget     *importer.Budget     `json:"budget,omitempty"`
	Candidates []importer.Candidate `json:"candidates"`
	Pick       int                  `json:"pick"`
}

// writeCandidates lists the policies of a text: 1. name (format, line
// L), one a line, or as JSON.
func writeCandidates(w io.Writer, cands []importer.Candidate, format string) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(cands)
	}
	for i, c := range cands {
		if _, err := fmt.Fprintln(w, c.Label(i+1)); err != nil {
			return err
		}
	}
	return nil
}

func writeImportJSON(w io.Writer, res *importer.Result) error {
	out := importJSON{Format: res.Format, Source: res.Source, Policy: policyJSON("", res.Policy), Query: importer.Query(res.Policy),
		Settings: res.Settings, Warnings: res.Warnings, Budget: res.Budget, Candidates: res.Candidates, Pick: res.Pick + 1}
	if out.Settings == nil {
		out.Settings = []importer.Setting{}
	}
	if out.Warnings == nil {
		out.Warnings = []importer.Warning{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // the query's & as it is
	return enc.Encode(out)
}

func writeImportText(w io.Writer, res *importer.Result) error {
	fmt.Fprintf(w, "format: %s\nread as: %s\n\n", res.Format, res.Source)
	if len(res.Candidates) > 1 {
		fmt.Fprintln(w, "policies in the text (--pick chooses):")
		for i, c := range res.Candidates {
			mark := " "
			if i == res.Pick {
				mark = "*"
			}
			fmt.Fprintf(w, "%s %s\n", mark, c.Label(i+1))
		}
		fmt.Fprintln(w)
	}
	if len(res.Settings) > 0 {
		fmt.Fprintln(w, "settings:")
		for _, s := range res.Settings {
			where := fmt.Sprintf("line %d", s.Line)
			if s.Default {
				where = "default"
			}
			fmt.Fprintf(w, "  %-9s %s = %s\n", where, s.Key, clip(s.Value))
		}
		fmt.Fprintln(w)
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintln(w, "notes:")
		for _, n := range res.Warnings {
			fmt.Fprintf(w, "  %s (%s)\n", n.Message, n.Code)
		}
		fmt.Fprintln(w)
	}
	if res.Budget != nil {
		fmt.Fprintf(w, "budget: %s\n", res.Budget.Flag())
	}
	fmt.Fprintf(w, "policy: %s\n", res.Policy.Describe())
	_, err := fmt.Fprintf(w, "query: %s\n", importer.Query(res.Policy))
	return err
}

// importedPolicy is the policy --import FILE names, its notes written to
// w as warnings.
func importedPolicy(file string, w io.Writer) (*importer.Result, error) {
	if file == "-" {
		return nil, &backoff.FieldError{Field: "import", Value: file, Code: backoff.CodeFormat,
			Allowed: "a file (standard input is read by backoff import)"}
	}
	res, err := readImport(file, nil, importer.Options{})
	var np notPolicy
	if errors.As(err, &np) { // a flag's bad value: named as the others are
		names := importer.FormatNames()
		allowed := "a retry config in one of the formats " + strings.Join(names, ", ")
		var why *importer.NoPolicyError
		var re *importer.RefusedError
		var tl *importer.TooLongError
		switch inner := np.error; {
		case errors.As(inner, &why) && why.Reason != "":
			allowed += " (" + why.Reason + ")"
		case errors.As(inner, &re):
			allowed += " (" + re.Error() + ")"
		case errors.As(inner, &tl):
			allowed += " (" + tl.Error() + ")"
		}
		return nil, &backoff.FieldError{Field: "import", Value: clip(file), Code: backoff.CodeFormat, Args: names, Allowed: allowed}
	}
	if err != nil {
		return nil, err
	}
	for _, n := range res.Warnings {
		fmt.Fprintf(w, "backoff: import %s: %s (%s)\n", res.Format, n.Message, n.Code)
	}
	return res, nil
}

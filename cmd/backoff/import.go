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
// "-". A text with no policy, or too long, is bad input; a file that
// cannot be read is a failure.
func readImport(name string, stdin io.Reader, as string) (*importer.Result, error) {
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
	var res *importer.Result
	if as != "" {
		res, err = importer.ParseAs(as, string(data))
	} else {
		res, err = importer.Parse(string(data))
	}
	var np *importer.NoPolicyError
	var tl *importer.TooLongError
	if errors.As(err, &np) || errors.As(err, &tl) {
		return nil, notPolicy{fmt.Errorf("%s: %w", displayName(name), err)}
	}
	return res, err
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
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: backoff import [--format text|json] [--as FORMAT] [FILE|-]

Reads a retry configuration a real library runs and prints the policy it
draws: the format, each setting with the line it came from (or the library's
default when the file leaves it unset), what was ignored and why, values that
are not literals (a variable, a computed value), and the page's link.
Without FILE, or with -, it reads standard input. In JSON: {"format",
"source", "policy" (as backoff table --format json), "query", "settings",
"warnings": [{"code", "args", "line", "message"}], "budget"}.

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
	res, err := readImport(file, stdin, *as)
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
	Format   string             `json:"format"`
	Source   string             `json:"source"`
	Policy   map[string]any     `json:"policy"`
	Query    string             `json:"query"`
	Settings []importer.Setting `json:"settings"`
	Warnings []importer.Warning `json:"warnings"`
	Budget   *importer.Budget   `json:"budget,omitempty"`
}

func writeImportJSON(w io.Writer, res *importer.Result) error {
	out := importJSON{Format: res.Format, Source: res.Source, Policy: policyJSON("", res.Policy), Query: importer.Query(res.Policy),
		Settings: res.Settings, Warnings: res.Warnings, Budget: res.Budget}
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
	res, err := readImport(file, nil, "")
	var np notPolicy
	if errors.As(err, &np) { // a flag's bad value: named as the others are
		names := importer.FormatNames()
		allowed := "a retry config in one of the formats " + strings.Join(names, ", ")
		var why *importer.NoPolicyError
		if errors.As(err, &why) && why.Reason != "" {
			allowed += " (" + why.Reason + ")"
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

package importer

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// The corpus: retry configs found in public repositories, each an excerpt
// of its file (the settings as written there, the code around them cut),
// in testdata/corpus/FORMAT/NAME.EXT with NAME.EXT.want beside it:
//
//	# source: owner/repo path @ commit (lines a-b)
//	# derivation: the library's formula, worked for these values
//	format: tenacity
//	pick: 2                    (optional: the --pick to read)
//	attempts: 5                (0: no limit)
//	deadline: 15s              (optional)
//	warnings: ignored several  (optional: the codes, in order)
//	tolerance: 0.001           (optional: seconds; a library's whole
//	                            milliseconds the policy approximates,
//	                            which its rounding warning says)
//	retry 1: 4 4               (min and max delay in seconds, then
//	retry 2: 0 0.049 0.0245     the mean, when given)
//
// Each retry row is derived by hand from the library's source, not from
// the importer: the test holds the importer's table to it.

// corpusWant is a .want file.
type corpusWant struct {
	source, format, pick string
	attempts             int
	tolerance            float64
	deadline             time.Duration
	warnings             []string
	rows                 [][]float64 // min, max[, mean]
}

func readWant(t *testing.T, path string) corpusWant {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w corpusWant
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if src, ok := strings.CutPrefix(line, "# source:"); ok {
			w.source = strings.TrimSpace(src)
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s: %q", path, line)
		}
		val = strings.TrimSpace(val)
		switch {
		case key == "format":
			w.format = val
		case key == "pick":
			w.pick = val
		case key == "attempts":
			w.attempts, err = strconv.Atoi(val)
		case key == "deadline":
			w.deadline, err = time.ParseDuration(val)
		case key == "warnings":
			w.warnings = strings.Fields(val)
		case key == "tolerance":
			w.tolerance, err = strconv.ParseFloat(val, 64)
		case strings.HasPrefix(key, "retry "):
			n, _ := strconv.Atoi(strings.TrimPrefix(key, "retry "))
			if n != len(w.rows)+1 {
				t.Fatalf("%s: %q out of order", path, line)
			}
			var row []float64
			for _, f := range strings.Fields(val) {
				x, perr := strconv.ParseFloat(f, 64)
				if perr != nil {
					t.Fatalf("%s: %q: %v", path, line, perr)
				}
				row = append(row, x)
			}
			if len(row) < 2 || len(row) > 3 {
				t.Fatalf("%s: %q: want min max [mean]", path, line)
			}
			w.rows = append(w.rows, row)
		default:
			t.Fatalf("%s: unknown key %q", path, key)
		}
		if err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
	}
	if w.source == "" || w.format == "" || len(w.rows) == 0 && w.attempts != 1 {
		t.Fatalf("%s: wants a source, a format and rows (none for one attempt)", path)
	}
	return w
}

// corpusMin is the least number of configs each format has in the
// corpus.
const corpusMin = 3

func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, path := range files {
		if strings.HasSuffix(path, ".want") {
			if _, err := os.Stat(strings.TrimSuffix(path, ".want")); err != nil {
				t.Errorf("%s: no config beside it", path)
			}
			continue
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		w := readWant(t, path+".want")
		if dir := filepath.Base(filepath.Dir(path)); dir != w.format {
			t.Errorf("%s: in %s, format %s", path, dir, w.format)
		}
		count[w.format]++
		res, err := Read(string(text), Options{Pick: w.pick})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if res.Format != w.format {
			t.Errorf("%s: read as %s, want %s", path, res.Format, w.format)
		}
		p := res.Policy
		if p.Attempts != w.attempts || p.Deadline != w.deadline {
			t.Errorf("%s: attempts %d, deadline %v; want %d, %v (%s)", path, p.Attempts, p.Deadline, w.attempts, w.deadline, p.Describe())
		}
		var codes []string
		for _, x := range res.Warnings {
			codes = append(codes, x.Code)
		}
		if !slices.Equal(codes, w.warnings) {
			t.Errorf("%s: warnings %q, want %q", path, codes, w.warnings)
			for _, x := range res.Warnings {
				t.Log(x.Message)
			}
		}
		tab, err := backoff.NewTable(p, backoff.NewRand(1))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if w.attempts > 0 && len(tab.Rows) != len(w.rows) {
			t.Errorf("%s: %d rows, want %d (%s)", path, len(tab.Rows), len(w.rows), p.Describe())
		}
		for i, want := range w.rows {
			if i >= len(tab.Rows) {
				break
			}
			row := tab.Rows[i]
			got := []float64{row.Min, row.Max, row.Mean}[:len(want)]
			for j := range want {
				if math.Abs(got[j]-want[j]) > w.tolerance+1e-9*math.Max(1, math.Abs(want[j])) {
					t.Errorf("%s: retry %d: min max mean %v, want %v (%s)", path, i+1, []float64{row.Min, row.Max, row.Mean}, want, p.Describe())
					break
				}
			}
		}
	}
	for _, f := range FormatNames() {
		if count[f] < corpusMin {
			t.Errorf("the corpus has %d configs of %s, want at least %d", count[f], f, corpusMin)
		}
	}
	t.Logf("corpus: %v", count)
}

package app

import (
	"sync"

	"github.com/backoff-playground/playground/backoff"
)

// tableBudget bounds the Monte Carlo of decorrelated tables (and of totals
// under a deadline) so a slider move never holds the page for long: about
// 30 ms of WebAssembly for a 30-row table, ~120 ms for 1000 rows, against
// up to a second for the CLI's 1% target. The page shows the error it got.
var tableBudget = backoff.TableOptions{MaxDraws: 1 << 18, MinRuns: 200}

// tableOf is the delay table of pol drawn with seed, as the page shows it.
// A table is a pure function of the two, and several parts of a page show
// the same one (the table's card, the delay chart, the result strip, a
// lesson's widget, a download): each asks here, and the last few tables
// made are kept, so a change computes each table once, whichever part asks
// first. Safe for the server's concurrent pictures.
func tableOf(pol backoff.Policy, seed uint64) (*backoff.Table, error) {
	k := tableKey{pol, seed}
	tableMemo.Lock()
	defer tableMemo.Unlock()
	for i, e := range tableMemo.kept {
		if e.key == k && (e.t != nil || e.err != nil) {
			// The most recent first: a slider's back and forth finds its
			// tables at once.
			copy(tableMemo.kept[1:i+1], tableMemo.kept[:i])
			tableMemo.kept[0] = e
			return e.t, e.err
		}
	}
	t, err := backoff.NewTableWith(pol, backoff.NewRand(seed), tableBudget)
	copy(tableMemo.kept[1:], tableMemo.kept[:len(tableMemo.kept)-1])
	tableMemo.kept[0] = tableEntry{k, t, err}
	return t, err
}

// tableSpec is what a page's tables are made of: its policy, the second
// policy when it compares two (HasB), and the seed.
type tableSpec struct {
	Policy, PolicyB backoff.Policy
	HasB            bool
	Seed            uint64
}

func specOf(st *state) tableSpec { return tableSpec{st.Policy, st.B.Policy, st.B.On, st.Seed} }

// tables are the spec's tables: its policy's, and the second policy's when
// it compares two (drawn with the same seed, so the two policies' samples
// differ only by the policies), else nil.
func (s tableSpec) tables() (a, b *backoff.Table, err error) {
	if s.HasB {
		b, _ = tableOf(s.PolicyB, s.Seed)
	}
	a, err = tableOf(s.Policy, s.Seed)
	return a, b, err
}

// tablesOf are the tables a state shows (tableSpec.tables).
func tablesOf(st *state) (a, b *backoff.Table, err error) { return specOf(st).tables() }

type tableKey struct {
	pol  backoff.Policy
	seed uint64
}

type tableEntry struct {
	key tableKey
	t   *backoff.Table
	err error
}

// tableMemo keeps the last tables made, the most recent first: two
// policies' and the two before them.
var tableMemo struct {
	sync.Mutex
	kept [4]tableEntry
}

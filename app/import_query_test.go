package app

import (
	"testing"

	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
)

// TestImportQueryIsThePagesLink: the query an import gives (the CLI's
// "query", the Import panel's link) is read by the page as the imported
// policy, for every preset exported to every target and read back.
func TestImportQueryIsThePagesLink(t *testing.T) {
	for _, pr := range backoff.Presets() {
		for _, target := range export.TargetNames() {
			s, err := export.To(target, pr.Policy)
			if err != nil {
				t.Fatal(err)
			}
			res, err := importer.Parse(s.Text)
			if err != nil {
				t.Fatalf("%s to %s: %v", pr.Name, target, err)
			}
			q := importer.Query(res.Policy)
			st, notes := parseQuery(q)
			if st.Policy != res.Policy || len(notes) > 0 {
				t.Errorf("%s to %s: %s\n page %+v\n want %+v\n notes %v", pr.Name, target, q, st.Policy, res.Policy, notes)
			}
		}
	}
}

package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

// The page's export targets are the export package's, and every warning
// it can give is worded in both languages with all its arguments.
func TestExportTargetsAndWarnings(t *testing.T) {
	if !slices.Equal(exportTargets, export.TargetNames()) {
		t.Fatalf("page targets %v, export's %v", exportTargets, export.TargetNames())
	}
	for _, to := range exportTargets {
		if k := "export.to." + to; i18n.Ru.T(k) == k {
			t.Errorf("no label for %s", to)
		}
	}
	for _, code := range export.Codes {
		for _, l := range i18n.Langs {
			got := warningText(l, code, []string{"1", "2", "3", "4", "5"})
			if strings.Contains(got, "{") || strings.HasPrefix(got, "export.") {
				t.Errorf("%s: %s not worded: %q", l.Code(), code, got)
			}
		}
	}
	// Real warnings, for a policy no library runs exactly.
	p := backoff.Default()
	_ = p.Set(backoff.ParamJitter, "decorrelated")
	_ = p.Set(backoff.ParamAttempts, "0")
	_ = p.Set(backoff.ParamDeadline, "1m")
	for _, to := range exportTargets {
		sn, err := export.To(to, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range sn.Warnings {
			ru := warningText(i18n.Ru, w.Code, w.Args)
			if strings.Contains(ru, "{") || !strings.ContainsAny(ru, "абвгдеёжзийклмнопрстуфхцчшщыьэюя") {
				t.Errorf("%s %s: %q", to, w.Code, ru)
			}
		}
	}
}

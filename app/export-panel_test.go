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

// The Export panel opens on the preset's own system; the link keeps it
// (export=) and the Embed panel's view (embed=), and what they show is
// the state without them.
func TestExportTargetAndPanelKeys(t *testing.T) {
	for preset, want := range map[string]string{
		"grpc-retry": "grpc-json", "grpc-retry-legacy": "grpc-json", "aws-standard": "go-aws", "aws-legacy": "go-aws",
		"cenkalti": "go-cenkalti", "envoy": "envoy-yaml", "polly-v2": "polly", "tenacity": "tenacity",
		"": "go-cenkalti", "gax": "go-cenkalti", "k8s-crashloop": "go-cenkalti",
	} {
		if got := exportTargetFor(preset); got != want {
			t.Errorf("exportTargetFor(%q) = %q, want %q", preset, got, want)
		}
		if !contains(exportTargets, exportTargetFor(preset)) {
			t.Errorf("%q: %q is no export target", preset, exportTargetFor(preset))
		}
	}
	s, notes := parseQuery("preset=grpc-retry&export=grpc-json&embed=herd")
	if len(notes) != 0 || s.Export != "grpc-json" || s.Embed != "herd" {
		t.Fatalf("export=grpc-json&embed=herd: %+v %v", s, notes)
	}
	if q := s.query(); !strings.HasSuffix(q, "&export=grpc-json&embed=herd") {
		t.Errorf("query %q does not keep the panels", q)
	}
	c := s.content()
	if q := c.query(); strings.Contains(q, "export=") || strings.Contains(q, "embed=") {
		t.Errorf("content's query %q keeps the panels", q)
	}
	if q := s.fullQuery(); strings.Contains(q, "export=") || strings.Contains(q, "embed=") {
		t.Errorf("fullQuery %q keeps the panels", q)
	}
	if _, notes := parseQuery("export=cobol&embed=poster"); len(notes) != 2 {
		t.Errorf("export=cobol&embed=poster: %d notices, want 2", len(notes))
	}
}

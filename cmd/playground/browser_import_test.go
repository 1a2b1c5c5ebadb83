//go:build browser && !wasm

package main

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// importGRPC is a gRPC service config as people paste it: the policy is
// 200ms * 3^(n-1), cap 2.5s, d*U[0.8,1.2), 4 attempts.
const importGRPC = `{
  "methodConfig": [{
    "name": [{"service": "echo.Echo"}],
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": ".2s",
      "maxBackoff": "2.5s",
      "backoffMultiplier": 3,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }]
}`

// openImportJS opens the import panel.
const openImportJS = `(() => { if (!document.getElementById('import-text')) document.getElementById('import').click(); return true; })()`

// applyJS puts text in the import box and presses Read and load.
func applyJS(text string) string {
	return `(() => { const t = document.getElementById('import-text'); t.value = ` + strconv.Quote(text) + `;
	  document.getElementById('import-apply').click(); return true; })()`
}

// TestBrowserImport: a pasted gRPC config is read in the page, said line
// by line, and loaded: the table is its schedule, the link holds the
// policy's parameters and not the text, Back returns to the policy
// before; in Russian too; a text without a policy is refused with the
// formats.
func TestBrowserImport(t *testing.T) {
	tb := newTab(t, 1280, 1000)
	tb.open(t, articleQuery)
	eval[bool](t, tb, openImportJS)
	poll[bool](t, tb, "the import panel", `!!document.getElementById('import-text')`)
	// The link keeps the panel open (a history entry of its own): Back
	// below returns to it, with the policy before the import.
	exPollParam(t, tb, "import", "1")
	// The readers are a program of their own, fetched only when a text
	// is first read: the page's start does not carry them.
	const fetchedJS = `performance.getEntriesByType('resource').filter(e => e.name.endsWith('/web/import.wasm')).length`
	if n := eval[int](t, tb, fetchedJS); n != 0 {
		t.Errorf("import.wasm fetched %d times before a text was read", n)
	}
	eval[bool](t, tb, applyJS(importGRPC))
	status := poll[string](t, tb, "the reading", `(() => { const s = document.getElementById('import-status').textContent;
	  return s.startsWith('Read as') ? s : ''; })()`)
	if !strings.HasPrefix(status, "Read as grpc; the policy is loaded: ") || !strings.Contains(status, "200") {
		t.Errorf("status %q", status)
	}
	if n := eval[int](t, tb, fetchedJS); n != 1 {
		t.Errorf("import.wasm fetched %d times for a reading, want 1", n)
	}
	poll[bool](t, tb, "3 rows", `document.querySelectorAll('#delay-table tbody tr').length === 3`)
	got := column(tb.table(t), "nominal")
	for i, want := range []float64{0.2, 0.6, 1.8} {
		if f, err := strconv.ParseFloat(got[i], 64); err != nil || math.Abs(f-want) > 1e-9 {
			t.Errorf("nominal delays %v, want 0.2 0.6 1.8", got)
			break
		}
	}
	read := eval[[]string](t, tb, `[...document.querySelectorAll('#import-read li')].map(li => li.textContent)`)
	if len(read) < 5 || read[0] != "line 5: maxAttempts = 4" || read[1] != `line 6: initialBackoff = ".2s"` {
		t.Errorf("what was read: %q", read)
	}
	notes := eval[[]string](t, tb, `[...document.querySelectorAll('#import-notes li')].map(li => li.dataset.code)`)
	if !slices.Equal(notes, []string{"ignored"}) {
		t.Errorf("notes %q", notes)
	}
	q := poll[string](t, tb, "the link to hold the policy", `location.search.includes('factor=3') ? location.search : ''`)
	for _, want := range []string{"base=200ms", "cap=2.5s", "jitter=proportional", "attempts=4"} {
		if !strings.Contains(q, want) {
			t.Errorf("link %q has no %s", q, want)
		}
	}
	if strings.Contains(q, "methodConfig") || strings.Contains(strings.Replace(q, "import=1", "", 1), "import") {
		t.Errorf("link %q holds the pasted text", q)
	}
	tb.viewportShot(t, "import")
	eval[bool](t, tb, `(() => { history.back(); return true; })()`)
	poll[bool](t, tb, "Back to the article's 5 rows", `document.querySelectorAll('#delay-table tbody tr').length === 5`)

	eval[bool](t, tb, applyJS("just some text"))
	status = poll[string](t, tb, "the refusal", `(() => { const s = document.getElementById('import-status').textContent;
	  return s.startsWith('No retry') ? s : ''; })()`)
	if !strings.Contains(status, "tenacity, urllib3, grpc, envoy, istio, polly, resilience4j") ||
		!eval[bool](t, tb, `document.getElementById('import-status').classList.contains('error')`) {
		t.Errorf("refusal %q", status)
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}

	ru := newTab(t, 1280, 1000)
	ru.open(t, "lang=ru")
	eval[bool](t, ru, openImportJS)
	poll[bool](t, ru, "the import panel", `!!document.getElementById('import-text')`)
	if got := eval[string](t, ru, `document.getElementById('import-apply').textContent`); got != "Прочитать и загрузить" {
		t.Errorf("button %q", got)
	}
	eval[bool](t, ru, applyJS("@retry(stop=stop_after_attempt(3), wait=wait_fixed(n))\ndef f(): ...\n"))
	status = poll[string](t, ru, "the reading", `(() => { const s = document.getElementById('import-status').textContent;
	  return s.startsWith('Прочитано') ? s : ''; })()`)
	if !strings.HasPrefix(status, "Прочитано как tenacity; политика загружена:") {
		t.Errorf("status %q", status)
	}
	notes = eval[[]string](t, ru, `[...document.querySelectorAll('#import-notes li')].map(li => li.textContent)`)
	if len(notes) != 1 || notes[0] != "строка 1: wait_fixed.wait = n — не литерал (переменная или вычисленное значение), поэтому не прочитано." {
		t.Errorf("notes %q", notes)
	}
	ru.viewportShot(t, "import-ru")
}

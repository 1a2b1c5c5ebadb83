//go:build browser && !wasm

package main

import (
	"testing"
)

// TestBrowserImportCapDrawn: the AWS SDK's legacy back-off with a cap of
// 2^4 s, pasted on the Russian page, loads as a cap of 16 s kept exactly,
// and the notes say, in Russian, that the library still draws before
// retry 4.
func TestBrowserImportCapDrawn(t *testing.T) {
	ru := newTab(t, 1280, 1000)
	ru.open(t, "lang=ru")
	eval[bool](t, ru, openImportJS)
	poll[bool](t, ru, "the import panel", `!!document.getElementById('import-text')`)
	eval[bool](t, ru, applyJS("r := retry.NewStandard(func(o *retry.StandardOptions) {\n\to.Backoff = retry.NewExponentialJitterBackoff(16 * time.Second)\n})\nreturn retry.AddWithMaxAttempts(r, 0)\n"))
	exPollParam(t, ru, "cap", "16s")
	if got := exParam(t, ru, "cap-mode"); got != "exact" {
		t.Errorf("cap-mode=%q in the link, want exact", got)
	}
	notes := eval[[]string](t, ru, `[...document.querySelectorAll('#import-notes li[data-code="cap-drawn"]')].map(li => li.textContent)`)
	want := "строка 2: Перед повтором 4 библиотека ещё выбирает случайную паузу до 16\u00a0с, а политика ждёт ровно 16\u00a0с."
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("cap-drawn notes %q, want %q", notes, want)
	}
	ru.viewportShot(t, "import-cap-drawn-ru")
	exNoProblems(t, ru)
}

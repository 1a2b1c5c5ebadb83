package app

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
	"github.com/backoff-playground/playground/sim"
)

// TestImportCatalog: every warning code and reason the importer gives
// has words in both languages.
func TestImportCatalog(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.En, i18n.Ru} {
		for _, c := range importer.Codes {
			if k := "import.warn." + c; l.T(k) == k {
				t.Errorf("%s: no %s", l.Code(), k)
			}
		}
		for _, r := range importer.Reasons {
			if k := "import.reason." + r; l.T(k) == k {
				t.Errorf("%s: no %s", l.Code(), k)
			}
		}
	}
}

// TestImportWords: the panel's status and notes in both languages, for a
// reading, a text without a policy and one the core refuses.
func TestImportWords(t *testing.T) {
	res, err := importer.Parse("@retry(stop=stop_after_attempt(n), wait=wait_fixed(2), retry=retry_if_exception_type(IOError))\ndef f(): ...\n")
	if err != nil {
		t.Fatal(err)
	}
	st := importState{res: res}
	if s, ok := importStatus(i18n.Ru, st); !ok || s != "Прочитано как tenacity; политика загружена: постоянная пауза: 2\u00a0с; без джиттера; без ограничения попыток." {
		t.Errorf("status %q", s)
	}
	var notes []string
	for _, w := range res.Warnings {
		notes = append(notes, importNote(i18n.Ru, w))
	}
	want := []string{
		"строка 1: retry не учитывается: это о том, что повторять, а не когда (это решает классификатор).",
		"строка 1: stop_after_attempt = n — не литерал (переменная или вычисленное значение), поэтому не прочитано.",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	_, err = importer.Parse("hello")
	if s, ok := importStatus(i18n.En, importState{err: err}); ok || !strings.HasPrefix(s, "No retry policy found in this text. The formats read: tenacity, urllib3, grpc,") {
		t.Errorf("no policy: %q", s)
	}
	fe := &backoff.FieldError{Field: "cap", Value: "1ms", Code: backoff.CodeZeroOrAtLeast, Args: []string{"1s"}, Other: "base", Allowed: "0s or at least base"}
	if s, ok := importStatus(i18n.En, importState{err: fe}); ok || !strings.HasPrefix(s, "The policy read cannot be drawn: ") || !strings.Contains(s, "1ms") {
		t.Errorf("invalid: %q", s)
	}
}

// TestImportBudget: a gRPC retryThrottling becomes the herd's budget when
// the simulator has a grpc budget, and leaves the herd alone when not.
func TestImportBudget(t *testing.T) {
	res, err := importer.Parse(`{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "1s",
	  "maxBackoff": "4s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}],
	  "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`)
	if err != nil {
		t.Fatal(err)
	}
	h := defaultHerd()
	probe := sim.DefaultConfig()
	simHasGRPC := probe.Set(sim.ParamBudget, "grpc:10:0.1") == nil
	if got := importBudget(&h, res); got != simHasGRPC {
		t.Errorf("importBudget %v, the simulator takes grpc:10:0.1: %v", got, simHasGRPC)
	}
	def := defaultHerd()
	want := def.Config.Get(sim.ParamBudget)
	if simHasGRPC {
		want = probe.Get(sim.ParamBudget)
	}
	if got := h.Config.Get(sim.ParamBudget); got != want {
		t.Errorf("herd budget %q, want %q", got, want)
	}
	plain, _ := importer.Parse("@Retryable(maxAttempts = 2)")
	if h := defaultHerd(); importBudget(&h, plain) || h.Config != defaultHerd().Config {
		t.Error("a config without a budget changed the herd")
	}
}

// TestImportCapDrawnNote: the AWS legacy back-off's drawn retry at the cap,
// worded in both languages with the cap as a duration of the page's.
func TestImportCapDrawnNote(t *testing.T) {
	res, err := importer.Parse("r := retry.NewStandard(func(o *retry.StandardOptions) {\n\to.Backoff = retry.NewExponentialJitterBackoff(16 * time.Second)\n})\nreturn retry.AddWithMaxAttempts(r, 0)\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[i18n.Lang]string{
		i18n.En: "line 2: Before retry 4 the library still draws a random delay up to 16s; the policy waits exactly 16s there.",
		i18n.Ru: "строка 2: Перед повтором 4 библиотека ещё выбирает случайную паузу до 16\u00a0с, а политика ждёт ровно 16\u00a0с.",
	}
	for l, w := range want {
		var got []string
		for _, x := range res.Warnings {
			if x.Code == importer.CodeCapDrawn {
				got = append(got, importNote(l, x))
			}
		}
		if len(got) != 1 || got[0] != w {
			t.Errorf("%s: %q, want %q", l.Code(), got, w)
		}
	}
}

// A paste over the cap says its own size beside the cap, in both
// languages: 300 KB is not "longer than 262,144 bytes" alone.
func TestImportTooLongSaysItsSize(t *testing.T) {
	_, err := importer.Parse(strings.Repeat("#", 300<<10))
	for _, c := range []struct {
		l    i18n.Lang
		want string
	}{
		{i18n.En, "The text is 307,200 bytes (300 KB): at most 262,144 bytes are read (256 KB)."},
		{i18n.Ru, "В тексте 307\u202f200 байт (300\u00a0КБ), а читается не больше 262\u202f144 байт (256\u00a0КБ)."},
	} {
		if s, ok := importStatus(c.l, importState{err: err}); ok || s != c.want {
			t.Errorf("%s: %q, want %q", c.l.Code(), s, c.want)
		}
	}
}

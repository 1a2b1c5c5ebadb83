package app

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
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

// TestImportPick: a text with several policies gets a select of them in
// the page's language, the one read selected; a text with one gets none.
func TestImportPick(t *testing.T) {
	text := `{"methodConfig": [
  {"name": [{"service": "a.A"}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "1s", "maxBackoff": "4s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}},
  {"name": [{}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "2s", "maxBackoff": "8s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`
	res, err := importer.Read(text, importer.Options{Pick: "2"})
	if err != nil {
		t.Fatal(err)
	}
	for l, want := range map[i18n.Lang][]string{
		i18n.En: {`<label for="import-pick">Policy to read</label>`, `<option value="0">1. a.A (grpc, line 2)</option>`,
			`<option selected value="1">2. grpc, line 3</option>`},
		i18n.Ru: {`<label for="import-pick">Какую политику читать</label>`, `<option value="0">1. a.A (grpc, строка 2)</option>`,
			`<option selected value="1">2. grpc, строка 3</option>`},
	} {
		c := &importPanel{Lang: l, Open: true, st: importState{res: res, text: text}}
		// go-app writes attributes in no fixed order.
		html := strings.ReplaceAll(app.HTMLString(c), `value="1" selected`, `selected value="1"`)
		for _, w := range want {
			if !strings.Contains(html, w) {
				t.Errorf("%s: no %s in\n%s", l.Code(), w, html)
			}
		}
	}
	one, _ := importer.Parse("@Retryable(maxAttempts = 2)")
	if html := app.HTMLString(&importPanel{Lang: i18n.En, Open: true, st: importState{res: one}}); strings.Contains(html, "import-pick") {
		t.Errorf("a select for one policy:\n%s", html)
	}
}

// TestImportNewNotes: the notes of a parameter's default, a value not in
// the text, a library version, and a refused text, in both languages.
func TestImportNewNotes(t *testing.T) {
	res, err := importer.Parse("from urllib3.util import Retry\ndef s(n=4):\n    return Retry(total=n)\n")
	if err != nil {
		t.Fatal(err)
	}
	envoy, err := importer.Parse("retry_policy:\n  num_retries: 2\n")
	if err != nil {
		t.Fatal(err)
	}
	aws, err := importer.Parse("r := retry.NewStandard()\n")
	if err != nil {
		t.Fatal(err)
	}
	note := func(l i18n.Lang, r *importer.Result, code string) string {
		for _, w := range r.Warnings {
			if w.Code == code {
				return importNote(l, w)
			}
		}
		return ""
	}
	for _, c := range []struct {
		res  *importer.Result
		code string
		en   string
		ru   string
	}{
		{res, importer.CodeParamDefault, "line 3: n is a parameter of s(): its default, 4, is read; a caller may pass another.",
			"строка 3: n — параметр функции s(): прочитано его значение по умолчанию, 4; вызывающий код может передать другое."},
		{envoy, importer.CodeNotInText, "line 2: timeout is not in the text: the library's default, 15s, is read.",
			"строка 2: timeout нет в тексте: взято значение библиотеки по умолчанию, 15\u00a0с."},
		{aws, importer.CodeVersion, "line 1: This is how the library runs from v1.48.0 on; older versions run what the aws-legacy preset shows.",
			"строка 1: Так библиотека работает начиная с v1.48.0; более старые версии — как в пресете aws-legacy."},
	} {
		if got := note(i18n.En, c.res, c.code); got != c.en {
			t.Errorf("%s en: %q, want %q", c.code, got, c.en)
		}
		if got := note(i18n.Ru, c.res, c.code); got != c.ru {
			t.Errorf("%s ru: %q, want %q", c.code, got, c.ru)
		}
	}
	_, err = importer.Parse(strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300))
	for l, want := range map[i18n.Lang]string{
		i18n.En: "Not read: the JSON nests deeper than 200 levels.",
		i18n.Ru: "Не прочитано: JSON вложен глубже чем на 200 уровней.",
	} {
		if s, ok := importStatus(l, importState{err: err}); ok || s != want {
			t.Errorf("%s: %q, want %q", l.Code(), s, want)
		}
	}
}

// TestImportHintNamesEveryFormat: the hint is derived from the importer's
// registry, each format in the catalog's words in both languages.
func TestImportHintNamesEveryFormat(t *testing.T) {
	for l, want := range map[i18n.Lang]string{
		i18n.En: "Paste the retry config your code runs: tenacity, urllib3, a gRPC service config, an Envoy route, an Istio VirtualService, Polly, resilience4j, Spring Retry, cenkalti/backoff, the AWS SDK for Go, Temporal, Step Functions, go-retryablehttp or Celery. The link keeps the policy, not the text.",
		i18n.Ru: "Вставьте конфигурацию повторов, которую выполняет ваш код: tenacity, urllib3, конфигурацию сервиса gRPC, маршрут Envoy, ресурс VirtualService в Istio, Polly, resilience4j, Spring Retry, cenkalti/backoff, AWS SDK для Go, Temporal, Step Functions, go-retryablehttp или Celery. Ссылка сохранит политику, а не текст.",
	} {
		if got := importHint(l); got != want {
			t.Errorf("%s: %q", l.Code(), got)
		}
	}
	for _, n := range importer.FormatNames() {
		for _, l := range i18n.Langs {
			if k := "import.format." + n; l.T(k) == k {
				t.Errorf("%s: no catalog words for the format %s", l.Code(), n)
			}
		}
	}
}

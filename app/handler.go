//go:build !wasm

package app

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/app/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Local icons: the service worker caches every resource the handler lists
// with cache.addAll, which fails as a whole (nothing cached, no offline use)
// when one of them is a remote URL the browser cannot reach.
const (
	iconSVG   = "/web/static/icon.svg"
	iconSmall = "/web/static/icon-192.png"
	iconLarge = "/web/static/icon-512.png"
)

// appWorker replaces go-app's service worker so that every link, whatever
// its query, loads offline after one visit (app-worker.js says how).
//
//go:embed app-worker.js
var appWorker string

// offlineResources are cached by the worker on install besides go-app's
// own list: every lesson in both languages, the embed script and the
// compiler of app.wasm (the server's app.js starts it where no worker
// controls the page: a first visit, or a browser that has not yet handed
// the page to its new worker).
func offlineResources() []string {
	out := []string{"/web/static/embed.js", "/web/static/compile-worker.js", iconSVG}
	for _, lang := range []string{"en", "ru"} {
		for n := 1; n <= lessonCount; n++ {
			out = append(out, "/"+lessonPath(lang, n))
		}
	}
	return out
}

// The server's own copy of the page's targets, read from the registry as
// the page reads them from the Env NewHandler gives it.
func init() { exportTargets = export.TargetNames() }

// NewHandler returns the go-app handler for the playground's pages.
//
// version must change whenever app.wasm changes (the server passes a content
// hash): go-app's service worker keeps one cache per version and the handler
// uses it as the ETag, so a fixed version would keep clients on an old build
// forever. wasmSize is the uncompressed size of app.wasm, for the loader's
// progress (with a compressed response the browser cannot know it). resources
// serves /web/ (nil means go-app's default, ./web/ from the working directory).
func NewHandler(version string, wasmSize int64, resources app.ResourceResolver) *app.Handler {
	h := &app.Handler{
		Name:        "Backoff Playground",
		ShortName:   "Backoff",
		Title:       "Backoff Playground: retry policies, live",
		Description: "Move the sliders and see what a retry policy does to one client and to a herd of clients.",
		Author:      "Backoff Playground",
		Keywords:    []string{"backoff", "retry", "jitter", "exponential backoff", "thundering herd"},
		Lang:        "en",
		// Shown before the app (and its language) is loaded: both languages.
		// No percentage: the server's app.js streams app.wasm to the
		// compiler without counting its bytes (cmd/playground's streamWasm).
		LoadingLabel:    i18n.En.T("page.loading") + " / " + i18n.Ru.T("page.loading"),
		BackgroundColor: "#1f2a44",
		ThemeColor:      "#1f2a44",
		Icon: app.Icon{
			Default:  iconSmall,
			Large:    iconLarge,
			Maskable: iconLarge,
			SVG:      iconSVG,
		},
		Styles:                append([]string(nil), Styles...),
		ServiceWorkerTemplate: appWorker,
		CacheableResources:    offlineResources(),
		Version:               version,
		Resources:             resources,
		Env:                   map[string]string{envExportTargets: strings.Join(export.TargetNames(), ","), envImportFormats: strings.Join(importFormats, ",")},
	}
	if wasmSize > 0 {
		h.WasmContentLength = strconv.FormatInt(wasmSize, 10)
	}
	return h
}

// PageVariant names the page a link's query should get before the app
// starts, as a query of its own: the lesson's ("lesson=3", with
// "&present=1" in presenter mode) or the view's ("view=herd"), "" for the
// whole page. The app reads the link the way it does in the browser, so a
// page the server sends is the page the app then draws (nothing moves when
// it mounts). Every answer is one of PageVariants.
func PageVariant(rawQuery string) string {
	st, _ := parseQuery(rawQuery)
	switch {
	case st.Lesson != 0 && st.Present:
		return keyLesson + "=" + lessonValue(st.Lesson) + "&" + keyPresent + "=1"
	case st.Lesson != 0:
		return keyLesson + "=" + lessonValue(st.Lesson)
	case st.View != "":
		return keyView + "=" + st.View
	}
	return ""
}

// PageVariants are the queries PageVariant may answer: a bounded set, so a
// server may render each page once and keep it.
func PageVariants() []string {
	var out []string
	for n := lessonList; n <= lessonCount; n++ {
		if n != 0 {
			out = append(out, keyLesson+"="+lessonValue(n), keyLesson+"="+lessonValue(n)+"&"+keyPresent+"=1")
		}
	}
	for _, v := range views {
		out = append(out, keyView+"="+v)
	}
	return out
}

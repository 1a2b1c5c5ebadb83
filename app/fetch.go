package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// answer is a response the browser's fetch got: its status (0: none, the
// page is offline or the request failed), its Content-Type and its text.
type answer struct {
	status      int
	contentType string
	body        string
}

// fetchAnswer gets a file relative to the page through the browser's
// fetch (net/http's client would add 800 KB to app.wasm) and hands the
// answer to done.
func fetchAnswer(path string, done func(answer)) {
	var onRes, onText, onFail app.Func
	var a answer
	release := func() { onRes.Release(); onText.Release(); onFail.Release() }
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		done(answer{})
		return nil
	})
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		a.body = args[0].String()
		done(a)
		return nil
	})
	onRes = app.FuncOf(func(this app.Value, args []app.Value) any {
		a.status = args[0].Get("status").Int()
		if ct := args[0].Get("headers").Call("get", "Content-Type"); ct.Truthy() {
			a.contentType = ct.String()
		}
		args[0].Call("text").Call("then", onText, onFail)
		return nil
	})
	app.Window().Call("fetch", path).Call("then", onRes, onFail)
}

// host is what an answer to a path only the playground's server has
// (healthz, export) says of the page's host. A static host has no such
// path: it answers 404, or, when it answers every unknown path with the
// site's page (Cloudflare Pages without a 404.html, a single-page-app
// rule), that page with 200. The server never answers them with a page:
// its answers are JSON or plain text. No answer tells nothing.
func (a answer) host() int {
	switch {
	case a.status == 0:
		return serverUnknown
	case a.status == 404, a.status/100 == 2 && isHTML(a.contentType):
		return serverNone
	}
	return serverHere
}

// isHTML reports whether a Content-Type is a page's.
func isHTML(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "text/html" || mt == "application/xhtml+xml"
}

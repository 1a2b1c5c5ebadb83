package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// updateBanner offers the newer build once the service worker has fetched
// one. go-app's worker serves the cached build first, so without this a
// visitor would keep running the old playground until a second reload.
//
// go-app calls every activation that leaves the page controlled an update,
// the first visit's too (the worker claims the page it installed from, so
// that page's lessons load offline): that one activates this very build. A
// worker deletes every cache but its version's on activation (app-worker.js),
// so the build is new exactly when this page's cache is gone.
type updateBanner struct {
	app.Compo
	Lang  i18n.Lang
	ready bool
}

func (b *updateBanner) OnMount(ctx app.Context) {
	if ctx.AppUpdateAvailable() {
		b.check(ctx)
		return
	}
	ctx.PreventUpdate() // nothing to show: no render (nor the page's, at the start)
}

func (b *updateBanner) OnAppUpdate(ctx app.Context) { b.check(ctx) }

// check shows the banner when the worker now active is not this page's
// build.
func (b *updateBanner) check(ctx app.Context) {
	caches := app.Window().Get("caches")
	if !caches.Truthy() {
		b.ready = true
		return
	}
	var done app.Func
	done = app.FuncOf(func(this app.Value, args []app.Value) any {
		stale := len(args) == 0 || !args[0].Bool()
		ctx.Dispatch(func(ctx app.Context) { b.ready = stale })
		done.Release()
		return nil
	})
	caches.Call("has", cacheName(app.Getenv("GOAPP_VERSION"))).Call("then", done)
}

// cacheName is the worker's cache of a version (app-worker.js's cacheName).
func cacheName(version string) string { return "app-" + version }

func (b *updateBanner) onReload(ctx app.Context, e app.Event) { ctx.Reload() }

func (b *updateBanner) Render() app.UI {
	if !b.ready {
		return app.Div().ID("update").Hidden(true)
	}
	return app.Div().ID("update").Class("notice").Role("status").Body(
		app.Span().Text(b.Lang.T("update.ready")+" "),
		app.Button().ID("update-reload").Type("button").OnClick(b.onReload).Text(b.Lang.T("update.reload")),
	)
}

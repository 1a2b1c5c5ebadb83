package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// updateBanner offers the newer build once the service worker has fetched
// one. go-app's worker serves the cached build first, so without this a
// visitor would keep running the old playground until a second reload.
type updateBanner struct {
	app.Compo
	Lang  i18n.Lang
	ready bool
}

func (b *updateBanner) OnMount(ctx app.Context)     { b.ready = ctx.AppUpdateAvailable() }
func (b *updateBanner) OnAppUpdate(ctx app.Context) { b.ready = true }

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

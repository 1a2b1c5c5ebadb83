package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// langSwitch is the language picker, a component: a choice goes to the
// page as an edit of the link (lang=), which keeps every other setting.
//
// It applies a choice, not each entry arrowed past: a closed select
// changes its value (and fires change) at every arrow press, and the page
// would switch language under the reader at the first. After a key, the
// choice applies on Enter or when the focus leaves the select; a
// pointer's choice applies at once.
type langSwitch struct {
	app.Compo

	Lang i18n.Lang

	keyed bool // the value came from the keyboard and waits
}

func (c *langSwitch) Render() app.UI {
	opts := make([]app.UI, len(i18n.Langs))
	for i, o := range i18n.Langs {
		opts[i] = app.Option().Value(o.Code()).Selected(o == c.Lang).Lang(o.Code()).Text(o.T("lang." + o.Code()))
	}
	return app.Select().ID("lang").Class("lang").Aria("label", c.Lang.T("page.lang")).
		OnChange(c.onInput).OnKeyDown(c.onKey).OnBlur(c.onBlur).Body(opts...)
}

func (c *langSwitch) onInput(ctx app.Context, e app.Event) {
	if !c.keyed {
		c.choose(ctx)
	}
}

func (c *langSwitch) onKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Enter", " ":
		c.keyed = false
		c.choose(ctx)
	case "Tab", "Escape":
	default:
		c.keyed = true
	}
}

func (c *langSwitch) onBlur(ctx app.Context, e app.Event) {
	if c.keyed {
		c.keyed = false
		c.choose(ctx)
	}
}

// choose sends the language selected to the page, as a history entry.
func (c *langSwitch) choose(ctx app.Context) {
	l, ok := i18n.Parse(ctx.JSSrc().Get("value").String())
	if !ok {
		return
	}
	sendEdit(ctx, edit{set: setTo(func(st *state) *string { return &st.Lang }, l.Code()), push: true})
}

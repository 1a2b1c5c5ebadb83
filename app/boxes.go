package app

import (
	"errors"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// boxes are a panel's typed boxes: what the user typed in a box (by its
// id) while it differs from the value it edits, and the inline errors by
// the id of the control they belong to, worded when rendered (in the
// page's language of the moment).
type boxes struct {
	text map[string]string
	errs map[string]inlineErr
}

// inlineErr is a control's inline error: the core's error and what the
// user typed.
type inlineErr struct {
	err   error
	typed string
}

func newBoxes() boxes { return boxes{text: map[string]string{}, errs: map[string]inlineErr{}} }

// reset forgets what was typed and every error: the values changed under
// the boxes.
func (b *boxes) reset() {
	clear(b.text)
	clear(b.errs)
}

// check records what the user typed in boxID (when typed) and the inline
// error of the value, stated from the changed field's side; it reports
// whether the value is valid.
func (b *boxes) check(boxID, name, v string, typed bool, err error) bool {
	shown := ""
	if typed {
		b.text[boxID] = v
		shown = v
	}
	if err != nil {
		var fe *backoff.FieldError
		if errors.As(err, &fe) {
			err = fe.From(name)
		}
		b.errs[boxID] = inlineErr{err, shown}
		return false
	}
	delete(b.errs, boxID)
	return true
}

// setPolicyParam checks one field of pol as the control boxID (or its
// slider or select) gives it, and sets it when apply is set; it reports
// whether pol changed. An invalid value (alone or with the other fields)
// shows an inline error under boxID, naming the field the user changed,
// and pol keeps its last valid value.
func (b *boxes) setPolicyParam(l i18n.Lang, pol *backoff.Policy, name, boxID, v string, typed, apply bool) bool {
	np := *pol
	err := np.Set(name, canonical(l, name, v))
	if err == nil {
		err = np.Validate()
	}
	if !b.check(boxID, name, v, typed, err) || !apply {
		return false
	}
	delete(b.text, boxID)
	if np == *pol {
		return false // the same value again (input then change): nothing to redo
	}
	*pol = np
	return true
}

// canonical is a typed value in the syntax the core parses: the page's
// language may write 1,5 с for 1.5s.
func canonical(l i18n.Lang, param, v string) string {
	if isDuration(param) {
		return i18n.CanonDuration(v)
	}
	return l.CanonNumber(v)
}

// fieldError is the inline error slot of one control; empty when valid.
func (b *boxes) fieldError(l i18n.Lang, id string) app.UI {
	msg := ""
	if e, ok := b.errs[id]; ok {
		msg = errText(l, e.err, e.typed)
	}
	return app.P().ID(id+"-error").Class("field-error").Aria("live", "polite").Hidden(msg == "").Text(msg)
}

// textBox is every typed box of the page: id, its text, the label a screen
// reader says, its tooltip, whether a number pad suits it (durations need
// letters: 250ms, 2m), and its handler; marked invalid while its text is.
func (b *boxes) textBox(l i18n.Lang, id, value, label, hint string, numeric bool, h app.EventHandler) app.UI {
	in := app.Input().Type("text").ID(id).Class("value-box").Value(value).
		Aria("label", l.F("policy.value", label)).Aria("describedby", id+"-error").
		Attr("autocomplete", "off").Attr("spellcheck", "false").
		Title(hint).OnInput(h).OnChange(h).OnFocus(selectAll)
	if numeric {
		in = in.Attr("inputmode", "decimal")
	}
	if _, bad := b.errs[id]; bad {
		in = in.Class("invalid").Aria("invalid", "true")
	}
	return in
}

// boxEvent is what an input or change event of a control says: its id,
// its value, and whether it commits the value (change: Enter, or leaving
// a box) rather than being typed.
func boxEvent(ctx app.Context, e app.Event) (id, value string, commit bool) {
	src := ctx.JSSrc()
	return src.Get("id").String(), src.Get("value").String(), e.Get("type").String() == "change"
}

// selectAll selects a box's text as it gets focus, so what is typed
// replaces the value: typed after it, "30s" made "10s30s".
func selectAll(ctx app.Context, e app.Event) { ctx.JSSrc().Call("select") }

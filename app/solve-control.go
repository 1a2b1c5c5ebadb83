package app

import (
	"errors"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The Solve control beside each of base, factor, cap and attempts: "fit
// to a total of …" finds the largest value of that knob whose worst or
// expected total wait stays within the total typed (backoff.Solve, the
// CLI's backoff solve) and sets it. One is open at a time, so its ids
// (#solve-total, #solve-target, #solve-apply, #solve-status) are unique;
// each knob's button is #solve-KNOB.

// solveState is the open control: its knob ("" when none is open), the
// total as typed, the target, and the last answer: a solution or an error,
// kept as data so a change of language words it again.
type solveState struct {
	knob, total string
	expected    bool
	sol         *backoff.Solution
	err         error
}

// The knob's name in the control's sentence is the catalog's
// "solve.knob.PARAM" (a sentence needs its own case: "основу", not
// "основа").

// solveControl is param's Solve button and, while it is open, its row.
func (c *policyPanel) solveControl(param string) app.UI {
	l := c.Lang
	open := c.solve.knob == param
	knob := l.T("solve.knob." + param)
	btn := app.Button().ID("solve-"+param).Type("button").Class("secondary small solve-toggle").
		Aria("expanded", open).Title(l.F("solve.hint", knob)).OnClick(c.onSolve).Text(l.T("solve.open"))
	if !open {
		return app.Div().Class("solve").Body(btn)
	}
	total := c.solve.total
	if total == "" {
		total = l.Duration(10*time.Second, "10s")
	}
	status, cls := c.solveStatus(param), "hint"
	if c.solve.err != nil {
		cls = "field-error"
	}
	return app.Div().Class("solve").Body(btn, app.Div().ID("solve-row").Class("solve-row").Body(
		app.Label().For("solve-total").Text(l.F("solve.label", knob)),
		app.Input().Type("text").ID("solve-total").Class("value-box").Value(total).
			Attr("autocomplete", "off").Attr("spellcheck", "false").Aria("describedby", "solve-status").
			OnInput(c.onSolveTotal).OnChange(c.onSolveTotal).OnKeyDown(c.onSolveTotal).
			OnFocus(selectAll),
		app.Select().ID("solve-target").Aria("label", l.T("solve.target")).OnChange(c.onSolveTarget).Body(
			app.Option().Value("worst").Selected(!c.solve.expected).Text(l.T("solve.worst")),
			app.Option().Value("expected").Selected(c.solve.expected).Text(l.T("solve.expected")),
		),
		app.Button().ID("solve-apply").Type("button").OnClick(c.onSolveApply).Text(l.T("solve.apply")),
		app.P().ID("solve-status").Class(cls).Aria("live", "polite").Hidden(status == "").Text(status),
	))
}

// solveStatus words the last answer: the value set and its totals, or the
// error in the page's language.
func (c *policyPanel) solveStatus(param string) string {
	l := c.Lang
	if err := c.solve.err; err != nil {
		// The total is this row's field: its error names the row's label,
		// as typed, not the CLI's flag (worst-total).
		var fe *backoff.FieldError
		if errors.As(err, &fe) && (fe.Field == backoff.WorstTotal.String() || fe.Field == backoff.ExpectedTotal.String()) {
			return l.F("err.field", l.F("solve.label", l.T("solve.knob."+param)), clip(c.solve.total, 40), ruleText(l, fe))
		}
		return errText(l, err, "")
	}
	s := c.solve.sol
	if s == nil {
		return ""
	}
	v := localValue(l, param, s.Policy.Get(param))
	totals := l.F("solve.worst-total", l.Seconds(s.Worst))
	if s.ExpectedExact {
		totals = l.F("solve.totals", l.Seconds(s.Worst), l.Seconds(s.Expected))
	}
	switch {
	case !s.Binding && param == backoff.ParamCap:
		return l.F("solve.no-cap", totals)
	case !s.Binding:
		return l.F("solve.most", v, totals)
	}
	return l.F("solve.done", v, totals)
}

// onSolve opens param's control (#solve-PARAM), or closes it.
func (c *policyPanel) onSolve(ctx app.Context, e app.Event) {
	param := strings.TrimPrefix(ctx.JSSrc().Get("id").String(), "solve-")
	if c.solve.knob == param {
		c.solve = solveState{}
		return
	}
	c.solve = solveState{knob: param, total: c.solve.total, expected: c.solve.expected}
}

// onSolveTotal keeps the typed total; Enter in the box solves (a change
// event, and the key itself: the box may hold the same text as when it
// got focus, when no change fires).
func (c *policyPanel) onSolveTotal(ctx app.Context, e app.Event) {
	c.solve.total = ctx.JSSrc().Get("value").String()
	switch e.Get("type").String() {
	case "change":
		c.onSolveApply(ctx, e)
	case "keydown":
		if e.Get("key").String() == "Enter" {
			c.onSolveApply(ctx, e)
		} else {
			ctx.PreventUpdate() // a key alone changes nothing shown
		}
	}
}

// onSolveTarget keeps the target: the worst total or the expected one.
func (c *policyPanel) onSolveTarget(ctx app.Context, e app.Event) {
	c.solve.expected = ctx.JSSrc().Get("value").String() == "expected"
}

// onSolveApply solves for the open knob and sets it: the same edit as
// typing the value, a history entry.
func (c *policyPanel) onSolveApply(ctx app.Context, e app.Event) {
	l := c.Lang
	g := backoff.Goal{Knob: c.solve.knob, Target: backoff.WorstTotal}
	if c.solve.expected {
		g.Target = backoff.ExpectedTotal
	}
	text := c.solve.total
	if text == "" {
		text = l.Duration(10*time.Second, "10s")
	}
	var s backoff.Solution
	d, err := backoff.ParseDuration(g.Target.String(), i18n.CanonDuration(text), backoff.MaxDeadline)
	if err == nil {
		g.Total = d
		s, err = backoff.Solve(c.pol.Policy, g)
	}
	c.solve.sol, c.solve.err = nil, err
	if err != nil {
		return
	}
	c.solve.sol = &s
	if s.Policy == c.pol.Policy {
		return
	}
	c.pol.Policy = s.Policy
	c.reset()
	c.apply(ctx, true)
}

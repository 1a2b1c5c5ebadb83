package app

import (
	"net/url"
	"strings"
	"sync"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// keyScenario names the herd scenario a link starts from (scenarios): its
// keys fill in those the link leaves out, and the page writes it back while
// the policy and the herd are still the scenario's.
const keyScenario = "scenario"

// scenarios are the herd panel's one-click setups, the simulator's named
// scenarios (sim.Scenarios, shared with the CLI's --scenario), each a
// page query (the policy's and the herd's keys); the catalog has
// "scenario.NAME" (the button) and "scenario.NAME-long" (what to look at).
var scenarios = func() []struct{ group, name, query string } {
	all := sim.Scenarios()
	out := make([]struct{ group, name, query string }, len(all))
	for i, s := range all {
		out[i].group, out[i].name, out[i].query = s.Group, s.Name, s.Query
	}
	return out
}()

// scenarioQuery is the query of the scenario called name ("" if none).
func scenarioQuery(name string) string {
	for _, s := range scenarios {
		if s.name == name {
			return s.query
		}
	}
	return ""
}

// withScenario fills q with the keys of the scenario it names that it
// does not give itself; ok is false for an unknown scenario.
func withScenario(q url.Values) (ok bool) {
	name := q.Get(keyScenario)
	if name == "" {
		return true
	}
	sq, _ := url.ParseQuery(scenarioQuery(name))
	if len(sq) == 0 {
		return false
	}
	for k, v := range sq {
		if _, given := q[k]; !given {
			q[k] = v
		}
	}
	return true
}

func scenarioNames() string {
	names := make([]string, len(scenarios))
	for i, s := range scenarios {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

// scenarioOf is the scenario whose policy and herd s has, or "".
func scenarioOf(s *state) string {
	for i, t := range scenarioStates() {
		if t.Preset == s.Preset && t.Policy == s.Policy && t.Herd == s.Herd {
			return scenarios[i].name
		}
	}
	return ""
}

// scenarioStates are the scenarios' states, parsed once: every render and
// every URL written asks which scenario the page shows.
var scenarioStates = sync.OnceValue(func() []state {
	out := make([]state, len(scenarios))
	for i, sc := range scenarios {
		out[i], _ = parseQuery(sc.query)
	}
	return out
})

// scenarioButtons are the rows of scenario buttons, a component: the one
// the page shows (Current) pressed, with what to look at in it. A click
// goes to the page as an edit.
type scenarioButtons struct {
	app.Compo

	Lang    i18n.Lang
	Current string
}

func (c *scenarioButtons) onClick(ctx app.Context, e app.Event) {
	q := scenarioQuery(strings.TrimPrefix(ctx.JSSrc().Get("id").String(), "scenario-"))
	if q == "" {
		return
	}
	// The policy and the herd become the scenario's, as a history entry;
	// the rest of the page (language, view, seed, the second policy)
	// stays, and the panels show the scenario's values.
	sc, _ := parseQuery(q)
	sendEdit(ctx, edit{set: func(st *state) bool {
		st.Preset, st.Policy, st.Herd = sc.Preset, sc.Policy, sc.Herd
		return true
	}, rerun: true, push: true, replace: true})
}

// scenarioRows are the scenarios by group, a row per group in the order
// the groups first appear: a group's scenarios share its row wherever
// they are listed.
func scenarioRows() (groups []string, rows [][]int) {
	at := map[string]int{}
	for i, sc := range scenarios {
		k, ok := at[sc.group]
		if !ok {
			k = len(groups)
			at[sc.group] = k
			groups, rows = append(groups, sc.group), append(rows, nil)
		}
		rows[k] = append(rows[k], i)
	}
	return groups, rows
}

func (c *scenarioButtons) Render() app.UI {
	l, cur := c.Lang, c.Current
	groups, idx := scenarioRows()
	rows := make([]app.UI, 0, len(groups)+1)
	for g, group := range groups {
		items := []app.UI{app.Span().Class("scenarios-label").Text(l.T("scenario.group-" + group))}
		for _, i := range idx[g] {
			sc := scenarios[i]
			items = append(items, app.Button().ID("scenario-"+sc.name).Type("button").Class("secondary small").
				Aria("pressed", sc.name == cur).OnClick(c.onClick).Text(l.T("scenario."+sc.name)))
		}
		rows = append(rows, app.Div().Class("take-away").Body(items...))
	}
	hint := ""
	if cur != "" {
		hint = l.T("scenario." + cur + "-long")
	}
	return app.Div().Class("scenarios").Body(append(rows,
		app.P().ID("scenario-hint").Class("hint").Hidden(hint == "").Text(hint))...)
}

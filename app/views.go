package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A view is one widget that ?view= shows alone. views names each view
// once: ?view='s values, the Embed panel's choices, the lessons' widgets,
// the pre-rendered pages, the document's title, the downloads and the
// server's /svg/ images all read it. A new view is its name here, its
// drawing in viewDraws, its catalog title (view.NAME) and, if it is a
// picture, its server drawing (serverImages); TestViewRegistry holds the
// four together.
var views = []string{"table", "delays", "herd", "compare", "classify", "sweep", "flow"}

// viewDraw is how a view is drawn: its widget's constructor, and its
// picture as SVG ("" while there is nothing to draw), which the page
// downloads and the server draws for a Markdown image; nil for a view that
// is no picture (the classifier). Each lives in its component's file.
type viewDraw struct {
	widget  func(v pageView) app.UI
	picture func(v pageView) string
	// herd, compare: the view shows the herd's runs, and the compare
	// runs (one per jitter kind) made after them; a view alone runs only
	// what it shows.
	herd, compare bool
	// runs are the simulation runs the view's picture makes for a link's
	// state (nil: none), whose memory an image's budget bounds first.
	runs func(s *state) []sim.Config
	// held is what the picture holds beyond its runs, in bytes (the
	// flow's calls).
	held int64
}

// viewDraws are the views' drawings by name. They are set in init, apart
// from views, because drawing reads the state and reading a link's state
// reads the views' names: Go refuses that cycle between package variables.
var viewDraws map[string]viewDraw

func init() {
	viewDraws = map[string]viewDraw{
		"table":  {newTableCard, tablePicture, false, false, nil, 0},
		"delays": {newDelaysCard, delaysPicture, false, false, nil, 0},
		"herd": {func(v pageView) app.UI { return newHerdCard(v, false) }, herdPicture, true, false,
			func(s *state) []sim.Config { return []sim.Config{herdImageConfig(s)} }, 0},
		"compare":  {newCompareCard, comparePicture, true, true, compareImageConfigs, 0},
		"classify": {newClassifyCard, nil, false, false, nil, 0},
		"sweep":    {newSweepCard, sweepPicture, false, false, sweepImageConfigs, 0},
		"flow": {newFlowCard, flowViewPicture, false, false,
			func(s *state) []sim.Config { return []sim.Config{flowImageConfig(s)} }, flowRecorderMemory},
	}
}

// pageView is what the page hands its parts' constructors and the views'
// pictures: the language, the link's state (and its query), and the runs
// and results the page keeps.
type pageView struct {
	lang  i18n.Lang
	st    *state
	query string // st.query(), made once a render
	herd  *herdRunner
	boxes *viewBoxes
}

// viewBoxes are the last results of the views that run their own (the
// sweep panel, the flow view), kept for their pictures.
type viewBoxes struct {
	sweep sweepBox
	flow  flowBox
}

// alone: the page is an embedded view, one card.
func (v pageView) alone() bool { return v.st.View != "" && v.st.Lesson == 0 }

// runsOf says which runs a page with st shows: the whole page and a
// lesson all of them (a lesson's prompt may send its reader to the page),
// a view alone those of its widget.
func runsOf(st *state) (herd, compare bool) {
	if st.View == "" || st.Lesson > 0 {
		return true, true
	}
	d := viewDraws[st.View]
	return d.herd, d.compare
}

// isPicture says whether the view called name is a picture.
func isPicture(name string) bool { return viewDraws[name].picture != nil }

// viewTitle is view's title in l: its heading, its iframe's and
// document's title and its label in the Embed panel.
func viewTitle(l i18n.Lang, name string) string {
	return l.T("view." + name)
}

// widgetOf is one view's widget alone (the classifier's for no view).
func widgetOf(v pageView, name string) app.UI {
	d, ok := viewDraws[name]
	if !ok {
		d = viewDraws["classify"]
	}
	return d.widget(v)
}

package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A view is one widget that ?view= shows alone. viewList is the one
// place a view is named: ?view='s values, the Embed panel's choices, the
// lessons' widgets, the pre-rendered pages, the document's title, the
// downloads and the server's /svg/ images all read it. A new view is its
// entry here and in viewDraws, its catalog title (view.NAME) and, if it
// is a picture, its server drawing (serverImages); TestViewRegistry holds
// the four together.
type view struct {
	name string
	// picture: the view is an SVG chart, which the page downloads and the
	// server draws for a Markdown image. The classifier is no picture.
	picture bool
}

// viewList is every view, in the order the Embed panel offers them.
var viewList = []view{
	{name: "table", picture: true},
	{name: "delays", picture: true},
	{name: "herd", picture: true},
	{name: "compare", picture: true},
	{name: "classify"},
}

// viewDraw is how a view is drawn: its widget, and its picture as SVG ("" while
// there is nothing to draw; nil for a view that is no picture).
type viewDraw struct {
	widget  func(p *playground, l i18n.Lang) app.UI
	picture func(p *playground, l i18n.Lang) string
}

// viewDraws are the views' drawings by name. They are set apart from
// viewList, in init, because drawing reads the state and reading a link's
// state reads viewList's names: Go refuses that cycle between package
// variables.
var viewDraws map[string]viewDraw

func init() {
	viewDraws = map[string]viewDraw{
		"table":    {(*playground).renderDelays, (*playground).tablePicture},
		"delays":   {(*playground).renderDelayCharts, (*playground).delaysPicture},
		"herd":     {(*playground).herdWidget, (*playground).herdPicture},
		"compare":  {(*playground).renderCompare, (*playground).comparePicture},
		"classify": {(*playground).renderClassify, nil},
	}
}

// views are the views' names: ?view='s values.
var views = viewNames(false)

// ImageKindsPage are the views that are pictures: what the page downloads
// and the server draws (ImageKinds on the server's side).
var ImageKindsPage = viewNames(true)

func viewNames(pictures bool) []string {
	var out []string
	for _, v := range viewList {
		if !pictures || v.picture {
			out = append(out, v.name)
		}
	}
	return out
}

// viewTitle is view's title in l: its heading, its iframe's and
// document's title and its label in the Embed panel.
func viewTitle(l i18n.Lang, name string) string {
	return l.T("view." + name)
}

// widget is one view's widget alone (the classifier's for no view).
func (p *playground) widget(l i18n.Lang, name string) app.UI {
	d, ok := viewDraws[name]
	if !ok {
		d = viewDraws["classify"]
	}
	return d.widget(p, l)
}

func (p *playground) herdWidget(l i18n.Lang) app.UI { return p.renderHerd(l, false) }

func (p *playground) tablePicture(l i18n.Lang) string {
	if p.table == nil {
		return ""
	}
	return chart.TableSVG(l, p.table)
}

func (p *playground) delaysPicture(l i18n.Lang) string {
	p.drawDelays()
	return p.delaySVG
}

func (p *playground) herdPicture(l i18n.Lang) string {
	if h := p.herd.a; h != nil && h.first != nil {
		return herdImage(l, p.st.Herd.Config, h)
	}
	return ""
}

func (p *playground) comparePicture(l i18n.Lang) string {
	return compareSVG(l, p.herd.cmp)
}

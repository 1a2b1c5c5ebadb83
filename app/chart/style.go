package chart

import "strings"

// The charts' colours and rules live here, once: CSS() is the page's
// static/chart.css (a test keeps the file equal to it), and Standalone puts
// the same rules inside an SVG file, which can load no style sheet.

// palette is every colour of the page and its charts: name, light, dark.
// The chart colours are the Okabe-Ito palette (safe for the common
// colour-vision deficiencies); every series also differs in shape.
var palette = []struct{ name, light, dark string }{
	{"bg", "#f6f7f9", "#111418"},
	{"card", "#ffffff", "#1a1f25"},
	{"text", "#1b1f24", "#e8ebef"},
	{"muted", "#4f5863", "#a9b2bc"},
	{"line", "#d5dae1", "#343c46"},
	{"grid", "#e6e9ee", "#3a434e"},
	{"accent", "#0072b2", "#56b4e9"},      // blue
	{"accent-text", "#ffffff", "#0b1620"}, // on the accent
	{"ok", "#0072b2", "#56b4e9"},          // blue
	{"rejected", "#d55e00", "#e8804a"},    // vermillion
	{"band", "#56b4e9", "#56b4e9"},        // sky blue
	{"mean", "#0b4f7c", "#d9eefa"},
	{"dots", "#e69f00", "#f0b431"}, // orange
	{"cap", "#cc79a7", "#e59cc6"},  // reddish purple
	{"hist", "#009e73", "#2cc197"}, // bluish green
	{"outage", "rgba(27, 31, 36, 0.09)", "rgba(255, 255, 255, 0.11)"},
	{"hatch", "rgba(255, 255, 255, 0.55)", "rgba(17, 20, 24, 0.6)"}, // the light stripes of rejected bars
	{"error", "#b3261e", "#ff8a80"},
	{"error-bg", "#fdecea", "#3a1d1b"},
	{"notice-bg", "#fff6d6", "#3a3216"},
	{"capped-row", "#fdf0f7", "#35202d"},
	// Text in a series' colour: the light scheme's vermillion and purple
	// are 3.9:1 and 3.1:1 on the card, under the 4.5:1 small text needs;
	// these are 5:1 and more on the card and the page.
	{"rejected-text", "#b84f00", "#e8804a"},
	{"cap-text", "#a8467d", "#e59cc6"},
	// Form fields' edges and the focus ring: 3:1 or more against the card
	// and the page in both schemes (the line colour is 1.4:1, the orange
	// ring 2.3:1 on white).
	{"field", "#7d8693", "#7d8693"},
	{"focus", "#9c6500", "#e69f00"},
}

// dotsOpacity is a number, which light-dark() cannot hold.
const dotsOpacityLight, dotsOpacityDark = "0.55", "0.8"

// fonts are the charts' faces, with fallbacks for an SVG shown anywhere.
const fonts = `system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif`

// rules style the charts' classes; colours are the palette's variables.
const rules = `.chart { overflow: visible; }
.chart text { fill: var(--muted); font-size: 11px; }
.chart .axis-label { font-size: 11px; }
.chart .small-title { fill: var(--text); font-size: 13px; font-weight: 600; }
.chart .empty { font-size: 14px; }
.chart .grid { stroke: var(--grid); stroke-width: 1; fill: none; }
.chart .band { fill: var(--band); fill-opacity: 0.28; stroke: var(--band); stroke-opacity: 0.7; stroke-width: 1; }
.chart .dots { stroke: var(--dots); stroke-opacity: var(--dots-opacity); stroke-width: 3.2; stroke-linecap: round; fill: none; }
.chart .mean { stroke: var(--mean); stroke-width: 2.5; fill: none; }
.chart .mean-line { stroke: var(--mean); stroke-width: 1; stroke-dasharray: 2 3; fill: none; }
.chart .cap { stroke: var(--cap); stroke-width: 1.5; stroke-dasharray: 6 4; fill: none; }
.chart .cap-label { fill: var(--cap-text); }
.chart .hist { fill: var(--hist); fill-opacity: 0.8; }
.chart .mark-mean { stroke: var(--mean); stroke-width: 1.5; }
.chart .mark-max { stroke: var(--rejected); stroke-width: 1.5; stroke-dasharray: 4 3; }
.chart .mark-mean-label { fill: var(--mean); }
.chart .mark-max-label { fill: var(--rejected-text); }
.chart .ok { fill: var(--ok); }
/* Rejected: vermillion with stripes (the pattern in Herd), so it differs
   from succeeded by texture as well as colour and place (stacked above). */
.chart .rejected { fill-opacity: 0.9; }
.chart .hatch-bg { fill: var(--rejected); }
.chart .hatch-line { stroke: var(--hatch); stroke-width: 1.6; }
.chart .capacity { stroke: var(--text); stroke-width: 1.5; stroke-dasharray: 5 3; fill: none; }
.chart .capacity-label { fill: var(--text); }
.chart .outage { fill: var(--outage); }
.chart .clipped { fill: var(--text); font-weight: 600; }
.chart .clipped-mark { fill: var(--rejected); }
/* Labels drawn over bars keep a halo of the card's colour. */
.chart .clipped, .chart .cap-label, .chart .capacity-label { paint-order: stroke; stroke: var(--card); stroke-width: 4px; stroke-linejoin: round; }
.chart .band.series-b { fill: var(--cap); fill-opacity: 0.12; stroke: var(--cap); stroke-opacity: 0.9; stroke-dasharray: 3 2; }
.chart .dots.series-b { stroke: var(--cap); }
.chart .mean.series-b { stroke: var(--cap); }
.chart .mean-line.series-b { stroke: var(--cap); }
.chart .hist-b { fill: none; stroke: var(--cap); stroke-width: 2; }
.chart .spread { stroke: var(--text); stroke-width: 1.2; stroke-opacity: 0.7; fill: none; }
/* The replay's marks: the calls sent per bucket up to the playhead. */
.chart .replay-mark { stroke: var(--text); stroke-width: 3; fill: none; }
.chart .goodput { fill: var(--ok); fill-opacity: 0.8; }
.chart .offered { stroke: var(--text); stroke-width: 1.5; stroke-dasharray: 2 2; fill: none; }
.chart .calls-line { stroke: var(--rejected); stroke-width: 2; fill: none; }
.chart .queue { fill: var(--hist); fill-opacity: 0.7; }
.chart .busy { stroke: var(--mean); stroke-width: 1.5; fill: none; }
.chart .failed-line { stroke: var(--rejected); stroke-width: 2; fill: none; }
.chart .queue-line { stroke: var(--mean); stroke-width: 1.5; stroke-dasharray: 4 2; fill: none; }
.chart .p50 { stroke: var(--ok); stroke-width: 2; stroke-dasharray: 5 2; fill: none; }
.chart .p99 { stroke: var(--rejected); stroke-width: 2; fill: none; }
.chart .fault-label { fill: var(--text); font-weight: 600; paint-order: stroke; stroke: var(--card); stroke-width: 4px; stroke-linejoin: round; }
.chart .box { fill: var(--card); stroke: var(--text); stroke-width: 1.5; }
.chart .box-label { fill: var(--text); font-weight: 600; }
.chart .arrow { stroke: var(--text); stroke-width: 1.5; fill: none; }
.chart .chain-calls { fill: var(--rejected-text); font-weight: 700; font-size: 13px; }
.chart .aloha-curve { stroke: var(--mean); stroke-width: 2; fill: none; }
.chart .slotted-curve { stroke: var(--hist); stroke-width: 2; stroke-dasharray: 6 3; fill: none; }
.chart .curve-label { fill: var(--muted); }
.chart .run-point { fill: var(--rejected); stroke: var(--card); stroke-width: 1.5; }
.chart .run-label { fill: var(--text); font-weight: 600; paint-order: stroke; stroke: var(--card); stroke-width: 4px; stroke-linejoin: round; }
.chart .strip-try { stroke: var(--muted); stroke-width: 1; fill: none; }
.chart .strip-ok { fill: var(--ok); }
.chart .strip-gave-up { fill: var(--rejected); }
.chart .table-head { fill: var(--text); font-weight: 600; }
.chart .table-cell { fill: var(--text); }
.chart .table-cap { fill: var(--capped-row); }
.chart .table-rule { stroke: var(--line); stroke-width: 1; }
.chart .frame { fill: var(--card); }
.chart .sweep-line { stroke-width: 2; fill: none; }
.chart .sweep-line.s0 { stroke: var(--ok); }
.chart .sweep-line.s1 { stroke: var(--rejected); stroke-dasharray: 6 3; }
.chart .sweep-line.s2 { stroke: var(--hist); stroke-dasharray: 2 2; }
.chart .sweep-line.s3 { stroke: var(--cap); stroke-dasharray: 8 3 2 3; }
.chart .sweep-line.s4 { stroke: var(--dots); stroke-dasharray: 1 3; }
.chart .sweep-mark { stroke-dasharray: none; stroke-width: 1.5; fill: var(--card); }
.chart .threshold { fill: var(--outage); }
.chart .threshold-label { fill: var(--text); font-weight: 600; }
.chart .key-label { fill: var(--text); font-size: 12px; }
.flow-chart .flow-client { fill: var(--grid); }
.flow-chart .flow-lb { fill: var(--card); stroke: var(--muted); stroke-width: 1.5; }
.flow-chart .flow-node rect { fill: var(--card); stroke: var(--muted); stroke-width: 1.5; }
.flow-chart .flow-node.fault rect, .flow-chart .flow-fault { fill: var(--outage); stroke: var(--error); stroke-width: 1.5; stroke-dasharray: 4 3; }
.flow-chart .flow-label { fill: var(--text); font-size: 13px; }
.flow-chart .flow-call { fill: var(--muted); }
.flow-chart .flow-call.ok { fill: var(--ok); }
.flow-chart .flow-call.error { fill: var(--error); }
.flow-chart .flow-call.refused { fill: var(--rejected); }
.flow-chart .flow-call.timeout { fill: var(--cap); }
.flow-chart .flow-call.lost { fill: var(--dots); }
.flow-chart .flow-wait { fill: var(--accent); fill-opacity: 0.35; }
.flow-chart .flow-clock { fill: var(--accent); }
.flow-chart .flow-workers { fill: var(--grid); }
.flow-chart .flow-busy { fill: var(--accent); }
.flow-chart .flow-busy-label { fill: var(--muted); font-size: 11px; }
`

// vars writes the palette's variables: "auto" as light-dark() pairs, or
// one theme's values.
func vars(theme string) string {
	var b strings.Builder
	for _, c := range palette {
		b.WriteString("  --" + c.name + ": ")
		switch theme {
		case "light":
			b.WriteString(c.light)
		case "dark":
			b.WriteString(c.dark)
		default:
			b.WriteString("light-dark(" + c.light + ", " + c.dark + ")")
		}
		b.WriteString(";\n")
	}
	op := dotsOpacityLight
	if theme == "dark" {
		op = dotsOpacityDark
	}
	b.WriteString("  --dots-opacity: " + op + ";\n")
	return b.String()
}

// CSS is static/chart.css: the palette for the page (the system's scheme,
// or ?theme= through data-theme on <html>) and the charts' rules.
func CSS() string {
	return `/* Generated from app/chart/style.go (go test ./app/chart -update-css): the
   colours of the page and its charts, and the charts' rules. Each colour is
   light-dark(light, dark): the system's scheme picks one, and ?theme= forces
   it through data-theme on <html>. */
:root {
  color-scheme: light dark;
` + vars("auto") + `}
:root[data-theme="light"] { color-scheme: light; }
:root[data-theme="dark"] { color-scheme: dark; --dots-opacity: ` + dotsOpacityDark + `; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { --dots-opacity: ` + dotsOpacityDark + `; } }

` + rules + emptyHerd()
}

// emptyHerd keeps an empty herd chart (the page before the browser's first
// run) at the chart's shape, the wide one or presenter mode's, so the page
// does not move when it is drawn.
func emptyHerd() string {
	f, p := herdFrame(HerdWide), herdFrame(HerdPresent)
	return "#herd-chart:empty { aspect-ratio: " + num(f.W) + " / " + num(f.H) + "; }\n" +
		".present .lesson-widget #herd-chart:empty { aspect-ratio: " + num(p.W) + " / " + num(p.H) + "; }\n"
}

// Standalone makes a chart drawn for the page a file of its own: the
// palette of theme (light, dark, or auto: the viewer's scheme) and the
// charts' rules inside it, the fonts named with fallbacks, and a
// background of the card's colour, so it reads the same in a Markdown page,
// an image viewer or a browser tab. No scripts, no external references.
func Standalone(svg, theme string) string {
	i := strings.Index(svg, ">")
	if i < 0 || !strings.HasPrefix(svg, "<svg") {
		return svg
	}
	var st strings.Builder
	st.WriteString(`<style>svg{font-family:` + fonts + `;`)
	switch theme {
	case "light", "dark":
		st.WriteString("color-scheme:" + theme + ";\n" + vars(theme) + "}\n")
	default:
		st.WriteString("color-scheme:light dark;\n" + vars("light") + "}\n@media (prefers-color-scheme: dark){svg{\n" + vars("dark") + "}}\n")
	}
	st.WriteString(rules)
	st.WriteString(`</style><rect class="frame" width="100%" height="100%"></rect>`)
	return svg[:i+1] + st.String() + svg[i+1:]
}

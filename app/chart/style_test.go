package chart

import (
	"encoding/xml"
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

var updateCSS = flag.Bool("update-css", false, "rewrite static/chart.css from style.go")

const cssFile = "../../static/chart.css"

// static/chart.css is CSS(), so the page and the standalone SVGs cannot
// drift apart.
func TestChartCSSIsGenerated(t *testing.T) {
	if *updateCSS {
		if err := os.WriteFile(cssFile, []byte(CSS()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(cssFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != CSS() {
		t.Fatal("static/chart.css differs from style.go: run go test ./app/chart -update-css")
	}
}

// A standalone chart is valid SVG with its own style, no script and no
// external reference, in every theme.
func TestStandalone(t *testing.T) {
	h := Series{Width: 1, OK: []float64{1, 5, 3}, Rejected: []float64{9, 0, 1}, Capacity: 4}
	for _, theme := range []string{"light", "dark", "auto"} {
		svg := Standalone(Herd(i18n.Ru, h, 0, 0, HerdWide, "толпа & <сбой>"), theme)
		d := xml.NewDecoder(strings.NewReader(svg))
		styles := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed: %v", theme, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				switch se.Name.Local {
				case "style":
					styles++
				case "script", "image", "use", "foreignObject":
					t.Errorf("%s: <%s> in a standalone SVG", theme, se.Name.Local)
				}
				for _, a := range se.Attr {
					if a.Name.Local == "href" && !strings.HasPrefix(a.Value, "#") {
						t.Errorf("%s: external reference %s", theme, a.Value)
					}
				}
			}
		}
		if styles != 1 || !strings.Contains(svg, `xmlns="http://www.w3.org/2000/svg"`) || !strings.Contains(svg, "sans-serif") {
			t.Errorf("%s: %d styles, or no namespace or font fallback", theme, styles)
		}
		if strings.Contains(svg, "url(http") || strings.Contains(svg, "@import") {
			t.Errorf("%s: an external reference in the style", theme)
		}
	}
	if dark := Standalone(Herd(i18n.En, h, 0, 0, HerdWide, "x"), "dark"); !strings.Contains(dark, "--card: #1a1f25") {
		t.Error("the dark theme does not set the dark card colour")
	}
}

//go:build !wasm

package app

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func TestChartSVG(t *testing.T) {
	for _, kind := range ImageKinds {
		svg, err := ChartSVG(kind, "preset=gax&attempts=4&clients=200&lang=ru&theme=dark")
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed: %v", kind, err)
			}
		}
		if !strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg"`) || !strings.Contains(svg, "--card: #1a1f25") {
			t.Errorf("%s: not a dark standalone SVG", kind)
		}
	}
	if _, err := ChartSVG("pie", ""); err != ErrUnknownImage {
		t.Errorf("pie: %v", err)
	}
	if a, b := CanonicalQuery("attempts=4&base=1s"), CanonicalQuery("base=1s&attempts=4&bogus=1"); a != b {
		t.Errorf("canonical queries differ: %q %q", a, b)
	}
	// The page's bound holds: a link asking for hours draws in bounded work.
	svg, err := ChartSVG("herd", "clients=200000&attempts=1000&cap=1s&outage-end=8760h&max-calls=1000000000")
	if err != nil || !strings.Contains(svg, "<path") {
		t.Fatalf("bounded herd: %v", err)
	}
}

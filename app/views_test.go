//go:build !wasm

package app

import (
	"slices"
	"sort"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

// TestViewRegistry holds a view's parts together: each view has its
// drawing, a server image exactly when it is a picture, a title in both
// catalogs and a pre-rendered page; nothing is drawn for a view that is
// not named.
func TestViewRegistry(t *testing.T) {
	var pictures []string
	for _, v := range views {
		if d, ok := viewDraws[v]; !ok || d.widget == nil {
			t.Errorf("view %q: no widget in viewDraws", v)
		}
		if _, ok := serverImages[v]; ok != isPicture(v) {
			t.Errorf("view %q: a picture in the page: %v, but the server draws it: %v", v, isPicture(v), ok)
		}
		if isPicture(v) {
			pictures = append(pictures, v)
		}
		for _, l := range i18n.Langs {
			if key := "view." + v; l.T(key) == key {
				t.Errorf("view %q: no %s title (%s)", v, l.Code(), key)
			}
		}
		if !slices.Contains(PageVariants(), keyView+"="+v) {
			t.Errorf("view %q: no pre-rendered page", v)
		}
	}
	for name := range viewDraws {
		if !slices.Contains(views, name) {
			t.Errorf("viewDraws draws %q, which is not in views", name)
		}
	}
	for name := range serverImages {
		if !slices.Contains(views, name) {
			t.Errorf("serverImages draws %q, which is not in views", name)
		}
	}
	if !slices.Equal(ImageKinds, pictures) {
		t.Errorf("images %v, want %v", ImageKinds, pictures)
	}
	want := []string{"classify", "compare", "delays", "flow", "herd", "sweep", "table"}
	got := slices.Clone(views)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("views %v, want %v (the ?view= values links carry)", got, want)
	}
	if !slices.Equal(pictures, []string{"table", "delays", "herd", "compare", "sweep", "flow"}) {
		t.Errorf("pictures %v, want table, delays, herd, compare, sweep and flow", pictures)
	}
	if !slices.Equal(embedViews, append([]string{"page"}, views...)) {
		t.Errorf("embed panel offers %v", embedViews)
	}
}

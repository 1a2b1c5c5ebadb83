//go:build !wasm

package app

import (
	"slices"
	"sort"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

// TestViewRegistry holds a view's parts together: each view in viewList
// has its drawing, a picture drawing exactly when it is a picture, a
// server image exactly then, a title in both catalogs and a pre-rendered
// page; nothing is drawn for a view that is not listed.
func TestViewRegistry(t *testing.T) {
	var names, pictures []string
	for _, v := range viewList {
		names = append(names, v.name)
		d, ok := viewDraws[v.name]
		switch {
		case !ok || d.widget == nil:
			t.Errorf("view %q: no widget in viewDraws", v.name)
		case (d.picture != nil) != v.picture:
			t.Errorf("view %q: picture %v, but viewDraws has a picture drawing: %v", v.name, v.picture, d.picture != nil)
		}
		if _, ok := serverImages[v.name]; ok != v.picture {
			t.Errorf("view %q: picture %v, but the server draws it: %v", v.name, v.picture, ok)
		}
		if v.picture {
			pictures = append(pictures, v.name)
		}
		for _, l := range i18n.Langs {
			if key := "view." + v.name; l.T(key) == key {
				t.Errorf("view %q: no %s title (%s)", v.name, l.Code(), key)
			}
		}
		if !slices.Contains(PageVariants(), keyView+"="+v.name) {
			t.Errorf("view %q: no pre-rendered page", v.name)
		}
	}
	for name := range viewDraws {
		if !slices.Contains(names, name) {
			t.Errorf("viewDraws draws %q, which is not in viewList", name)
		}
	}
	for name := range serverImages {
		if !slices.Contains(pictures, name) {
			t.Errorf("serverImages draws %q, which is not a picture in viewList", name)
		}
	}
	if !slices.Equal(views, names) || !slices.Equal(ImageKinds, pictures) {
		t.Errorf("views %v, images %v: want %v and %v", views, ImageKinds, names, pictures)
	}
	want := []string{"classify", "compare", "delays", "herd", "table"}
	got := slices.Clone(views)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("views %v, want %v (the ?view= values links carry)", got, want)
	}
	if !slices.Equal(embedViews, append([]string{"page"}, names...)) {
		t.Errorf("embed panel offers %v", embedViews)
	}
}

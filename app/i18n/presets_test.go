package i18n

import (
	"strings"
	"testing"
	"unicode"

	"github.com/backoff-playground/playground/backoff"
)

// TestEveryPresetHasARussianDescription ties presetRu to the core's presets:
// one Russian text for every preset, none for a name that is not a preset.
func TestEveryPresetHasARussianDescription(t *testing.T) {
	names := map[string]bool{}
	for _, p := range backoff.Presets() {
		names[p.Name] = true
		ru := presetRu[p.Name]
		if strings.TrimSpace(ru) == "" {
			t.Errorf("preset %q has no Russian description", p.Name)
			continue
		}
		if ru == p.Description {
			t.Errorf("preset %q: the Russian description is the English one", p.Name)
		}
		if !strings.ContainsFunc(ru, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
			t.Errorf("preset %q: the Russian description has no Cyrillic letter: %q", p.Name, ru)
		}
		if got := Ru.PresetDescription(p.Name, p.Description); got != ru {
			t.Errorf("Ru.PresetDescription(%q) = %q, want %q", p.Name, got, ru)
		}
		if got := En.PresetDescription(p.Name, p.Description); got != p.Description {
			t.Errorf("En.PresetDescription(%q) = %q, want the core's %q", p.Name, got, p.Description)
		}
	}
	for name := range presetRu {
		if !names[name] {
			t.Errorf("presetRu has %q, which is not a preset", name)
		}
	}
	if got := Ru.PresetDescription("no-such-preset", "English"); got != "English" {
		t.Errorf("Ru.PresetDescription of an unknown name = %q, want the English text", got)
	}
}

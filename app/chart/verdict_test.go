package chart

import (
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

func TestHerdVerdictText(t *testing.T) {
	for _, c := range []struct {
		v      sim.HerdVerdict
		en, ru string
	}{
		{sim.HerdVerdict{Clients: 5000, GaveUp: 5000, Returned: true, Back: 60, LastGaveUp: 32},
			"All 5,000 clients gave up 28s before the server came back.",
			"Все клиенты (5000) сдались за 28\u00a0с до того, как сервер вернулся."},
		{sim.HerdVerdict{Clients: 1000, Succeeded: 1000, Returned: true, Back: 10, LastSuccess: 51},
			"The last client succeeded 41s after the outage ended (at 51s).",
			"Последний клиент добился успеха через 41\u00a0с после конца сбоя (в 51\u00a0с)."},
		{sim.HerdVerdict{Clients: 1000, Succeeded: 855, GaveUp: 145, Returned: true, Back: 10, LastSuccess: 26.5, LastGaveUp: 12},
			"The last client succeeded 16.5s after the outage ended (at 26.5s). 145 gave up, the last 2s after the outage ended.",
			"Последний клиент добился успеха через 16,5\u00a0с после конца сбоя (в 26,5\u00a0с). Сдались: 145, последний — через 2\u00a0с после конца сбоя."},
		{sim.HerdVerdict{Clients: 200, GaveUp: 200, Returned: true, Back: 10, LastGaveUp: 13},
			"All 200 clients gave up, the last 3s after the outage ended.",
			"Все клиенты (200) сдались, последний — через 3\u00a0с после конца сбоя."},
		{sim.HerdVerdict{Clients: 10, Succeeded: 10, LastSuccess: 0.25},
			"The last client succeeded at 250ms.",
			"Последний клиент добился успеха в 250\u00a0мс."},
		{sim.HerdVerdict{Clients: 10, GaveUp: 4, Unfinished: 6, Returned: true, Back: 3600, LastGaveUp: 7},
			"4 gave up, the last 59\u00a0min 53\u00a0s before the server came back. 6 were still trying when the run stopped.",
			"Сдались: 4, последний — за 59\u00a0мин 53\u00a0с до того, как сервер вернулся. Когда прогон остановился, ещё пытались: 6."},
	} {
		if got := HerdVerdictText(i18n.En, c.v); got != c.en {
			t.Errorf("en %+v:\n got %q\nwant %q", c.v, got, c.en)
		}
		if got := HerdVerdictText(i18n.Ru, c.v); got != c.ru {
			t.Errorf("ru %+v:\n got %q\nwant %q", c.v, got, c.ru)
		}
	}
}

package app

import (
	"strconv"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Replay plays a herd run over simulated time: a playhead sweeps the
// timeline at 1×, 10× or 100×, and the callers waiting, the calls in flight,
// the clients that succeeded and those that gave up are counted at the
// playhead, with the calls of the bucket under it as its mark. It reads the
// run's timeline only: nothing is simulated again.

// replayState is the replay's: the playhead's time (seconds), whether it
// plays, its speed, and a generation that stops an old ticker.
type replayState struct {
	at      float64
	playing bool
	speed   float64
	gen     int
}

// replayFrame is how often a playing replay moves its playhead.
const replayFrame = 50 * time.Millisecond

// replayCounts are the counts at time t of a run's timeline: from the
// buckets that end by t. Started clients are first calls (calls less
// retries); a client that started, is not waiting and did not succeed has
// given up.
type replayCounts struct {
	Waiting, InFlight, Succeeded, GaveUp, Calls int
}

func countsAt(r *sim.Result, t float64) replayCounts {
	var c replayCounts
	if r == nil || r.BucketWidth <= 0 {
		return c
	}
	started, calls, answered := 0, 0, 0
	for _, b := range r.Timeline {
		if b.Start+r.BucketWidth > t {
			c.Calls = b.Calls // the bucket under the playhead: its mark
			break
		}
		started += b.Calls - b.Retries
		calls += b.Calls
		answered += b.OK + b.Rejected
		c.Succeeded += b.OK
		c.Waiting = b.Waiting
	}
	c.InFlight = max(calls-answered, 0)
	c.GaveUp = max(started-c.Waiting-c.Succeeded, 0)
	return c
}

// end is the time the replay runs to: the run's last bucket.
func replayEnd(r *sim.Result) float64 {
	if r == nil {
		return 0
	}
	return float64(len(r.Timeline)) * r.BucketWidth
}

func (p *playground) onReplay(ctx app.Context, e app.Event) {
	ctx = p.own(ctx)
	rp := &p.replay
	if rp.speed == 0 {
		rp.speed = 10
	}
	var res *sim.Result
	if p.herd.a != nil {
		res = p.herd.a.first
	}
	end := replayEnd(res)
	switch ctx.JSSrc().Get("id").String() {
	case "replay-speed":
		if v, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64); err == nil && v > 0 {
			rp.speed = v
		}
		return
	case "replay-step":
		rp.playing = false
		rp.gen++
		if res != nil {
			rp.at = min(rp.at+res.BucketWidth, end)
		}
		p.placePlayhead()
		return
	}
	// Play or pause.
	rp.gen++
	if rp.playing || res == nil {
		rp.playing = false
		return
	}
	if rp.at >= end {
		rp.at = 0
	}
	rp.playing = true
	gen := rp.gen
	ctx.Async(func() {
		for {
			time.Sleep(replayFrame)
			stop := false
			ctx.Dispatch(func(ctx app.Context) {
				if rp.gen != gen || !rp.playing {
					stop = true
					return
				}
				rp.at = min(rp.at+rp.speed*replayFrame.Seconds(), end)
				if rp.at >= end {
					rp.playing = false
				}
				p.placePlayhead()
			})
			if stop || p.replay.gen != gen {
				return
			}
		}
	})
}

// placePlayhead moves the playhead line over the herd chart (the chart is
// an SVG string the playhead cannot live in; the line is positioned through
// the DOM's style object, which the page's CSP allows).
func (p *playground) placePlayhead() {
	if !app.IsClient || p.herd.a == nil || p.herd.a.first == nil {
		return
	}
	el := app.Window().GetElementByID("playhead")
	if !el.Truthy() {
		return
	}
	end := replayEnd(p.herd.a.first)
	if end <= 0 {
		return
	}
	// The wide chart's plot spans x 58..628 of 640 units (chart.Herd).
	x := (58 + p.replay.at/end*570) / 640 * 100
	el.Get("style").Set("left", strconv.FormatFloat(x, 'f', 2, 64)+"%")
}

// renderReplay is the replay's bar: play, step, speed, the time and the
// counts at the playhead.
func (p *playground) renderReplay(l i18n.Lang) app.UI {
	var res *sim.Result
	if p.herd.a != nil && p.herd.b == nil {
		res = p.herd.a.first
	}
	rp := p.replay
	c := countsAt(res, rp.at)
	play := "replay.play"
	if rp.playing {
		play = "replay.pause"
	}
	speeds := []string{"1", "10", "100"}
	opts := make([]app.UI, len(speeds))
	speed := rp.speed
	if speed == 0 {
		speed = 10
	}
	for i, s := range speeds {
		opts[i] = app.Option().Value(s).Selected(s == strconv.FormatFloat(speed, 'f', -1, 64)).Text(s + "×")
	}
	return app.Div().ID("replay").Class("replay").Hidden(res == nil).Body(
		app.Button().ID("replay-play").Type("button").Class("secondary small").DataSet("playing", boolText(rp.playing)).
			OnClick(p.onReplay).Text(l.T(play)),
		app.Button().ID("replay-step").Type("button").Class("secondary small").OnClick(p.onReplay).Text(l.T("replay.step")),
		app.Select().ID("replay-speed").Aria("label", l.T("replay.speed")).OnChange(p.onReplay).Body(opts...),
		app.Span().ID("replay-time").Class("replay-time").DataSet("seconds", strconv.FormatFloat(rp.at, 'f', 3, 64)).
			Text(l.Seconds(rp.at)),
		app.Span().ID("replay-counts").Class("replay-counts").Text(l.F("replay.counts",
			l.Int(int64(c.Waiting)), l.Int(int64(c.InFlight)), l.Int(int64(c.Succeeded)), l.Int(int64(c.GaveUp)), l.Int(int64(c.Calls)))),
	)
}

package sim

// concurrencyRule lets a call in only while fewer than N are inside the
// server, waiting or in service (a bulkhead; Envoy's max_requests). It
// cannot know when one will leave: its 429s carry no Retry-After.
type concurrencyRule struct{ most int }

func init() { registerAdmission(4, &concurrencyRule{}) }

func (*concurrencyRule) Name() string { return "concurrency" }

func (*concurrencyRule) Args() []PartArg {
	return []PartArg{{Name: "N", Kind: IntParam, Min: 1, Max: MaxQueueLimit, Default: 100}}
}

func (*concurrencyRule) Help() string {
	return "at most N calls inside the server, waiting or in service; the others are refused (429, no Retry-After)"
}

func (*concurrencyRule) start(a *Admission) admitter { return &concurrencyRule{most: int(a.Args[0])} }

func (c *concurrencyRule) admit(_ float64, inside int) (bool, float64) { return inside < c.most, 0 }

func (*concurrencyRule) taken(float64, int) {}

package sim

// boundedDisc is FIFO with room for N waiting calls: a call arriving to
// find N waiting is refused at once with a 503, so no call waits longer
// than about N service times over the workers, and a caller learns at
// once rather than at its timeout.
type boundedDisc struct{ most int }

func init() { registerDiscipline(2, &boundedDisc{}) }

func (*boundedDisc) Name() string { return "bounded" }

func (*boundedDisc) Args() []PartArg {
	return []PartArg{{Name: "N", Kind: IntParam, Min: 1, Max: MaxQueueLimit, Default: 100}}
}

func (*boundedDisc) Help() string {
	return "first in, first out with at most N waiting: a call beyond them is refused at once with a 503"
}

func (*boundedDisc) start(d *Discipline) queueDisc { return &boundedDisc{most: int(d.Args[0])} }

func (b *boundedDisc) arrive(waiting int, _ float64) (bool, uint8) { return waiting >= b.most, 0 }
func (*boundedDisc) newest(float64) bool                           { return false }
func (*boundedDisc) overdue(uint8, float64) bool                   { return false }

package sim

// adaptiveLIFODisc is the adaptive LIFO of Maurer's "Fail at Scale" (ACM
// Queue, 2015): first in, first out while the queue drains now and then,
// last in, first out once it has not been empty for N. A short burst is
// served in order; a standing queue serves the newest calls, whose
// callers are still waiting, and leaves the old ones to time out.
type adaptiveLIFODisc struct{ after float64 }

func init() { registerDiscipline(4, &adaptiveLIFODisc{}) }

func (*adaptiveLIFODisc) Name() string { return "adaptive-lifo" }

func (*adaptiveLIFODisc) Args() []PartArg {
	return []PartArg{{Name: "N", Kind: DurationParam, Min: 0, Max: MaxLatency.Seconds(), Default: 0.1, Optional: true}}
}

func (*adaptiveLIFODisc) Help() string {
	return "Maurer's adaptive LIFO (Fail at Scale): first in, first out, but last in, first out while the queue has not been empty for N"
}

func (*adaptiveLIFODisc) start(d *Discipline) queueDisc {
	return &adaptiveLIFODisc{after: d.Args[0] / 1e9}
}

func (*adaptiveLIFODisc) arrive(int, float64) (bool, uint8) { return false, 0 }
func (a *adaptiveLIFODisc) newest(backlog float64) bool     { return backlog > a.after }
func (*adaptiveLIFODisc) overdue(uint8, float64) bool       { return false }

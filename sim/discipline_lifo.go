package sim

// lifoDisc is last in, first out: a worker takes the newest call, whose
// caller is the likeliest to be still waiting. Under overload the newest
// calls are served in about a service time and the oldest wait on (their
// callers time out), so goodput stays near capacity where FIFO's falls
// to nothing.
type lifoDisc struct{}

func init() { registerDiscipline(1, &lifoDisc{}) }

func (*lifoDisc) Name() string    { return "lifo" }
func (*lifoDisc) Args() []PartArg { return nil }
func (*lifoDisc) Help() string    { return "last in, first out: the newest call first" }

func (d *lifoDisc) start(*Discipline) queueDisc { return d }

func (*lifoDisc) arrive(int, float64) (bool, uint8) { return false, 0 }
func (*lifoDisc) newest(float64) bool               { return true }
func (*lifoDisc) overdue(uint8, float64) bool       { return false }

package sim

// fifoDisc is first in, first out: the queue server's classic queue. A
// worker takes the call that has waited longest; no call is refused for
// the queue's sake (Config.QueueLimit aside). Under overload every call
// waits the whole queue, so once the wait passes the callers' timeout
// the server works only for callers that have gone.
type fifoDisc struct{}

func init() { registerDiscipline(0, &fifoDisc{}) }

func (*fifoDisc) Name() string    { return "fifo" }
func (*fifoDisc) Args() []PartArg { return nil }
func (*fifoDisc) Help() string    { return "first in, first out" }

func (d *fifoDisc) start(*Discipline) queueDisc { return d }

func (*fifoDisc) arrive(int, float64) (bool, uint8) { return false, 0 }
func (*fifoDisc) newest(float64) bool               { return false }
func (*fifoDisc) overdue(uint8, float64) bool       { return false }

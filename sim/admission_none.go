package sim

// noAdmission lets every call in: the queue server without a guard.
type noAdmission struct{}

func init() { registerAdmission(0, &noAdmission{}) }

func (*noAdmission) Name() string    { return "none" }
func (*noAdmission) Args() []PartArg { return nil }
func (*noAdmission) Help() string    { return "every call is let in" }

func (n *noAdmission) start(*Admission) admitter { return n }

func (*noAdmission) admit(float64, int) (bool, float64) { return true, 0 }

func (*noAdmission) taken(float64, int) {}

package app

// faultText is a fault as a document writes it: KIND[:ARG]@START-END,
// then /NODE when it names one.
func faultText(kind, start, end, node string) string {
	s := kind + "@" + start + "-" + end
	if node != "" {
		s += "/" + node
	}
	return s
}

package cluster

// registry lists every method. Add new methods here.
func registry() []Info {
	return []Info{}
}

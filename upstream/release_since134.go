//go:build !k8s133

package main

// readVersion is the version of an API group the components read: v1 for
// core and, from 1.34 on, for resource.k8s.io.
func readVersion(string) string {
	return "v1"
}

// modeBuilt says whether a run mode is built for this release: all are.
func modeBuilt(string) error {
	return nil
}

//go:build k8s133

package main

import "fmt"

// readVersion: the components of 1.33 read resource.k8s.io/v1beta1 (its v1
// came in 1.34), the core group in v1.
func readVersion(group string) string {
	if group == "resource.k8s.io" {
		return "v1beta1"
	}
	return "v1"
}

// modeBuilt: for 1.33 the harness builds the feature gates and the allocator
// alone; the apiserver's create path and the scheduler are not wired for it.
func modeBuilt(mode string) error {
	switch mode {
	case "create", "schedule":
		return fmt.Errorf("the %s mode is not built for 1.33 (gates and allocate are)", mode)
	}
	return nil
}

// createResult and scheduleResult are never filled for 1.33.
type createResult struct{}

type scheduleResult struct{}

func createAll([]object) []createResult { return nil }

func schedule([]object, *string) (*scheduleResult, error) { return nil, modeBuilt("schedule") }

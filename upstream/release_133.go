//go:build k8s133

package main

import (
	"fmt"

	"k8s.io/apiserver/pkg/registry/rest"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
)

// readVersion: the components of 1.33 read resource.k8s.io/v1beta1 (its v1
// came in 1.34), the core group in v1.
func readVersion(group string) string {
	if group == "resource.k8s.io" {
		return "v1beta1"
	}
	return "v1"
}

// modeBuilt: for 1.33 the harness builds the feature gates, the apiserver's
// create path and the allocator alone; the scheduler is not wired for it.
func modeBuilt(mode string) error {
	if mode == "schedule" {
		return fmt.Errorf("the %s mode is not built for 1.33 (gates, create and allocate are)", mode)
	}
	return nil
}

// claimStrategy is 1.33's ResourceClaim registry strategy (no authorizer yet).
func claimStrategy(namespaces corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return claimregistry.NewStrategy(namespaces)
}

// scheduleResult is never filled for 1.33.
type scheduleResult struct{}

func schedule([]object, *string) (*scheduleResult, error) { return nil, modeBuilt("schedule") }

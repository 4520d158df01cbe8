// The release's feature gates (every release), set once at start-up as the
// components set them from --feature-gates.

package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	// Registers the Kubernetes feature gates of this release with their
	// defaults, locks and dependencies, as every component does.
	_ "k8s.io/kubernetes/pkg/features"
)

type gatesResult struct {
	// Refused holds the components' words when they refuse to start with
	// the gate set, null when they accept it.
	Refused *string `json:"refused"`
}

// setGates applies the overrides as --feature-gates does at start-up and
// returns the error a component would stop with, or nil.
func setGates(gates map[string]bool) *string {
	if len(gates) == 0 {
		return nil
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(gates); err != nil {
		return errorText(err)
	}
	return nil
}

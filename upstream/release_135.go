//go:build k8s135

// Release 1.35 (k8s.io/kubernetes v1.35.x): DeviceTaintRules in v1alpha3
// under their own gate, and a CEL compiler without list-type attributes.

package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/dynamic-resource-allocation/cel"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"

	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
)

// watchDeviceTaintRules: kube-scheduler 1.35's tracker applies DeviceTaintRules
// (resource.k8s.io/v1alpha3) under DRADeviceTaintRules, with DeviceClasses beside.
func watchDeviceTaintRules(options *resourceslicetracker.Options, factory informers.SharedInformerFactory) {
	options.EnableDeviceTaintRules = utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules)
	if options.EnableDeviceTaintRules {
		options.TaintInformer = factory.Resource().V1alpha3().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1().DeviceClasses()
	}
}

// pluginFeatures: the 1.35 plugin's CEL compiler knows no list-type attributes yet.
func pluginFeatures() (structured.Features, cel.Features) {
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	return dynamicresources.AllocatorFeatures(fts), cel.Features{EnableConsumableCapacity: fts.EnableDRAConsumableCapacity}
}

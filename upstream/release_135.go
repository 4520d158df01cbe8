//go:build k8s135

package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/dynamic-resource-allocation/cel"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"

	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
)

// sliceTrackerOptions are the ResourceSlice tracker's options as kube-scheduler 1.35
// sets them: DeviceTaintRules from resource.k8s.io/v1alpha3, DeviceClasses beside.
func sliceTrackerOptions(client *fake.Clientset, factory informers.SharedInformerFactory) resourceslicetracker.Options {
	options := resourceslicetracker.Options{
		EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	}
	if options.EnableDeviceTaintRules {
		options.TaintInformer = factory.Resource().V1alpha3().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1().DeviceClasses()
	}
	return options
}

// pluginFeatures: the 1.35 plugin's CEL compiler knows no list-type attributes yet.
func pluginFeatures() (structured.Features, cel.Features) {
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	return dynamicresources.AllocatorFeatures(fts), cel.Features{EnableConsumableCapacity: fts.EnableDRAConsumableCapacity}
}

//go:build k8s134

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

// sliceTrackerOptions are the ResourceSlice tracker's options as kube-scheduler 1.34
// sets them: DeviceTaintRules (resource.k8s.io/v1alpha3) follow DRADeviceTaints.
func sliceTrackerOptions(client *fake.Clientset, factory informers.SharedInformerFactory) resourceslicetracker.Options {
	options := resourceslicetracker.Options{
		EnableDeviceTaints:       utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaints),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	}
	if options.EnableDeviceTaints {
		options.TaintInformer = factory.Resource().V1alpha3().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1().DeviceClasses()
	}
	return options
}

// pluginFeatures: the 1.34 plugin sets the allocator's features field by
// field from its scheduler features (there is no AllocatorFeatures yet).
func pluginFeatures() (structured.Features, cel.Features) {
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	return structured.Features{
		AdminAccess:          fts.EnableDRAAdminAccess,
		PrioritizedList:      fts.EnableDRAPrioritizedList,
		PartitionableDevices: fts.EnablePartitionableDevices,
		DeviceTaints:         fts.EnableDRADeviceTaints,
		DeviceBinding:        fts.EnableDRADeviceBindingConditions,
		DeviceStatus:         fts.EnableDRAResourceClaimDeviceStatus,
		ConsumableCapacity:   fts.EnableConsumableCapacity,
	}, cel.Features{EnableConsumableCapacity: fts.EnableConsumableCapacity}
}

// watchExtendedResourceClasses: the 1.34 plugin maps extended resources to
// DeviceClasses from the class lister at each PreFilter; there is no cache to feed.
func watchExtendedResourceClasses(*dynamicresources.DefaultDRAManager, informers.SharedInformerFactory) func() bool {
	return func() bool { return true }
}

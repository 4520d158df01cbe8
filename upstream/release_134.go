//go:build k8s134

// Release 1.34 (k8s.io/kubernetes v1.34.x): DeviceTaintRules follow
// DRADeviceTaints, the plugin has no AllocatorFeatures yet, and
// dynamic-resource-allocation has no extended-resource cache.

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

// watchDeviceTaintRules: kube-scheduler 1.34's tracker applies DeviceTaintRules
// (resource.k8s.io/v1alpha3) under DRADeviceTaints, with DeviceClasses beside.
func watchDeviceTaintRules(options *resourceslicetracker.Options, factory informers.SharedInformerFactory) {
	options.EnableDeviceTaints = utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaints)
	if options.EnableDeviceTaints {
		options.TaintInformer = factory.Resource().V1alpha3().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1().DeviceClasses()
	}
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

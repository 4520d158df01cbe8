//go:build k8s133

// Release 1.33 (k8s.io/kubernetes v1.33.x): its components read v1beta1, its
// ResourceSlice tracker applies v1alpha3 DeviceTaintRules under
// DRADeviceTaints, and its plugin sets four allocator features from the gates.

package main

import (
	"context"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/dynamic-resource-allocation/cel"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
)

// claimStrategy is 1.33's ResourceClaim registry strategy (no authorizer yet).
func claimStrategy(namespaces corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return claimregistry.NewStrategy(namespaces)
}

// newClaimController is built as kube-controller-manager 1.33 builds it: the
// claims and templates read in v1beta1.
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	gate := utilfeature.DefaultFeatureGate
	return resourceclaim.NewController(klog.FromContext(ctx), resourceclaim.Features{
		AdminAccess:     gate.Enabled(features.DRAAdminAccess),
		PrioritizedList: gate.Enabled(features.DRAPrioritizedList),
	}, client, factory.Core().V1().Pods(),
		factory.Resource().V1beta1().ResourceClaims(), factory.Resource().V1beta1().ResourceClaimTemplates())
}

// sliceTrackerOptions are the ResourceSlice tracker's options as kube-scheduler
// 1.33 sets them: v1beta1 slices, DeviceTaintRules from v1alpha3 with
// DeviceClasses beside when DRADeviceTaints is on.
func sliceTrackerOptions(client *fake.Clientset, factory informers.SharedInformerFactory) resourceslicetracker.Options {
	options := resourceslicetracker.Options{
		EnableDeviceTaints: utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaints),
		SliceInformer:      factory.Resource().V1beta1().ResourceSlices(),
		KubeClient:         client,
	}
	if options.EnableDeviceTaints {
		options.TaintInformer = factory.Resource().V1alpha3().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1beta1().DeviceClasses()
	}
	return options
}

// watchExtendedResourceClasses: 1.33 has no DRAExtendedResource.
func watchExtendedResourceClasses(*dynamicresources.DefaultDRAManager, informers.SharedInformerFactory) func() bool {
	return func() bool { return true }
}

// buildAllocator is 1.33's NewAllocator: the four features its plugin sets
// from the gates, the slices with DeviceTaintRules applied.
func (c *cluster) buildAllocator(pending []*resourceClaim, allocated sets.Set[structured.DeviceID]) (*structured.Allocator, error) {
	slices, err := c.draManager.ResourceSlices().ListWithDeviceTaintRules()
	if err != nil {
		return nil, err
	}
	gate := utilfeature.DefaultFeatureGate
	allocatorFeatures := structured.Features{
		AdminAccess:          gate.Enabled(features.DRAAdminAccess),
		PrioritizedList:      gate.Enabled(features.DRAPrioritizedList),
		PartitionableDevices: gate.Enabled(features.DRAPartitionableDevices),
		DeviceTaints:         gate.Enabled(features.DRADeviceTaints),
	}
	return structured.NewAllocator(c.ctx, allocatorFeatures, pending, allocated, c.draManager.DeviceClasses(), slices, cel.NewCache(10))
}

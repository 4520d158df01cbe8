//go:build k8s133

package main

import (
	"context"
	"fmt"
	"time"

	resourceapi "k8s.io/api/resource/v1beta1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/cel"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
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

// newAllocator wires what kube-scheduler 1.33 wires (the ResourceSlice
// tracker with DeviceTaintRules from v1alpha3 when DRADeviceTaints is on, the
// claims in an assume cache, the DRA manager over them) and builds the
// allocator as the plugin's PreFilter does.
func newAllocator(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory, pending []*resourceapi.ResourceClaim) (*structured.Allocator, error) {
	gate := utilfeature.DefaultFeatureGate
	options := resourceslicetracker.Options{
		EnableDeviceTaints: gate.Enabled(features.DRADeviceTaints),
		SliceInformer:      factory.Resource().V1beta1().ResourceSlices(),
		KubeClient:         client,
	}
	if options.EnableDeviceTaints {
		options.TaintInformer = factory.Resource().V1alpha3().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1beta1().DeviceClasses()
	}
	tracker, err := resourceslicetracker.StartTracker(ctx, options)
	if err != nil {
		return nil, fmt.Errorf("starting the ResourceSlice tracker: %w", err)
	}
	claimCache := assumecache.NewAssumeCache(klog.FromContext(ctx), factory.Resource().V1beta1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	claimsSynced := claimCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	manager := dynamicresources.NewDRAManager(ctx, claimCache, tracker, factory)
	factory.Start(ctx.Done())
	waitForCacheSync(ctx, factory)
	err = wait.PollUntilContextTimeout(ctx, time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return tracker.HasSynced() && claimsSynced.HasSynced(), nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the informers: %w", err)
	}

	var allocated sets.Set[structured.DeviceID]
	err = wait.PollUntilContextTimeout(ctx, time.Microsecond, 5*time.Second, true, func(context.Context) (bool, error) {
		devices, err := manager.ResourceClaims().ListAllAllocatedDevices()
		allocated = devices
		return err == nil, nil
	})
	if err != nil {
		return nil, fmt.Errorf("gather allocation state: %w", err)
	}
	slices, err := manager.ResourceSlices().ListWithDeviceTaintRules()
	if err != nil {
		return nil, err
	}
	// The plugin's features, as kube-scheduler 1.33 sets them from the gates.
	allocatorFeatures := structured.Features{
		AdminAccess:          gate.Enabled(features.DRAAdminAccess),
		PrioritizedList:      gate.Enabled(features.DRAPrioritizedList),
		PartitionableDevices: gate.Enabled(features.DRAPartitionableDevices),
		DeviceTaints:         gate.Enabled(features.DRADeviceTaints),
	}
	return structured.NewAllocator(ctx, allocatorFeatures, pending, allocated, manager.DeviceClasses(), slices, cel.NewCache(10))
}

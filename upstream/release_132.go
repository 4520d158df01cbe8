//go:build k8s132

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
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// What 1.32 lacks beside 1.33: DeviceTaintRules and the ResourceSlice tracker
// (DRADeviceTaints came in 1.33), the allocator's Features (its NewAllocator
// takes one adminAccessEnabled bool), strategies that read the namespace.

// claimStrategy is 1.32's ResourceClaim registry strategy (one value, no
// namespace client).
func claimStrategy(corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return claimregistry.Strategy
}

// templateStrategy is 1.32's ResourceClaimTemplate registry strategy.
func templateStrategy(corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return resourceclaimtemplate.Strategy
}

// taintRuleStrategy: 1.32 has no DeviceTaintRule (its scheme refuses one
// before any strategy is asked).
func taintRuleStrategy() rest.RESTCreateStrategy {
	return nil
}

// newClaimController is built as kube-controller-manager 1.32 builds it:
// admin access as its one feature, claims and templates read in v1beta1.
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	return resourceclaim.NewController(klog.FromContext(ctx),
		utilfeature.DefaultFeatureGate.Enabled(features.DRAAdminAccess), client, factory.Core().V1().Pods(),
		factory.Resource().V1beta1().ResourceClaims(), factory.Resource().V1beta1().ResourceClaimTemplates())
}

// newAllocator wires what kube-scheduler 1.32 wires (the claims in an assume
// cache, the DRA manager reading slices and classes from informers) and
// builds the allocator as the plugin's PreFilter does.
func newAllocator(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory, pending []*resourceapi.ResourceClaim) (*structured.Allocator, error) {
	claimCache := assumecache.NewAssumeCache(klog.FromContext(ctx), factory.Resource().V1beta1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	claimsSynced := claimCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	manager := dynamicresources.NewDRAManager(ctx, claimCache, factory)
	factory.Start(ctx.Done())
	waitForCacheSync(ctx, factory)
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return claimsSynced.HasSynced(), nil
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
	slices, err := manager.ResourceSlices().List()
	if err != nil {
		return nil, err
	}
	adminAccess := utilfeature.DefaultFeatureGate.Enabled(features.DRAAdminAccess)
	return structured.NewAllocator(ctx, adminAccess, pending, allocated, manager.DeviceClasses(), slices, cel.NewCache(10))
}

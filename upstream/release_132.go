//go:build k8s132

// Release 1.32 (k8s.io/kubernetes v1.32.x). What it lacks beside 1.33:
// DeviceTaintRules and the ResourceSlice tracker (DRADeviceTaints came in
// 1.33), the allocator's Features (its NewAllocator takes one
// adminAccessEnabled bool), strategies that read the namespace.

package main

import (
	"context"

	"k8s.io/apimachinery/pkg/util/sets"
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

// newDRAManager wires what kube-scheduler 1.32 wires: the claims in an
// assume cache, the DRA manager reading slices and classes from informers.
func newDRAManager(ctx context.Context, _ *fake.Clientset, factory informers.SharedInformerFactory) (*dynamicresources.DefaultDRAManager, func() bool, error) {
	claimCache := assumecache.NewAssumeCache(klog.FromContext(ctx), claimInformer(factory), "ResourceClaim", "", nil)
	claimsSynced := claimCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	return dynamicresources.NewDRAManager(ctx, claimCache, factory), claimsSynced.HasSynced, nil
}

// buildAllocator is 1.32's NewAllocator: admin access from the gate, the
// slices as the informer lists them.
func (c *cluster) buildAllocator(pending []*resourceClaim, allocated sets.Set[structured.DeviceID]) (*structured.Allocator, error) {
	slices, err := c.draManager.ResourceSlices().List()
	if err != nil {
		return nil, err
	}
	adminAccess := utilfeature.DefaultFeatureGate.Enabled(features.DRAAdminAccess)
	return structured.NewAllocator(c.ctx, adminAccess, pending, allocated, c.draManager.DeviceClasses(), slices, cel.NewCache(10))
}

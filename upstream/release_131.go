//go:build k8s131

// Release 1.31 (k8s.io/kubernetes v1.31.x): structured parameters are alpha
// and read in resource.k8s.io/v1alpha3, there is no DRA manager (the plugin's
// allocator reads the claims' assume cache and the informers' listers itself,
// and answers one *AllocationResult per claim), the resource-claim controller
// still watches PodSchedulingContexts (classic DRA), the strategies are plain
// values, and the scheduler's diagnosis is a NodeToStatusMap.

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1alpha3"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	resourceclient "k8s.io/client-go/kubernetes/typed/resource/v1alpha3"
	resourcelisters "k8s.io/client-go/listers/resource/v1alpha3"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// readVersion: 1.31's components read resource.k8s.io/v1alpha3.
func readVersion(group string) string {
	if group == "resource.k8s.io" {
		return "v1alpha3"
	}
	return "v1"
}

// resourceClaim and allocationResult are in the version 1.31's components
// read (v1alpha3).
type (
	resourceClaim    = resourceapi.ResourceClaim
	allocationResult = resourceapi.AllocationResult
)

// claimsAPI is the fake apiserver's ResourceClaim client in v1alpha3.
func claimsAPI(client *fake.Clientset) resourceclient.ResourceClaimsGetter {
	return client.ResourceV1alpha3()
}

// claimStrategy is 1.31's ResourceClaim registry strategy (one value).
func claimStrategy(corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return claimregistry.Strategy
}

// templateStrategy is 1.31's ResourceClaimTemplate registry strategy.
func templateStrategy(corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return resourceclaimtemplate.Strategy
}

// taintRuleStrategy: 1.31 has no DeviceTaintRule.
func taintRuleStrategy() rest.RESTCreateStrategy {
	return nil
}

// newClaimController is built as kube-controller-manager 1.31 builds it: no
// features, the PodSchedulingContext informer beside claims and templates,
// all in v1alpha3.
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	resource := factory.Resource().V1alpha3()
	return resourceclaim.NewController(klog.FromContext(ctx), client, factory.Core().V1().Pods(),
		resource.PodSchedulingContexts(), resource.ResourceClaims(), resource.ResourceClaimTemplates())
}

// diagnosedStatus is a node's status in 1.31's diagnosis: a plain map, where
// a node that is absent was not judged by a filter (nil here).
func diagnosedStatus(fitError *framework.FitError, node string) interface {
	IsSuccess() bool
	Reasons() []string
} {
	if status, ok := fitError.Diagnosis.NodeToStatusMap[node]; ok && status != nil {
		return status
	}
	return nil
}

// draManager is what 1.31's plugin reads the cluster through, there being no
// DRA manager yet: the claims' assume cache kube-scheduler makes, and the
// informers' DeviceClass and ResourceSlice listers.
type draManager struct {
	claims  *assumecache.AssumeCache
	classes resourcelisters.DeviceClassLister
	slices  resourcelisters.ResourceSliceLister
}

// newDRAManager wires what kube-scheduler 1.31 wires for its DRA plugin; the
// listers are taken before the informers start, as the plugin takes them.
func newDRAManager(ctx context.Context, _ *fake.Clientset, factory informers.SharedInformerFactory) (draManager, func() bool, error) {
	resource := factory.Resource().V1alpha3()
	claimCache := assumecache.NewAssumeCache(klog.FromContext(ctx), resource.ResourceClaims().Informer(), "ResourceClaim", "", nil)
	claimsSynced := claimCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	manager := draManager{claims: claimCache, classes: resource.DeviceClasses().Lister(), slices: resource.ResourceSlices().Lister()}
	return manager, claimsSynced.HasSynced, nil
}

// allocatedClaims answers the allocator's ListAllAllocated from the assume
// cache, as the plugin's own lister does (the harness has no allocation in
// flight).
type allocatedClaims struct{ claims *assumecache.AssumeCache }

func (l allocatedClaims) ListAllAllocated() ([]*resourceClaim, error) {
	var allocated []*resourceClaim
	for _, obj := range l.claims.List(nil) {
		if claim := obj.(*resourceClaim); claim.Status.Allocation != nil {
			allocated = append(allocated, claim)
		}
	}
	return allocated, nil
}

// newAllocator builds the allocator as 1.31's PreFilter does, for the pod's
// claims, over the listers; its Allocate answers one *AllocationResult per
// claim (nil when they do not fit), handed on as values.
func (c *cluster) newAllocator(pending []*resourceClaim) (allocateFunc, error) {
	m := c.draManager
	allocator, err := structured.NewAllocator(c.ctx, pending, allocatedClaims{m.claims}, m.classes, m.slices)
	if err != nil {
		return nil, err
	}
	return func(node *v1.Node) ([]allocationResult, error) {
		allocations, err := allocator.Allocate(c.ctx, node)
		if err != nil || allocations == nil {
			return nil, err
		}
		results := make([]allocationResult, len(allocations))
		for i, allocation := range allocations {
			results[i] = *allocation
		}
		return results, nil
	}, nil
}

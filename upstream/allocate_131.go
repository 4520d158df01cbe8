//go:build k8s131

package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1alpha3"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// The allocator alone as 1.31's DynamicResources plugin drives it. 1.31's
// allocator reads the cluster itself, through listers: the allocated claims
// (the plugin hands it its own lister over the claims' assume cache), the
// DeviceClasses and the ResourceSlices (the informers' listers, v1alpha3).
// It is built per pod for the claims to allocate and asked node by node.

type allocateResult struct {
	Node   *string                      `json:"node"`
	Fits   bool                         `json:"fits"`
	Claims []*resourceapi.ResourceClaim `json:"claims"`
	Error  *string                      `json:"error"`
	Nodes  []allocateNode               `json:"nodes,omitempty"`
}

type allocateNode struct {
	Name  string  `json:"name"`
	Fits  bool    `json:"fits"`
	Error *string `json:"error"`
}

// allocatedClaims answers the allocator's ListAllAllocated from the assume
// cache, as the plugin's lister does (the harness has no allocation in flight).
type allocatedClaims struct{ claims *assumecache.AssumeCache }

func (l allocatedClaims) ListAllAllocated() ([]*resourceapi.ResourceClaim, error) {
	var allocated []*resourceapi.ResourceClaim
	for _, obj := range l.claims.List(nil) {
		if claim := obj.(*resourceapi.ResourceClaim); claim.Status.Allocation != nil {
			allocated = append(allocated, claim)
		}
	}
	return allocated, nil
}

func allocate(objects []object, nodeName *string) (*allocateResult, error) {
	var nodes []*v1.Node
	var pending []*resourceapi.ResourceClaim
	var stored []runtime.Object
	for _, obj := range objects {
		decoded, err := decodeServed(obj)
		if err != nil {
			return nil, fmt.Errorf("object %d (%s %s): %w", obj.Index, obj.Kind, obj.Name, err)
		}
		giveIdentity(decoded, obj)
		switch typed := decoded.(type) {
		case *v1.Node:
			nodes = append(nodes, typed)
		case *resourceapi.ResourceClaim:
			if typed.Status.Allocation == nil {
				pending = append(pending, typed)
			}
		}
		stored = append(stored, decoded)
	}
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), klog.Background()))
	client := fake.NewSimpleClientset(stored...)
	factory := informers.NewSharedInformerFactory(client, 0)
	defer func() { cancel(); factory.Shutdown() }()
	resource := factory.Resource().V1alpha3()
	claimCache := assumecache.NewAssumeCache(klog.FromContext(ctx), resource.ResourceClaims().Informer(), "ResourceClaim", "", nil)
	claimsSynced := claimCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	classes, slices := resource.DeviceClasses().Lister(), resource.ResourceSlices().Lister()
	factory.Start(ctx.Done())
	waitForCacheSync(ctx, factory)
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return claimsSynced.HasSynced(), nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the informers: %w", err)
	}
	allocator, err := structured.NewAllocator(ctx, pending, allocatedClaims{claimCache}, classes, slices)
	if err != nil {
		return &allocateResult{Node: nodeName, Claims: pending, Error: errorText(err)}, nil
	}
	if nodeName != nil {
		for _, node := range nodes {
			if node.Name == *nodeName {
				return allocateOn(ctx, allocator, node, pending), nil
			}
		}
		return nil, fmt.Errorf("node %q is not among the objects", *nodeName)
	}
	// No node given: every node is tried; the answer is the first that fits.
	result := &allocateResult{Claims: pending}
	for _, node := range nodes {
		onNode := allocateOn(ctx, allocator, node, pending)
		result.Nodes = append(result.Nodes, allocateNode{Name: node.Name, Fits: onNode.Fits, Error: onNode.Error})
		if onNode.Fits && !result.Fits {
			result.Node, result.Fits, result.Claims = onNode.Node, true, onNode.Claims
		}
	}
	for _, tried := range result.Nodes {
		if !result.Fits && tried.Error != nil {
			result.Error = tried.Error // the scheduler stops at the first error
			break
		}
	}
	return result, nil
}

// allocateOn asks the allocator for one node; 1.31's answer is one
// *AllocationResult per claim, or nil when the claims do not fit.
func allocateOn(ctx context.Context, allocator *structured.Allocator, node *v1.Node, pending []*resourceapi.ResourceClaim) *allocateResult {
	result := &allocateResult{Node: &node.Name, Claims: pending}
	allocations, err := allocator.Allocate(ctx, node)
	if err != nil {
		result.Error = errorText(err)
		return result
	}
	if allocations == nil {
		return result
	}
	result.Fits, result.Claims = true, nil
	for i, claim := range pending {
		claim = claim.DeepCopy()
		claim.Status.Allocation = allocations[i]
		result.Claims = append(result.Claims, claim)
	}
	return result
}

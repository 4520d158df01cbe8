//go:build k8s133 || k8s132

// What 1.32 and 1.33 share: their components read resource.k8s.io/v1beta1
// (v1 came in 1.34), and their plugin builds the allocator for the claims of
// one pod (buildAllocator, in each release's file) and asks it node by node.

package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1beta1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourceclient "k8s.io/client-go/kubernetes/typed/resource/v1beta1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/structured"
)

// readVersion: the components of 1.32 and 1.33 read resource.k8s.io/v1beta1,
// the core group in v1.
func readVersion(group string) string {
	if group == "resource.k8s.io" {
		return "v1beta1"
	}
	return "v1"
}

// resourceClaim and allocationResult are in the version these releases'
// components read (v1beta1).
type (
	resourceClaim    = resourceapi.ResourceClaim
	allocationResult = resourceapi.AllocationResult
)

// claimInformer is the informer the scheduler's claim assume cache watches.
func claimInformer(factory informers.SharedInformerFactory) cache.SharedIndexInformer {
	return factory.Resource().V1beta1().ResourceClaims().Informer()
}

// claimsAPI is the fake apiserver's ResourceClaim client in v1beta1.
func claimsAPI(client *fake.Clientset) resourceclient.ResourceClaimsGetter {
	return client.ResourceV1beta1()
}

// newAllocator builds the allocator as the PreFilter of 1.32 and 1.33 does,
// for the pod's claims: devices in use gathered from the DRA manager's claims,
// then the release's NewAllocator (buildAllocator).
func (c *cluster) newAllocator(pending []*resourceClaim) (allocateFunc, error) {
	var allocated sets.Set[structured.DeviceID]
	err := wait.PollUntilContextTimeout(c.ctx, time.Microsecond, 5*time.Second, true, func(context.Context) (bool, error) {
		devices, err := c.draManager.ResourceClaims().ListAllAllocatedDevices()
		allocated = devices
		return err == nil, nil
	})
	if err != nil {
		return nil, fmt.Errorf("gather allocation state: %w", err)
	}
	allocator, err := c.buildAllocator(pending, allocated)
	if err != nil {
		return nil, err
	}
	return func(node *v1.Node) ([]allocationResult, error) {
		return allocator.Allocate(c.ctx, node)
	}, nil
}

//go:build !k8s133 && !k8s132 && !k8s131

// What 1.34 and later share: the components read resource.k8s.io/v1, the
// ResourceSlice tracker counts consumable capacity, and the plugin builds one
// allocator for every pod from the gathered allocated state.

package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourceclient "k8s.io/client-go/kubernetes/typed/resource/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/cel"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"

	"k8s.io/kubernetes/pkg/features"
)

// readVersion is the version of an API group the components read: v1 for
// core and, from 1.34 on, for resource.k8s.io.
func readVersion(string) string {
	return "v1"
}

// resourceClaim and allocationResult are in the version the components read.
type (
	resourceClaim    = resourceapi.ResourceClaim
	allocationResult = resourceapi.AllocationResult
)

// claimInformer is the informer the scheduler's claim assume cache watches.
func claimInformer(factory informers.SharedInformerFactory) cache.SharedIndexInformer {
	return factory.Resource().V1().ResourceClaims().Informer()
}

// claimsAPI is the fake apiserver's ResourceClaim client in v1.
func claimsAPI(client *fake.Clientset) resourceclient.ResourceClaimsGetter {
	return client.ResourceV1()
}

// extendedResourceClaim is the claim the scheduler made for the pod's
// extended resources, recorded in the pod's status.
func extendedResourceClaim(pod *v1.Pod) *string {
	if pod.Status.ExtendedResourceClaimStatus == nil {
		return nil
	}
	return &pod.Status.ExtendedResourceClaimStatus.ResourceClaimName
}

// sliceTrackerOptions are the ResourceSlice tracker's options as kube-scheduler
// sets them; how DeviceTaintRules are watched is the release's
// (watchDeviceTaintRules).
func sliceTrackerOptions(client *fake.Clientset, factory informers.SharedInformerFactory) resourceslicetracker.Options {
	options := resourceslicetracker.Options{
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	}
	watchDeviceTaintRules(&options, factory)
	return options
}

// newAllocator builds the allocator as the plugin's PreFilter does: devices
// in use gathered by the DRA manager's claim tracker, slices with
// DeviceTaintRules applied, the plugin's allocator features from the gates.
func (c *cluster) newAllocator(pending []*resourceClaim) (allocateFunc, error) {
	allocatorFeatures, celFeatures := pluginFeatures()
	claims := c.draManager.ResourceClaims()
	var state *structured.AllocatedState
	err := wait.PollUntilContextTimeout(c.ctx, time.Microsecond, 5*time.Second, true, func(ctx context.Context) (bool, error) {
		if allocatorFeatures.ConsumableCapacity {
			gathered, err := claims.GatherAllocatedState()
			if err != nil {
				return false, nil
			}
			state = gathered
			return true, nil
		}
		devices, err := claims.ListAllAllocatedDevices()
		if err != nil {
			return false, nil
		}
		state = &structured.AllocatedState{
			AllocatedDevices:         devices,
			AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
			AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("gather allocation state: %w", err)
	}
	slices, err := c.draManager.ResourceSlices().ListWithDeviceTaintRules()
	if err != nil {
		return nil, err
	}
	celCache := cel.NewCache(10, celFeatures)
	allocator, err := structured.NewAllocator(c.ctx, allocatorFeatures, *state, c.draManager.DeviceClasses(), slices, celCache)
	if err != nil {
		return nil, err
	}
	return func(node *v1.Node) ([]allocationResult, error) {
		return allocator.Allocate(c.ctx, node, pending)
	}, nil
}

//go:build k8s133 || k8s132

// What 1.32 and 1.33 share: their components read resource.k8s.io/v1beta1
// (v1 came in 1.34), their scheduler framework's interfaces still lived in
// k8s.io/kubernetes, and their plugin builds the allocator for the claims of
// one pod (newAllocator, in each release's file) and asks it node by node.

package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/structured"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
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

// listClaims lists every ResourceClaim of the fake apiserver.
func listClaims(client *fake.Clientset) ([]*resourceClaim, error) {
	list, err := client.ResourceV1beta1().ResourceClaims("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	claims := make([]*resourceClaim, 0, len(list.Items))
	for i := range list.Items {
		claims = append(claims, &list.Items[i])
	}
	return claims, nil
}

// extendedResourceClaim: these schedulers make no claims for extended
// resources (DRAExtendedResource came in 1.34).
func extendedResourceClaim(*v1.Pod) *string {
	return nil
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

// recordSchedulePod: the scheduler of these releases passes the pod and a
// *CycleState.
func recordSchedulePod(sched *scheduler.Scheduler, record func(error)) {
	schedulePod := sched.SchedulePod
	sched.SchedulePod = func(ctx context.Context, profile framework.Framework, state *framework.CycleState, pod *v1.Pod) (scheduler.ScheduleResult, error) {
		result, err := schedulePod(ctx, profile, state, pod)
		record(err)
		return result, err
	}
}

// fakeRecorder gives the scheduler's profiles an event recorder that keeps
// the events in memory.
func fakeRecorder(string) events.EventRecorder {
	return events.NewFakeRecorder(100)
}

//go:build k8s133 || k8s132

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/events"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// readVersion: the components of 1.32 and 1.33 read resource.k8s.io/v1beta1
// (v1 came in 1.34), the core group in v1.
func readVersion(group string) string {
	if group == "resource.k8s.io" {
		return "v1beta1"
	}
	return "v1"
}

// resourceClaim is a ResourceClaim as these releases' components read it (v1beta1).
type resourceClaim = resourceapi.ResourceClaim

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

// recordSchedulePod: the scheduler of these releases passes the pod and a
// *CycleState (its framework interfaces still lived in k8s.io/kubernetes).
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

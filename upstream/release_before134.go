//go:build k8s133 || k8s132 || k8s131

// What 1.31 to 1.33 share: their scheduler framework's interfaces still lived
// in k8s.io/kubernetes (SchedulePod takes a *CycleState, the profiles an
// events.EventRecorder), and their scheduler makes no claims for extended
// resources.

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// extendedResourceClaim: these schedulers make no claims for extended
// resources (DRAExtendedResource came in 1.34).
func extendedResourceClaim(*v1.Pod) *string {
	return nil
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

//go:build k8s135

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// newClaimController is built as kube-controller-manager 1.35 builds it.
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	gate := utilfeature.DefaultFeatureGate
	return resourceclaim.NewController(klog.FromContext(ctx), resourceclaim.Features{
		AdminAccess:     gate.Enabled(features.DRAAdminAccess),
		PrioritizedList: gate.Enabled(features.DRAPrioritizedList),
	}, client, factory.Core().V1().Pods(),
		factory.Resource().V1().ResourceClaims(), factory.Resource().V1().ResourceClaimTemplates())
}

func recordSchedulePod(sched *scheduler.Scheduler, record func(error)) {
	schedulePod := sched.SchedulePod
	sched.SchedulePod = func(ctx context.Context, profile framework.Framework, state fwk.CycleState, pod *v1.Pod) (scheduler.ScheduleResult, error) {
		result, err := schedulePod(ctx, profile, state, pod)
		record(err)
		return result, err
	}
}

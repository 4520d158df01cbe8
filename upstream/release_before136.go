//go:build k8s135 || k8s134

// What 1.34 and 1.35 share: the resource-claim controller without PodGroups,
// the ResourceClaim strategy without an authorizer, a SchedulePod that takes
// the pod, and an events.EventRecorder for the profiles.

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// newClaimController is built as kube-controller-manager 1.34 and 1.35 build
// it (no PodGroup informer yet).
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	gate := utilfeature.DefaultFeatureGate
	return resourceclaim.NewController(klog.FromContext(ctx), resourceclaim.Features{
		AdminAccess:     gate.Enabled(features.DRAAdminAccess),
		PrioritizedList: gate.Enabled(features.DRAPrioritizedList),
	}, client, factory.Core().V1().Pods(),
		factory.Resource().V1().ResourceClaims(), factory.Resource().V1().ResourceClaimTemplates())
}

// recordSchedulePod: the scheduler of these releases passes the pod itself.
func recordSchedulePod(sched *scheduler.Scheduler, record func(error)) {
	schedulePod := sched.SchedulePod
	sched.SchedulePod = func(ctx context.Context, profile framework.Framework, state fwk.CycleState, pod *v1.Pod) (scheduler.ScheduleResult, error) {
		result, err := schedulePod(ctx, profile, state, pod)
		record(err)
		return result, err
	}
}

// claimStrategy is the ResourceClaim registry strategy of these releases
// (no authorizer yet).
func claimStrategy(namespaces corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return claimregistry.NewStrategy(namespaces)
}

// fakeRecorder gives the scheduler's profiles an event recorder that keeps
// the events in memory.
func fakeRecorder(string) events.EventRecorder {
	return events.NewFakeRecorder(100)
}

//go:build k8s131

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1alpha3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// What 1.31 has of its own: structured parameters are alpha and read in
// resource.k8s.io/v1alpha3, the resource-claim controller still watches
// PodSchedulingContexts (classic DRA), the strategies are plain values, and
// the scheduler's diagnosis is a NodeToStatusMap. The allocator is in
// allocate_131.go.

// readVersion: 1.31's components read resource.k8s.io/v1alpha3.
func readVersion(group string) string {
	if group == "resource.k8s.io" {
		return "v1alpha3"
	}
	return "v1"
}

// resourceClaim is a ResourceClaim as 1.31's components read it (v1alpha3).
type resourceClaim = resourceapi.ResourceClaim

// listClaims lists every ResourceClaim of the fake apiserver.
func listClaims(client *fake.Clientset) ([]*resourceClaim, error) {
	list, err := client.ResourceV1alpha3().ResourceClaims("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	claims := make([]*resourceClaim, 0, len(list.Items))
	for i := range list.Items {
		claims = append(claims, &list.Items[i])
	}
	return claims, nil
}

// extendedResourceClaim: 1.31's scheduler makes no claims for extended resources.
func extendedResourceClaim(*v1.Pod) *string {
	return nil
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

// recordSchedulePod: 1.31's scheduler passes the pod and a *CycleState.
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

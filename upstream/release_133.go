//go:build k8s133

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
	claimregistry "k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// readVersion: the components of 1.33 read resource.k8s.io/v1beta1 (its v1
// came in 1.34), the core group in v1.
func readVersion(group string) string {
	if group == "resource.k8s.io" {
		return "v1beta1"
	}
	return "v1"
}

// modeBuilt: every mode is built for 1.33.
func modeBuilt(string) error {
	return nil
}

// claimStrategy is 1.33's ResourceClaim registry strategy (no authorizer yet).
func claimStrategy(namespaces corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return claimregistry.NewStrategy(namespaces)
}

// resourceClaim is a ResourceClaim as 1.33's components read it (v1beta1).
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

// extendedResourceClaim: 1.33's scheduler makes no claims for extended
// resources (DRAExtendedResource came in 1.34).
func extendedResourceClaim(*v1.Pod) *string {
	return nil
}

// newClaimController is built as kube-controller-manager 1.33 builds it: the
// claims and templates read in v1beta1.
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	gate := utilfeature.DefaultFeatureGate
	return resourceclaim.NewController(klog.FromContext(ctx), resourceclaim.Features{
		AdminAccess:     gate.Enabled(features.DRAAdminAccess),
		PrioritizedList: gate.Enabled(features.DRAPrioritizedList),
	}, client, factory.Core().V1().Pods(),
		factory.Resource().V1beta1().ResourceClaims(), factory.Resource().V1beta1().ResourceClaimTemplates())
}

// recordSchedulePod: 1.33's scheduler passes the pod and a *CycleState (its
// framework interfaces still lived in k8s.io/kubernetes).
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

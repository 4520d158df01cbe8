//go:build !k8s135 && !k8s134 && !k8s133 && !k8s132 && !k8s131

// What 1.36 and later share: the plugin's CEL features with list-type
// attributes, the ResourceClaim strategy with an authorizer, the scheduler's
// SchedulePod over a QueuedPodInfo and kube-scheduler/framework's CycleState.

package main

import (
	"context"

	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	fwk "k8s.io/kube-scheduler/framework"

	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
)

// pluginFeatures are the allocator's and the CEL compiler's features as the
// DynamicResources plugin derives them from the gates.
func pluginFeatures() (structured.Features, cel.Features) {
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	return dynamicresources.AllocatorFeatures(fts), cel.Features{
		EnableConsumableCapacity: fts.EnableDRAConsumableCapacity,
		EnableListTypeAttributes: fts.EnableDRAListTypeAttributes,
	}
}

// claimStrategy is the ResourceClaim registry strategy; its authorizer checks
// the granular status permissions, which a create does not reach.
func claimStrategy(namespaces corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return resourceclaim.NewStrategy(namespaces, authorizerfactory.NewAlwaysAllowAuthorizer())
}

// fakeRecorder gives the scheduler's profiles an event recorder that keeps
// the events in memory.
func fakeRecorder(string) events.EventRecorderLogger {
	return events.NewFakeRecorder(100)
}

// recordSchedulePod passes every result of the scheduler's schedulePod to record.
func recordSchedulePod(sched *scheduler.Scheduler, record func(error)) {
	schedulePod := sched.SchedulePod
	sched.SchedulePod = func(ctx context.Context, profile framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		result, err := schedulePod(ctx, profile, state, podInfo)
		record(err)
		return result, err
	}
}

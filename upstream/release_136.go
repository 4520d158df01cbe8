//go:build k8s136

package main

import (
	"context"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// newClaimController is built as kube-controller-manager 1.36 builds it.
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	gate := utilfeature.DefaultFeatureGate
	return resourceclaim.NewController(klog.FromContext(ctx), resourceclaim.Features{
		AdminAccess:            gate.Enabled(features.DRAAdminAccess),
		PrioritizedList:        gate.Enabled(features.DRAPrioritizedList),
		WorkloadResourceClaims: gate.Enabled(features.DRAWorkloadResourceClaims),
	}, client, factory.Core().V1().Pods(), factory.Scheduling().V1alpha2().PodGroups(),
		factory.Resource().V1().ResourceClaims(), factory.Resource().V1().ResourceClaimTemplates())
}

func recordSchedulePod(sched *scheduler.Scheduler, record func(error)) {
	schedulePod := sched.SchedulePod
	sched.SchedulePod = func(ctx context.Context, profile framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		result, err := schedulePod(ctx, profile, state, podInfo)
		record(err)
		return result, err
	}
}

// sliceTrackerOptions are the ResourceSlice tracker's options as kube-scheduler 1.36
// sets them: DeviceTaintRules from resource.k8s.io/v1beta2, DeviceClasses beside.
func sliceTrackerOptions(client *fake.Clientset, factory informers.SharedInformerFactory) resourceslicetracker.Options {
	options := resourceslicetracker.Options{
		EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	}
	if options.EnableDeviceTaintRules {
		options.TaintInformer = factory.Resource().V1beta2().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1().DeviceClasses()
	}
	return options
}

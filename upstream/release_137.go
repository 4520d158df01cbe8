//go:build !k8s136 && !k8s135 && !k8s134 && !k8s133 && !k8s132 && !k8s131

// What differs between releases lives in the release_*.go files, one build
// tag per release (k8s136 for 1.36, k8s135, k8s134, k8s133); this file is the
// current release's. Files named since/before a release hold what several share.

package main

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
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

// validateCreate is the registry's create validation: the strategy's, the
// common metadata checks, declarative validation.
func validateCreate(ctx context.Context, obj runtime.Object, strategy rest.RESTCreateStrategy, _ metav1.Object) field.ErrorList {
	return rest.ValidateCreate(ctx, obj, strategy)
}

func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	return resourceclaim.NewController(klog.FromContext(ctx), client,
		factory.Core().V1().Pods(), factory.Scheduling().V1beta1().PodGroups(),
		factory.Resource().V1().ResourceClaims(), factory.Resource().V1().ResourceClaimTemplates())
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

// sliceTrackerOptions are the ResourceSlice tracker's options as kube-scheduler sets them.
func sliceTrackerOptions(client *fake.Clientset, factory informers.SharedInformerFactory) resourceslicetracker.Options {
	options := resourceslicetracker.Options{
		EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	}
	if options.EnableDeviceTaintRules {
		options.TaintInformer = factory.Resource().V1().DeviceTaintRules()
	}
	return options
}

//go:build k8s136

// Release 1.36 (k8s.io/kubernetes v1.36.x): the resource-claim controller's
// Features and PodGroups of scheduling/v1alpha2; DeviceTaintRules in v1beta2.

package main

import (
	"context"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
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

// watchDeviceTaintRules: kube-scheduler 1.36's tracker applies DeviceTaintRules
// (resource.k8s.io/v1beta2) under DRADeviceTaintRules, with DeviceClasses beside.
func watchDeviceTaintRules(options *resourceslicetracker.Options, factory informers.SharedInformerFactory) {
	options.EnableDeviceTaintRules = utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules)
	if options.EnableDeviceTaintRules {
		options.TaintInformer = factory.Resource().V1beta2().DeviceTaintRules()
		options.ClassInformer = factory.Resource().V1().DeviceClasses()
	}
}

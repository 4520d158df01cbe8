//go:build !k8s136 && !k8s135 && !k8s134 && !k8s133 && !k8s132 && !k8s131

// Release 1.37 (k8s.io/kubernetes v1.37.x), the current one, built without a
// tag. What differs between releases lives in the release_*.go files, one
// build tag per release (k8s136 for 1.36, ..., k8s132); files named
// since/before a release hold what several share.

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

	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/features"
)

// validateCreate is the registry's create validation: the strategy's, the
// common metadata checks, declarative validation.
func validateCreate(ctx context.Context, obj runtime.Object, strategy rest.RESTCreateStrategy, _ metav1.Object) field.ErrorList {
	return rest.ValidateCreate(ctx, obj, strategy)
}

// newClaimController is built as kube-controller-manager 1.37 builds it.
func newClaimController(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (*resourceclaim.Controller, error) {
	return resourceclaim.NewController(klog.FromContext(ctx), client,
		factory.Core().V1().Pods(), factory.Scheduling().V1beta1().PodGroups(),
		factory.Resource().V1().ResourceClaims(), factory.Resource().V1().ResourceClaimTemplates())
}

// watchDeviceTaintRules: kube-scheduler 1.37's tracker applies DeviceTaintRules
// (resource.k8s.io/v1) under DRADeviceTaintRules.
func watchDeviceTaintRules(options *resourceslicetracker.Options, factory informers.SharedInformerFactory) {
	options.EnableDeviceTaintRules = utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules)
	if options.EnableDeviceTaintRules {
		options.TaintInformer = factory.Resource().V1().DeviceTaintRules()
	}
}

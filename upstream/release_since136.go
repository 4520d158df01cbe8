//go:build !k8s135 && !k8s134 && !k8s133 && !k8s132 && !k8s131

package main

import (
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
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

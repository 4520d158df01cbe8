//go:build !k8s134 && !k8s133 && !k8s132 && !k8s131

// What 1.35 and later share: the extended-resource cache of
// dynamic-resource-allocation, fed with DeviceClasses.

package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"

	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
)

// watchExtendedResourceClasses feeds DeviceClasses to the DRA manager's
// extended-resource cache, as the scheduler's event handlers do when
// DRAExtendedResource is on; it returns whether that handler has synced.
func watchExtendedResourceClasses(manager *dynamicresources.DefaultDRAManager, factory informers.SharedInformerFactory) func() bool {
	if !utilfeature.DefaultFeatureGate.Enabled(features.DRAExtendedResource) {
		return func() bool { return true }
	}
	resolver := manager.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache)
	registration, err := factory.Resource().V1().DeviceClasses().Informer().AddEventHandler(resolver)
	if err != nil {
		panic(err)
	}
	return registration.HasSynced
}

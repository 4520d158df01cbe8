//go:build !k8s132 && !k8s131

// What 1.33 and later share: DeviceTaintRules, the ResourceSlice tracker the
// scheduler's DRA manager reads slices through, and the template strategy
// that reads the namespace.

package main

import (
	"context"
	"fmt"

	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// templateStrategy is the ResourceClaimTemplate registry strategy (it reads
// the namespace for admin access from 1.33 on).
func templateStrategy(namespaces corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return resourceclaimtemplate.NewStrategy(namespaces)
}

// taintRuleStrategy is the DeviceTaintRule registry strategy (DeviceTaintRules
// came in 1.33).
func taintRuleStrategy() rest.RESTCreateStrategy {
	return devicetaintrule.Strategy
}

// newDRAManager wires what kube-scheduler wires for its DRA plugin: the
// ResourceSlice tracker (applying DeviceTaintRules when they are on), the
// claims in an assume cache, the DRA manager over both, and, from 1.35 on,
// its extended-resource cache fed with DeviceClasses. synced says when all of
// them have seen the initial objects.
func newDRAManager(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (manager *dynamicresources.DefaultDRAManager, synced func() bool, err error) {
	tracker, err := resourceslicetracker.StartTracker(ctx, sliceTrackerOptions(client, factory))
	if err != nil {
		return nil, nil, fmt.Errorf("starting the ResourceSlice tracker: %w", err)
	}
	claimCache := assumecache.NewAssumeCache(klog.FromContext(ctx), claimInformer(factory), "ResourceClaim", "", nil)
	claimsSynced := claimCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	manager = dynamicresources.NewDRAManager(ctx, claimCache, tracker, factory)
	classesSynced := watchExtendedResourceClasses(manager, factory)
	return manager, func() bool {
		return tracker.HasSynced() && claimsSynced.HasSynced() && classesSynced()
	}, nil
}

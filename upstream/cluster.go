//go:build !k8s133 && !k8s132 && !k8s131

package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// cluster is what the scheduler sees: the objects in a fake clientset, its
// informers, and the scheduler's DRA manager over them (claims in an assume
// cache, slices through the ResourceSlice tracker that applies
// DeviceTaintRules), wired as kube-scheduler wires them.
type cluster struct {
	ctx        context.Context
	cancel     context.CancelFunc
	client     *fake.Clientset
	informers  informers.SharedInformerFactory
	draManager *dynamicresources.DefaultDRAManager
	nodes      []*v1.Node
	pods       []*v1.Pod
	claims     []*resourceapi.ResourceClaim
	templates  []*resourceapi.ResourceClaimTemplate
}

// newCluster decodes every object into the version the scheduler reads
// (core/v1, resource.k8s.io/v1), with the apiserver's defaults.
func newCluster(objects []object) (*cluster, error) {
	c := &cluster{}
	var stored []runtime.Object
	for _, obj := range objects {
		decoded, err := decodeServed(obj)
		if err != nil {
			return nil, fmt.Errorf("object %d (%s %s): %w", obj.Index, obj.Kind, obj.Name, err)
		}
		giveIdentity(decoded, obj)
		switch typed := decoded.(type) {
		case *v1.Node:
			c.nodes = append(c.nodes, typed)
		case *v1.Pod:
			c.pods = append(c.pods, typed)
		case *resourceapi.ResourceClaim:
			c.claims = append(c.claims, typed)
		case *resourceapi.ResourceClaimTemplate:
			c.templates = append(c.templates, typed)
		}
		stored = append(stored, decoded)
	}

	c.ctx, c.cancel = context.WithCancel(klog.NewContext(context.Background(), klog.Background()))
	c.client = fake.NewSimpleClientset(stored...)
	c.informers = informers.NewSharedInformerFactory(c.client, 0)

	trackerOptions := sliceTrackerOptions(c.client, c.informers)
	tracker, err := resourceslicetracker.StartTracker(c.ctx, trackerOptions)
	if err != nil {
		c.cancel()
		return nil, fmt.Errorf("starting the ResourceSlice tracker: %w", err)
	}
	claimCache := assumecache.NewAssumeCache(klog.FromContext(c.ctx), c.informers.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	claimsSynced := claimCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	c.draManager = dynamicresources.NewDRAManager(c.ctx, claimCache, tracker, c.informers)
	classesSynced := watchExtendedResourceClasses(c.draManager, c.informers)

	c.informers.Start(c.ctx.Done())
	waitForCacheSync(c.ctx, c.informers)
	err = wait.PollUntilContextTimeout(c.ctx, time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return tracker.HasSynced() && claimsSynced.HasSynced() && classesSynced(), nil
	})
	if err != nil {
		c.close()
		return nil, fmt.Errorf("waiting for the informers: %w", err)
	}
	return c, nil
}

func (c *cluster) close() {
	c.cancel()
	c.informers.Shutdown()
}

func (c *cluster) node(name string) *v1.Node {
	for _, node := range c.nodes {
		if node.Name == name {
			return node
		}
	}
	return nil
}

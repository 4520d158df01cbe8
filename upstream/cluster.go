// What the scheduler's DRA plugin sees, for every release: the objects in a
// fake clientset, its informers and the release's DRA manager over them (in
// 1.31, which has none, the claims' assume cache and the informers' listers).

package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
)

// cluster holds the objects as the scheduler reads them and the DRA manager
// (claims in an assume cache, slices through the ResourceSlice tracker from
// 1.33 on), wired as the release's kube-scheduler wires them (draManager and
// newDRAManager, in the release files).
type cluster struct {
	ctx        context.Context
	cancel     context.CancelFunc
	client     *fake.Clientset
	informers  informers.SharedInformerFactory
	draManager draManager
	nodes      []*v1.Node
	claims     []*resourceClaim
}

// newCluster decodes every object into the version the scheduler reads, with
// the apiserver's defaults, and returns once the informers have synced.
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
		case *resourceClaim:
			c.claims = append(c.claims, typed)
		}
		stored = append(stored, decoded)
	}

	c.ctx, c.cancel = context.WithCancel(klog.NewContext(context.Background(), klog.Background()))
	c.client = fake.NewSimpleClientset(stored...)
	c.informers = informers.NewSharedInformerFactory(c.client, 0)
	manager, synced, err := newDRAManager(c.ctx, c.client, c.informers)
	if err != nil {
		c.cancel()
		return nil, err
	}
	c.draManager = manager
	c.informers.Start(c.ctx.Done())
	waitForCacheSync(c.ctx, c.informers)
	err = wait.PollUntilContextTimeout(c.ctx, time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return synced(), nil
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

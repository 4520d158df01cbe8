//go:build !k8s133 && !k8s132 && !k8s131

package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
)

type allocateResult struct {
	Node   *string                      `json:"node"`
	Fits   bool                         `json:"fits"`
	Claims []*resourceapi.ResourceClaim `json:"claims"`
	Error  *string                      `json:"error"`
	// Nodes holds every node tried when no node was given, in input order.
	Nodes []allocateNode `json:"nodes,omitempty"`
}

type allocateNode struct {
	Name  string  `json:"name"`
	Fits  bool    `json:"fits"`
	Error *string `json:"error"`
}

// allocate runs the structured allocator the scheduler's plugin builds, with
// the features the release's gates select, on the claims without
// status.allocation, together, as for one pod. Allocated claims mark their
// devices as in use, counted by the plugin's own claim tracker.
func allocate(objects []object, nodeName *string) (*allocateResult, error) {
	c, err := newCluster(objects)
	if err != nil {
		return nil, err
	}
	defer c.close()

	var pending []*resourceapi.ResourceClaim
	for _, claim := range c.claims {
		if claim.Status.Allocation == nil {
			pending = append(pending, claim)
		}
	}
	allocator, err := c.newAllocator()
	if err != nil {
		return &allocateResult{Node: nodeName, Claims: pending, Error: errorText(err)}, nil
	}
	if nodeName != nil {
		node := c.node(*nodeName)
		if node == nil {
			return nil, fmt.Errorf("node %q is not among the objects", *nodeName)
		}
		return c.allocateOn(allocator, node, pending), nil
	}
	// No node given: every node is tried; the answer is the first that fits.
	result := &allocateResult{Claims: pending}
	for _, node := range c.nodes {
		onNode := c.allocateOn(allocator, node, pending)
		result.Nodes = append(result.Nodes, allocateNode{Name: node.Name, Fits: onNode.Fits, Error: onNode.Error})
		if onNode.Fits && !result.Fits {
			result.Node, result.Fits, result.Claims = onNode.Node, true, onNode.Claims
		}
	}
	if !result.Fits {
		// The scheduler stops at the first error: it is the answer then.
		for _, tried := range result.Nodes {
			if tried.Error != nil {
				result.Error = tried.Error
				break
			}
		}
	}
	return result, nil
}

func (c *cluster) allocateOn(allocator structured.Allocator, node *v1.Node, pending []*resourceapi.ResourceClaim) *allocateResult {
	result := &allocateResult{Node: &node.Name, Claims: pending}
	allocations, err := allocator.Allocate(c.ctx, node, pending)
	if err != nil {
		result.Error = errorText(err)
		return result
	}
	if allocations == nil {
		return result
	}
	result.Fits = true
	result.Claims = nil
	for i, claim := range pending {
		claim = claim.DeepCopy()
		claim.Status.Allocation = &allocations[i]
		result.Claims = append(result.Claims, claim)
	}
	return result
}

// newAllocator builds the allocator as the plugin's PreFilter does: devices
// in use gathered by the DRA manager's claim tracker, slices with
// DeviceTaintRules applied, the plugin's allocator features from the gates.
func (c *cluster) newAllocator() (structured.Allocator, error) {
	allocatorFeatures, celFeatures := pluginFeatures()
	claims := c.draManager.ResourceClaims()
	var state *structured.AllocatedState
	err := wait.PollUntilContextTimeout(c.ctx, time.Microsecond, 5*time.Second, true, func(ctx context.Context) (bool, error) {
		if allocatorFeatures.ConsumableCapacity {
			gathered, err := claims.GatherAllocatedState()
			if err != nil {
				return false, nil
			}
			state = gathered
			return true, nil
		}
		devices, err := claims.ListAllAllocatedDevices()
		if err != nil {
			return false, nil
		}
		state = &structured.AllocatedState{
			AllocatedDevices:         devices,
			AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
			AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("gather allocation state: %w", err)
	}
	slices, err := c.draManager.ResourceSlices().ListWithDeviceTaintRules()
	if err != nil {
		return nil, err
	}
	celCache := cel.NewCache(10, celFeatures)
	return structured.NewAllocator(c.ctx, allocatorFeatures, *state, c.draManager.DeviceClasses(), slices, celCache)
}

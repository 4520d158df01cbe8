// The allocator-only mode, for every release: the structured allocator the
// DynamicResources plugin builds (newAllocator, in the release files), asked
// node by node.

package main

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
)

type allocateResult struct {
	Node   *string          `json:"node"`
	Fits   bool             `json:"fits"`
	Claims []*resourceClaim `json:"claims"`
	Error  *string          `json:"error"`
	// Nodes holds every node tried when no node was given, in input order.
	Nodes []allocateNode `json:"nodes,omitempty"`
}

type allocateNode struct {
	Name  string  `json:"name"`
	Fits  bool    `json:"fits"`
	Error *string `json:"error"`
}

// allocateFunc allocates the pending claims together on one node: one result
// per claim, nil when they do not fit there.
type allocateFunc func(node *v1.Node) ([]allocationResult, error)

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

	var pending []*resourceClaim
	for _, claim := range c.claims {
		if claim.Status.Allocation == nil {
			pending = append(pending, claim)
		}
	}
	allocateOn, err := c.newAllocator(pending)
	if err != nil {
		return &allocateResult{Node: nodeName, Claims: pending, Error: errorText(err)}, nil
	}
	if nodeName != nil {
		node := c.node(*nodeName)
		if node == nil {
			return nil, fmt.Errorf("node %q is not among the objects", *nodeName)
		}
		return onNode(allocateOn, node, pending), nil
	}
	// No node given: every node is tried; the answer is the first that fits.
	result := &allocateResult{Claims: pending}
	for _, node := range c.nodes {
		tried := onNode(allocateOn, node, pending)
		result.Nodes = append(result.Nodes, allocateNode{Name: node.Name, Fits: tried.Fits, Error: tried.Error})
		if tried.Fits && !result.Fits {
			result.Node, result.Fits, result.Claims = tried.Node, true, tried.Claims
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

// onNode answers for one node: the claims with their allocation when they fit.
func onNode(allocateOn allocateFunc, node *v1.Node, pending []*resourceClaim) *allocateResult {
	result := &allocateResult{Node: &node.Name, Claims: pending}
	allocations, err := allocateOn(node)
	if err != nil {
		result.Error = errorText(err)
		return result
	}
	if allocations == nil {
		return result
	}
	result.Fits, result.Claims = true, nil
	for i, claim := range pending {
		claim = claim.DeepCopy()
		claim.Status.Allocation = &allocations[i]
		result.Claims = append(result.Claims, claim)
	}
	return result
}

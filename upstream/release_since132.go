//go:build !k8s131

// What 1.32 and later share: the scheduler's DRA manager, which the plugin
// reads the cluster through, and a diagnosis that answers for every node.

package main

import (
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
)

// draManager is what the allocator-only mode reads the cluster through
// (cluster.go): the DRA manager kube-scheduler builds (newDRAManager).
type draManager = *dynamicresources.DefaultDRAManager

// diagnosedStatus is a node's status in the scheduler's diagnosis (from 1.32
// on a NodeToStatus, which answers for absent nodes too).
func diagnosedStatus(fitError *framework.FitError, node string) interface {
	IsSuccess() bool
	Reasons() []string
} {
	if status := fitError.Diagnosis.NodeToStatus.Get(node); status != nil {
		return status
	}
	return nil
}

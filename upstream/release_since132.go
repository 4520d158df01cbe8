//go:build !k8s131

package main

import "k8s.io/kubernetes/pkg/scheduler/framework"

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

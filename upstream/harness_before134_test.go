//go:build k8s133 || k8s132

// Go tests of 1.32 and 1.33. These releases have no resource.k8s.io/v1 and
// DRA off by default: the tests write v1beta1 and turn DRA on, as the
// components would be started with --feature-gates=DynamicResourceAllocation=true.
// go test -modfile=modfiles/1.33.mod -tags=k8s133 . (or 1.32, -tags=k8s132)

package main

import (
	"strings"
	"testing"
)

func TestBefore134SchedulesATemplatePodWhereTheDeviceIs(t *testing.T) {
	withDRA(t)
	resp := run(t, inventoryV1beta1+templateAndPod("v1beta1", "device.attributes['gpu.example.com'].memory > 32"), "schedule")
	got := resp.Schedule
	if got.Node == nil || *got.Node != "node-b" {
		t.Fatalf("bound to %v, want node-b (message %v)", got.Node, got.Message)
	}
	if len(got.Claims) != 1 || got.Claims[0].Status.Allocation == nil {
		t.Fatalf("claims after the cycle: %+v", got.Claims)
	}
	claim := got.Claims[0]
	if got.Names["gpu"] != claim.Name || !strings.HasPrefix(claim.Name, "trainer-gpu-") {
		t.Errorf("names %v, claim %q", got.Names, claim.Name)
	}
	if device := claim.Status.Allocation.Devices.Results[0].Device; device != "gpu-1" {
		t.Errorf("allocated %s, want gpu-1", device)
	}
	if len(claim.Status.ReservedFor) != 1 || claim.Status.ReservedFor[0].Name != "trainer" {
		t.Errorf("reservedFor %+v", claim.Status.ReservedFor)
	}
}

func TestBefore134RefusesAPodNoNodeCanServe(t *testing.T) {
	withDRA(t)
	resp := run(t, inventoryV1beta1+templateAndPod("v1beta1", "device.attributes['gpu.example.com'].memory > 100"), "schedule")
	got := resp.Schedule
	if got.Node != nil || got.Message == nil || !strings.HasPrefix(*got.Message, "0/2 nodes are available: 2 cannot allocate all claims.") {
		t.Fatalf("node %v, message %v", got.Node, got.Message)
	}
	for _, node := range got.Nodes {
		if node.Fits == nil || *node.Fits || node.Reason == nil || *node.Reason != "cannot allocate all claims" {
			t.Errorf("node %s: fits %v, reason %v", node.Name, node.Fits, node.Reason)
		}
	}
}

func TestBefore134AllocatesAClaimAndRefusesAV1One(t *testing.T) {
	withDRA(t)
	resp := run(t, inventoryV1beta1+claimV1beta1, "create", "allocate")
	noCreateErrors(t, resp)
	if !resp.Allocate.Fits || len(resp.Allocate.Claims) != 1 {
		t.Fatalf("allocate: %+v", resp.Allocate)
	}
	v1 := run(t, strings.ReplaceAll(claimV1beta1, "v1beta1", "v1"), "create")
	if v1.Create[0].Error == nil || !strings.Contains(*v1.Create[0].Error, `no kind "ResourceClaim" is registered for version "resource.k8s.io/v1"`) {
		t.Errorf("a v1 claim: %+v", v1.Create[0])
	}
}

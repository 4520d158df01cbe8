//go:build k8s131

package main

import (
	"strings"
	"testing"
)

// 1.31 reads structured parameters in resource.k8s.io/v1alpha3 (its only
// version) with DRA off by default: these tests write v1alpha3 and turn DRA on,
// as the components would be started with --feature-gates=DynamicResourceAllocation=true.
// go test -modfile=modfiles/1.31.mod -tags=k8s131 .

// inventory131 is run_test.go's inventory in v1alpha3, whose devices have the
// same shape as in v1beta1.
var inventory131 = strings.ReplaceAll(inventoryV1beta1, "resource.k8s.io/v1beta1", "resource.k8s.io/v1alpha3")

func Test131SchedulesATemplatePodWhereTheDeviceIs(t *testing.T) {
	withDRA(t)
	got := run(t, inventory131+templateAndPod("v1alpha3", "device.attributes['gpu.example.com'].memory > 32"), "schedule").Schedule
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

func Test131RefusesAPodNoNodeCanServe(t *testing.T) {
	withDRA(t)
	got := run(t, inventory131+templateAndPod("v1alpha3", "device.attributes['gpu.example.com'].memory > 100"), "schedule").Schedule
	if got.Node != nil || got.Message == nil || !strings.HasPrefix(*got.Message, "0/2 nodes are available: 2 cannot allocate all claims.") {
		t.Fatalf("node %v, message %v", got.Node, got.Message)
	}
	for _, node := range got.Nodes {
		if node.Fits == nil || *node.Fits || node.Reason == nil || *node.Reason != "cannot allocate all claims" {
			t.Errorf("node %s: fits %v, reason %v", node.Name, node.Fits, node.Reason)
		}
	}
}

func Test131AllocatesAClaimAndRefusesAV1beta1One(t *testing.T) {
	withDRA(t)
	claim := `
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: big}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu
      selectors:
      - cel: {expression: "device.attributes['gpu.example.com'].memory > 32"}
`
	resp := run(t, inventory131+claim, "create", "allocate")
	noCreateErrors(t, resp)
	if !resp.Allocate.Fits || len(resp.Allocate.Claims) != 1 || *resp.Allocate.Node != "node-b" {
		t.Fatalf("allocate: %+v", resp.Allocate)
	}
	v1beta1 := run(t, strings.ReplaceAll(claim, "v1alpha3", "v1beta1"), "create")
	if v1beta1.Create[0].Error == nil || !strings.Contains(*v1beta1.Create[0].Error, `no kind "ResourceClaim" is registered for version "resource.k8s.io/v1beta1"`) {
		t.Errorf("a v1beta1 claim: %+v", v1beta1.Create[0])
	}
}

//go:build !k8s133 && !k8s132 && !k8s131

// Go tests of the releases from 1.34 on (resource.k8s.io/v1 inputs):
// go test -modfile=modfiles/1.36.mod -tags=k8s136 . (no tag for 1.37).

package main

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

const inventory = `
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      memory: {int: 16}
  - name: gpu-1
    attributes:
      memory: {int: 80}
`

func claimDoc(expression string) string {
	return `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: big}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors:
        - cel: {expression: "` + expression + `"}
`
}

func TestReadObjectsSplitsDocumentsAndLists(t *testing.T) {
	for name, tc := range map[string]struct {
		documents string
		kinds     []string
		stored    []bool
	}{
		"multi-document YAML": {inventory, []string{"Node", "DeviceClass", "ResourceSlice"}, []bool{false, false, false}},
		"a List with a read claim": {
			`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}, {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c", "resourceVersion": "7"}}]}`,
			[]string{"Node", "ResourceClaim"}, []bool{false, true},
		},
	} {
		t.Run(name, func(t *testing.T) {
			objects, err := readObjects(request{Documents: tc.documents})
			if err != nil {
				t.Fatal(err)
			}
			if len(objects) != len(tc.kinds) {
				t.Fatalf("got %d objects, want %d", len(objects), len(tc.kinds))
			}
			for i, obj := range objects {
				if obj.Kind != tc.kinds[i] || obj.Stored != tc.stored[i] {
					t.Errorf("object %d: %s stored=%v, want %s stored=%v", i, obj.Kind, obj.Stored, tc.kinds[i], tc.stored[i])
				}
			}
		})
	}
}

func TestCreateAndAllocate(t *testing.T) {
	for name, tc := range map[string]struct {
		expression   string
		createDetail string // a substring of the claim's first error, "" for valid
		device       string // the device allocated on node-a, "" when none fits
	}{
		"a selector that picks the big GPU": {"device.attributes['gpu.example.com'].memory > 32", "", "gpu-1"},
		"a selector nothing meets":          {"device.attributes['gpu.example.com'].memory > 100", "", ""},
		"a selector that does not compile":  {"device.attributes['gpu.example.com'].memory >", "Syntax error", ""},
	} {
		t.Run(name, func(t *testing.T) {
			resp := run(t, inventory+claimDoc(tc.expression), "create")
			claim := resp.Create[len(resp.Create)-1]
			if claim.Kind != "ResourceClaim" {
				t.Fatalf("last created object is a %s", claim.Kind)
			}
			if tc.createDetail == "" && len(claim.Errors) > 0 {
				t.Fatalf("unexpected create errors: %+v", claim.Errors)
			}
			if tc.createDetail != "" {
				if len(claim.Errors) == 0 || !strings.Contains(claim.Errors[0].Detail, tc.createDetail) {
					t.Fatalf("create errors %+v, want one mentioning %q", claim.Errors, tc.createDetail)
				}
				if claim.Errors[0].Field != "spec.devices.requests[0].exactly.selectors[0].cel.expression" {
					t.Errorf("error field %q", claim.Errors[0].Field)
				}
				return
			}
			node := "node-a"
			result := runOn(t, &node, inventory+claimDoc(tc.expression), "allocate").Allocate
			if result.Error != nil {
				t.Fatalf("allocator error: %s", *result.Error)
			}
			if result.Fits != (tc.device != "") {
				t.Fatalf("fits=%v, want a fit: %v", result.Fits, tc.device != "")
			}
			if tc.device != "" {
				got := result.Claims[0].Status.Allocation.Devices.Results[0].Device
				if got != tc.device {
					t.Errorf("allocated %s, want %s", got, tc.device)
				}
			}
		})
	}
}

// Objects written in an older version are read through the internal type, as
// the apiserver reads them: a v1beta1 inventory and claim are created and
// allocated like v1 ones.
func TestOlderVersionsAreConverted(t *testing.T) {
	noCreateErrors(t, run(t, inventoryV1beta1+claimV1beta1, "create"))
	node := "node-b"
	allocated := runOn(t, &node, inventoryV1beta1+claimV1beta1, "allocate").Allocate
	if !allocated.Fits || allocated.Claims[0].Status.Allocation.Devices.Results[0].Device != "gpu-1" {
		t.Fatalf("allocation %+v, want gpu-1", allocated)
	}
}

// A DeviceTaintRule is read in the version the release serves it in (v1 from
// 1.37, v1beta2 in 1.36, v1alpha3 before) and stored in that version.
func TestDeviceTaintRuleInTheServedVersion(t *testing.T) {
	var version string
	for _, candidate := range []string{"v1", "v1beta2", "v1alpha3"} {
		if legacyscheme.Scheme.Recognizes(schema.GroupVersionKind{Group: "resource.k8s.io", Version: candidate, Kind: "DeviceTaintRule"}) {
			version = candidate
			break
		}
	}
	rule := `
---
apiVersion: resource.k8s.io/` + version + `
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-a, device: gpu-1}
  taint: {key: example.com/maintenance, effect: NoSchedule}
`
	resp := run(t, inventory+rule, "create")
	noCreateErrors(t, resp)
	created := resp.Create[len(resp.Create)-1]
	if !strings.Contains(string(created.Object), `"apiVersion":"resource.k8s.io/`+version+`"`) {
		t.Errorf("stored as %s, want %s", created.Object, version)
	}
	node := "node-a"
	if allocated := runOn(t, &node, inventory+rule+claimDoc("true"), "allocate").Allocate; !allocated.Fits {
		t.Fatalf("allocate with a DeviceTaintRule: %+v", allocated)
	}
}

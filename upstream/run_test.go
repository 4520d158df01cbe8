// Test helpers and inputs for every release's Go tests.

package main

import (
	"encoding/json"
	"testing"
)

// inventoryV1beta1 is written in resource.k8s.io/v1beta1, which every release
// reads (1.32 and 1.33 read nothing newer): two nodes, two GPUs on node-b.
const inventoryV1beta1 = `
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: v1
kind: Node
metadata: {name: node-b}
---
apiVersion: resource.k8s.io/v1beta1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: node-b-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    basic:
      attributes:
        memory: {int: 16}
  - name: gpu-1
    basic:
      attributes:
        memory: {int: 80}
`

// claimV1beta1 asks for the big GPU of inventoryV1beta1.
const claimV1beta1 = `
---
apiVersion: resource.k8s.io/v1beta1
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

// run answers one request of documents in the given modes, as the process
// would, and fails the test on a harness error.
func run(t *testing.T, documents string, modes ...string) response {
	t.Helper()
	return runOn(t, nil, documents, modes...)
}

// runOn is run with the request's node.
func runOn(t *testing.T, node *string, documents string, modes ...string) response {
	t.Helper()
	line, err := json.Marshal(request{ID: t.Name(), Documents: documents, Node: node, Run: modes})
	if err != nil {
		t.Fatal(err)
	}
	resp := answer(line, nil, nil)
	if resp.Error != nil {
		t.Fatalf("harness error: %s", *resp.Error)
	}
	return resp
}

// noCreateErrors fails the test when the apiserver would refuse an object.
func noCreateErrors(t *testing.T, resp response) {
	t.Helper()
	for _, created := range resp.Create {
		if created.Error != nil || len(created.Errors) > 0 {
			t.Errorf("%s %s: error %v, errors %+v", created.Kind, created.Name, created.Error, created.Errors)
		}
	}
}

// templateAndPod is a template asking for one GPU that matches expression and
// a pod using it, the template in resource.k8s.io/<version>.
func templateAndPod(version, expression string) string {
	return `
---
apiVersion: resource.k8s.io/` + version + `
kind: ResourceClaimTemplate
metadata: {name: big-gpu}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu
        selectors:
        - cel: {expression: "` + expression + `"}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers:
  - name: main
    image: busybox
    resources:
      claims: [{name: gpu}]
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: big-gpu
`
}

// withDRA turns DRA on, as the components of 1.31-1.33 would be started with
// --feature-gates=DynamicResourceAllocation=true.
func withDRA(t *testing.T) {
	t.Helper()
	if refused := setGates(map[string]bool{"DynamicResourceAllocation": true}); refused != nil {
		t.Fatalf("DynamicResourceAllocation=true refused: %s", *refused)
	}
}

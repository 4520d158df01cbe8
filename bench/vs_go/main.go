// Command allocate is the Go side of bench/vs_go.py: upstream's structured
// allocator (k8s.io/dynamic-resource-allocation) as a whole process that does
// what `python -m allocator allocate` does with the same files: read YAML or
// JSON (documents, or kind: List as kubectl prints it), allocate the pending
// claims together on one node (--node) or try every node, print the answer
// as one JSON object.
//
// Only wiring lives here; decoding, feature defaults and allocation are the
// release's own code. The feature gates are the release's defaults, mapped
// to allocator features as the scheduler's DynamicResources plugin maps them.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	resourcedefaults "k8s.io/kubernetes/pkg/apis/resource/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
)

// defaults applies the apiserver's defaulting of resource.k8s.io/v1 objects
// (a hand-written claim leaves allocationMode out, for instance).
var defaults = func() *runtime.Scheme {
	scheme := runtime.NewScheme()
	if err := resourcedefaults.RegisterDefaults(scheme); err != nil {
		panic(err)
	}
	return scheme
}()

type inputs struct {
	nodes   []*v1.Node
	slices  []*resourceapi.ResourceSlice
	claims  []*resourceapi.ResourceClaim
	classes map[string]*resourceapi.DeviceClass
}

// classLister serves the DeviceClasses read from the files.
type classLister map[string]*resourceapi.DeviceClass

func (l classLister) List() ([]*resourceapi.DeviceClass, error) {
	out := make([]*resourceapi.DeviceClass, 0, len(l))
	for _, class := range l {
		out = append(out, class)
	}
	return out, nil
}

func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	if class, ok := l[name]; ok {
		return class, nil
	}
	return nil, apierrors.NewNotFound(resourceapi.Resource("deviceclasses"), name)
}

type header struct {
	Kind  string            `json:"kind"`
	Items []json.RawMessage `json:"items"`
}

func (in *inputs) add(raw json.RawMessage) error {
	var h header
	if err := json.Unmarshal(raw, &h); err != nil {
		return err
	}
	var err error
	switch h.Kind {
	case "List":
		for _, item := range h.Items {
			if err := in.add(item); err != nil {
				return err
			}
		}
	case "Node":
		node := &v1.Node{}
		err = json.Unmarshal(raw, node)
		in.nodes = append(in.nodes, node)
	case "ResourceSlice":
		slice := &resourceapi.ResourceSlice{}
		err = json.Unmarshal(raw, slice)
		defaults.Default(slice)
		in.slices = append(in.slices, slice)
	case "ResourceClaim":
		claim := &resourceapi.ResourceClaim{}
		err = json.Unmarshal(raw, claim)
		defaults.Default(claim)
		in.claims = append(in.claims, claim)
	case "DeviceClass":
		class := &resourceapi.DeviceClass{}
		err = json.Unmarshal(raw, class)
		defaults.Default(class)
		in.classes[class.Name] = class
	}
	return err
}

func (in *inputs) read(path string) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	decoder := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReaderSize(file, 1<<20), 1<<16)
	for {
		var raw json.RawMessage
		if err := decoder.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		if err := in.add(raw); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

type claimAnswer struct {
	Name    string                                      `json:"name"`
	Devices []resourceapi.DeviceRequestAllocationResult `json:"devices"`
}

type nodeAnswer struct {
	Name  string  `json:"name"`
	Fits  bool    `json:"fits"`
	Error *string `json:"error"`
}

type answer struct {
	Node   *string       `json:"node"`
	Fits   bool          `json:"fits"`
	Claims []claimAnswer `json:"claims"`
	Error  *string       `json:"error"`
	Nodes  []nodeAnswer  `json:"nodes,omitempty"`
}

func main() {
	nodeName := flag.String("node", "", "allocate on this node only")
	flag.Parse()
	in := &inputs{classes: map[string]*resourceapi.DeviceClass{}}
	for _, path := range flag.Args() {
		if err := in.read(path); err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			os.Exit(2)
		}
	}

	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	features := structured.Features{
		AdminAccess:             fts.EnableDRAAdminAccess,
		PrioritizedList:         fts.EnableDRAPrioritizedList,
		PartitionableDevices:    fts.EnableDRAPartitionableDevices,
		DeviceTaints:            fts.EnableDRADeviceTaints,
		DeviceBindingAndStatus:  fts.EnableDRADeviceBindingConditions && fts.EnableDRAResourceClaimDeviceStatus,
		ConsumableCapacity:      fts.EnableDRAConsumableCapacity,
		FractionalCapacityRange: fts.EnableDRAFractionalCapacityRange,
		ListTypeAttributes:      fts.EnableDRAListTypeAttributes,
		OptionalNodeOperations:  fts.EnableDRAOptionalNodeOperations,
		DerivedAttributes:       fts.EnableDRADerivedAttributes,
		CompatibilityGroups:     fts.EnableDRADeviceCompatibilityGroups,
	}

	// Devices of claims already allocated are in use, as the plugin's
	// tracker counts them.
	state := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	var pending []*resourceapi.ResourceClaim
	for _, claim := range in.claims {
		if claim.Status.Allocation == nil {
			pending = append(pending, claim)
			continue
		}
		for _, result := range claim.Status.Allocation.Devices.Results {
			state.AllocatedDevices.Insert(structured.MakeDeviceID(result.Driver, result.Pool, result.Device))
		}
	}

	ctx := context.Background()
	celCache := cel.NewCache(10, cel.Features{
		EnableConsumableCapacity: fts.EnableDRAConsumableCapacity,
		EnableListTypeAttributes: fts.EnableDRAListTypeAttributes,
	})
	allocator, err := structured.NewAllocator(ctx, features, state, classLister(in.classes), in.slices, celCache)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}

	tryNode := func(node *v1.Node) (*answer, error) {
		out := &answer{Node: &node.Name}
		allocations, err := allocator.Allocate(ctx, node, pending)
		if err != nil {
			text := err.Error()
			out.Error = &text
			return out, nil
		}
		if allocations == nil {
			return out, nil
		}
		out.Fits = true
		for i, claim := range pending {
			out.Claims = append(out.Claims, claimAnswer{Name: claim.Name, Devices: allocations[i].Devices.Results})
		}
		return out, nil
	}

	var result *answer
	if *nodeName != "" {
		for _, node := range in.nodes {
			if node.Name == *nodeName {
				result, _ = tryNode(node)
			}
		}
		if result == nil {
			fmt.Fprintf(os.Stderr, "error: node %q is not among the objects\n", *nodeName)
			os.Exit(2)
		}
	} else {
		// Every node is tried; the answer is the first that fits.
		result = &answer{}
		for _, node := range in.nodes {
			onNode, _ := tryNode(node)
			result.Nodes = append(result.Nodes, nodeAnswer{Name: node.Name, Fits: onNode.Fits, Error: onNode.Error})
			if onNode.Fits && !result.Fits {
				result.Node, result.Fits, result.Claims = onNode.Node, true, onNode.Claims
			}
		}
	}
	encoder := json.NewEncoder(os.Stdout)
	if err := encoder.Encode(result); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}
}

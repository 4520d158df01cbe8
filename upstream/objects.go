// Reading the input, for every release: documents and Lists split into
// objects, decoded with the release's scheme (legacyscheme) into the internal
// type and the version the components read.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"k8s.io/kubernetes/pkg/api/legacyscheme"
	// The API groups the apiserver serves, registered with their defaulting
	// and conversion functions, as kube-apiserver registers them.
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
)

// object is one input document as written.
type object struct {
	Index      int
	Raw        []byte
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	// Stored objects carry metadata.uid or metadata.resourceVersion: they
	// were read from a cluster and already passed the apiserver.
	Stored bool
}

type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name            string `json:"name"`
		Namespace       string `json:"namespace"`
		UID             string `json:"uid"`
		ResourceVersion string `json:"resourceVersion"`
	} `json:"metadata"`
	Items []json.RawMessage `json:"items"`
}

func readObjects(req request) ([]object, error) {
	raws := req.Objects
	if req.Documents != "" {
		docs, err := splitDocuments(req.Documents)
		if err != nil {
			return nil, err
		}
		raws = append(raws, docs...)
	}
	var objects []object
	var add func(raw []byte) error
	add = func(raw []byte) error {
		var h header
		if err := json.Unmarshal(raw, &h); err != nil {
			return fmt.Errorf("object %d: %w", len(objects), err)
		}
		if h.Kind == "List" || (strings.HasSuffix(h.Kind, "List") && h.Items != nil) {
			for _, item := range h.Items {
				if err := add(item); err != nil {
					return err
				}
			}
			return nil
		}
		namespace := h.Metadata.Namespace
		if namespace == "" && namespaced(h.Kind) {
			namespace = "default"
		}
		objects = append(objects, object{
			Index: len(objects), Raw: raw, APIVersion: h.APIVersion, Kind: h.Kind,
			Namespace: namespace, Name: h.Metadata.Name,
			Stored: h.Metadata.UID != "" || h.Metadata.ResourceVersion != "",
		})
		return nil
	}
	for _, raw := range raws {
		if err := add(raw); err != nil {
			return nil, err
		}
	}
	return objects, nil
}

// splitDocuments turns multi-document YAML or JSON text into JSON documents.
func splitDocuments(text string) ([]json.RawMessage, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(text)))
	var docs []json.RawMessage
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the documents: %w", err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		asJSON, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("reading the documents: %w", err)
		}
		if string(asJSON) == "null" {
			continue
		}
		docs = append(docs, asJSON)
	}
}

func namespaced(kind string) bool {
	switch kind {
	case "ResourceClaim", "ResourceClaimTemplate", "Pod":
		return true
	}
	return false
}

// decode reads an object in the version it was written into the internal
// type, with the apiserver's defaulting and conversion; a version the release
// does not serve is refused by the scheme.
func decode(obj object) (runtime.Object, error) {
	raw, err := withDefaultNamespace(obj)
	if err != nil {
		return nil, err
	}
	decoded, _, err := legacyscheme.Codecs.UniversalDecoder().Decode(raw, nil, nil)
	return decoded, err
}

// decodeServed reads an object as a client of the release reads it: decoded
// to the internal type (the scheme converts between served versions only
// through it), then converted to the version the components watch.
func decodeServed(obj object) (runtime.Object, error) {
	internal, err := decode(obj)
	if err != nil {
		return nil, err
	}
	return toServed(internal)
}

// toServed converts an internal object to the version the components read:
// v1 of its group, or, where the release has no v1 of the kind, the first
// version of the group's priority order that has it (DeviceTaintRule before
// 1.37: v1beta2 in 1.36, v1alpha3 before). The priority order alone will not
// do: 1.34 puts resource.k8s.io/v1beta2 first, yet its components read v1
// (1.33's read v1beta1: readVersion).
func toServed(internal runtime.Object) (runtime.Object, error) {
	kinds, _, err := legacyscheme.Scheme.ObjectKinds(internal)
	if err != nil {
		return nil, err
	}
	kind := kinds[0]
	versions := append([]schema.GroupVersion{{Group: kind.Group, Version: readVersion(kind.Group)}},
		legacyscheme.Scheme.PrioritizedVersionsForGroup(kind.Group)...)
	for _, version := range versions {
		if legacyscheme.Scheme.Recognizes(version.WithKind(kind.Kind)) {
			return legacyscheme.Scheme.ConvertToVersion(internal, version)
		}
	}
	return nil, fmt.Errorf("no served version of %s", kind.GroupKind())
}

func withDefaultNamespace(obj object) ([]byte, error) {
	if !namespaced(obj.Kind) {
		return obj.Raw, nil
	}
	var generic map[string]any
	if err := json.Unmarshal(obj.Raw, &generic); err != nil {
		return nil, err
	}
	meta, _ := generic["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		generic["metadata"] = meta
	}
	meta["namespace"] = obj.Namespace
	return json.Marshal(generic)
}

// giveIdentity gives an object the uid and resourceVersion the apiserver
// would have given it when it was stored, unless it has them.
func giveIdentity(decoded runtime.Object, obj object) {
	meta, ok := decoded.(interface {
		GetUID() types.UID
		SetUID(types.UID)
		GetResourceVersion() string
		SetResourceVersion(string)
	})
	if !ok {
		return
	}
	if meta.GetUID() == "" {
		meta.SetUID(types.UID(fmt.Sprintf("uid-%d", obj.Index)))
	}
	if meta.GetResourceVersion() == "" {
		meta.SetResourceVersion("1")
	}
}

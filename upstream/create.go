// The create mode, for every release: the apiserver's create path through
// the release's registry strategies (release files: which strategy values and
// validation each release has).

package main

import (
	"context"
	"encoding/json"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
)

type createResult struct {
	Index     int          `json:"index"`
	Kind      string       `json:"kind"`
	Namespace string       `json:"namespace"`
	Name      string       `json:"name"`
	Stored    bool         `json:"stored"`
	Errors    []fieldError `json:"errors"`
	// Message is the apiserver's answer to the create as a whole
	// ("ResourceClaim.resource.k8s.io \"x\" is invalid: [...]"), null when accepted.
	Message *string `json:"message"`
	// Object is the object as the apiserver would store it, in the release's
	// preferred version of its kind (v1, or the newest it serves the kind in).
	Object json.RawMessage `json:"object"`
	// Error says why the object could not be created at all (not served,
	// not decodable, a kind the harness does not create).
	Error *string `json:"error"`
}

type fieldError struct {
	Field  string `json:"field"`
	Type   string `json:"type"`
	Detail string `json:"detail"`
	// Message is the error as the apiserver prints it in the list.
	Message string `json:"message"`
}

// createAll runs every object through the create path of the release's
// apiserver: decode the written version with defaults into the internal type,
// the registry strategy's PrepareForCreate (which drops fields of disabled
// features), then its validation (handwritten and declarative) under the gates.
// Objects read from a cluster (uid or resourceVersion) are stored already and
// are only decoded.
func createAll(objects []object) []createResult {
	namespaces := fake.NewSimpleClientset(namespaceObjects(objects)...).CoreV1().Namespaces()
	results := make([]createResult, 0, len(objects))
	for _, obj := range objects {
		results = append(results, create(obj, namespaces))
	}
	return results
}

func create(obj object, namespaces corev1client.NamespaceInterface) createResult {
	result := createResult{Index: obj.Index, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name, Stored: obj.Stored, Errors: []fieldError{}}
	if obj.Kind == "Namespace" {
		return result
	}
	internal, err := decode(obj)
	if err != nil {
		result.Error = errorText(err)
		return result
	}
	gvk := schema.FromAPIVersionAndKind(obj.APIVersion, obj.Kind)
	if !obj.Stored {
		strategy, resource := strategyFor(obj.Kind, namespaces)
		if strategy == nil {
			result.Error = errorText(fmt.Errorf("the harness does not run the create path of %s", obj.Kind))
			return result
		}
		errs := runCreate(requestContext(obj, gvk, resource), strategy, internal)
		for _, e := range errs {
			result.Errors = append(result.Errors, fieldError{Field: e.Field, Type: e.Type.String(), Detail: e.Detail, Message: e.Error()})
		}
		if len(errs) > 0 {
			result.Message = errorText(apierrors.NewInvalid(gvk.GroupKind(), obj.Name, errs))
			return result
		}
	}
	external, err := toServed(internal)
	if err != nil {
		result.Error = errorText(err)
		return result
	}
	result.Object, err = json.Marshal(external)
	if err != nil {
		result.Error = errorText(err)
	}
	return result
}

// runCreate is the part of the registry's create that decides what is stored
// or refused: system fields, name generation, PrepareForCreate, validation,
// canonicalization.
func runCreate(ctx context.Context, strategy rest.RESTCreateStrategy, obj runtime.Object) field.ErrorList {
	objectMeta, err := meta.Accessor(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	rest.FillObjectMetaSystemFields(objectMeta)
	if objectMeta.GetName() == "" && objectMeta.GetGenerateName() != "" {
		objectMeta.SetName(strategy.GenerateName(objectMeta.GetGenerateName()))
	}
	strategy.PrepareForCreate(ctx, obj)
	if errs := validateCreate(ctx, obj, strategy, objectMeta); len(errs) > 0 {
		return errs
	}
	strategy.Canonicalize(obj)
	return nil
}

func requestContext(obj object, gvk schema.GroupVersionKind, resource string) context.Context {
	ctx := genericapirequest.WithNamespace(context.Background(), obj.Namespace)
	return genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIPrefix: "apis",
		APIGroup: gvk.Group, APIVersion: gvk.Version, Resource: resource,
		Namespace: obj.Namespace, Name: obj.Name,
	})
}

func strategyFor(kind string, namespaces corev1client.NamespaceInterface) (rest.RESTCreateStrategy, string) {
	switch kind {
	case "ResourceClaim":
		return claimStrategy(namespaces), "resourceclaims"
	case "ResourceClaimTemplate":
		return templateStrategy(namespaces), "resourceclaimtemplates"
	case "DeviceClass":
		return deviceclass.Strategy, "deviceclasses"
	case "ResourceSlice":
		return resourceslice.Strategy, "resourceslices"
	case "DeviceTaintRule":
		if strategy := taintRuleStrategy(); strategy != nil {
			return strategy, "devicetaintrules"
		}
	case "Pod":
		return pod.Strategy, "pods"
	case "Node":
		return node.Strategy, "nodes"
	}
	return nil, ""
}

// namespaceObjects are the input's Namespaces plus every namespace named by
// an object, as existing unlabelled namespaces.
func namespaceObjects(objects []object) []runtime.Object {
	seen := map[string]bool{}
	var out []runtime.Object
	for _, obj := range objects {
		if obj.Kind == "Namespace" {
			if decoded, err := decodeServed(obj); err == nil {
				out = append(out, decoded)
				seen[obj.Name] = true
			}
		}
	}
	for _, obj := range objects {
		if obj.Namespace != "" && !seen[obj.Namespace] {
			seen[obj.Namespace] = true
			ns := &v1.Namespace{}
			ns.Name = obj.Namespace
			out = append(out, ns)
		}
	}
	return out
}

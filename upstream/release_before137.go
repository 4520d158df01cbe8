//go:build k8s136 || k8s135 || k8s134 || k8s133 || k8s132 || k8s131

// What 1.32 to 1.36 share: the registry's create validation before
// rest.ValidateCreate.

package main

import (
	"context"

	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
)

// validateCreate follows rest.BeforeCreate of these releases (which has no
// ValidateCreate yet): the strategy's validation (declarative validation is
// called from it), then, when it passed, the common metadata checks.
func validateCreate(ctx context.Context, obj runtime.Object, strategy rest.RESTCreateStrategy, objectMeta metav1.Object) field.ErrorList {
	if errs := strategy.Validate(ctx, obj); len(errs) > 0 {
		return errs
	}
	return genericvalidation.ValidateObjectMetaAccessor(objectMeta, strategy.NamespaceScoped(), path.ValidatePathSegmentName, field.NewPath("metadata"))
}

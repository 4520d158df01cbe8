//go:build !k8s133 && !k8s132 && !k8s131

package main

import (
	"context"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// readVersion is the version of an API group the components read: v1 for
// core and, from 1.34 on, for resource.k8s.io.
func readVersion(string) string {
	return "v1"
}

// resourceClaim is a ResourceClaim in the version the components read.
type resourceClaim = resourceapi.ResourceClaim

// listClaims lists every ResourceClaim of the fake apiserver.
func listClaims(client *fake.Clientset) ([]*resourceClaim, error) {
	list, err := client.ResourceV1().ResourceClaims("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	claims := make([]*resourceClaim, 0, len(list.Items))
	for i := range list.Items {
		claims = append(claims, &list.Items[i])
	}
	return claims, nil
}

// extendedResourceClaim is the claim the scheduler made for the pod's
// extended resources, recorded in the pod's status.
func extendedResourceClaim(pod *v1.Pod) *string {
	if pod.Status.ExtendedResourceClaimStatus == nil {
		return nil
	}
	return &pod.Status.ExtendedResourceClaimStatus.ResourceClaimName
}

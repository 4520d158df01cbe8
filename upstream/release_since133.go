//go:build !k8s132 && !k8s131

package main

import (
	"k8s.io/apiserver/pkg/registry/rest"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
)

// templateStrategy is the ResourceClaimTemplate registry strategy (it reads
// the namespace for admin access from 1.33 on).
func templateStrategy(namespaces corev1client.NamespaceInterface) rest.RESTCreateStrategy {
	return resourceclaimtemplate.NewStrategy(namespaces)
}

// taintRuleStrategy is the DeviceTaintRule registry strategy (DeviceTaintRules
// came in 1.33).
func taintRuleStrategy() rest.RESTCreateStrategy {
	return devicetaintrule.Strategy
}

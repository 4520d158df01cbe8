// The schedule mode, for every release: kube-scheduler (default profile) and
// the resource-claim controller on a fake clientset that behaves like the
// apiserver where they rely on it.

package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

type scheduleResult struct {
	Pod *string `json:"pod"`
	// Node is where the pod was bound, null when it was not.
	Node *string `json:"node"`
	// Message is the pod's PodScheduled condition message when the
	// scheduler refused it ("0/3 nodes are available: ...").
	Message *string        `json:"message"`
	Nodes   []scheduleNode `json:"nodes"`
	// Claims are every ResourceClaim after the cycle, as stored.
	Claims []*resourceClaim `json:"claims"`
	// Names maps the pod's resourceClaims[].name to the claim's name.
	Names                 map[string]string `json:"names"`
	ExtendedResourceClaim *string           `json:"extendedResourceClaim"`
}

type scheduleNode struct {
	Name string `json:"name"`
	// Fits is null where the scheduler does not say (on success it only
	// names the chosen node).
	Fits   *bool   `json:"fits"`
	Reason *string `json:"reason"`
	Score  *int64  `json:"score"`
}

// How long a case may take before the harness says the pod was neither
// bound nor refused (a PreBind waiting for binding conditions, say).
const scheduleTimeout = 20 * time.Second

// schedule runs kube-scheduler (default profile, every default plugin) and
// the resource-claim controller of the release on a fake clientset holding
// the objects, and follows the first pod without a node until it is bound or
// refused.
func schedule(objects []object, onlyNode *string) (*scheduleResult, error) {
	decoded, pod, err := schedulerObjects(objects, onlyNode)
	if err != nil {
		return nil, err
	}
	result := &scheduleResult{Nodes: []scheduleNode{}, Claims: []*resourceClaim{}, Names: map[string]string{}}
	if pod == nil {
		return result, nil
	}
	podName := pod.Namespace + "/" + pod.Name
	result.Pod = &podName

	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), klog.Background()))
	defer cancel()
	client := fakeAPIServer(decoded)

	// The resource-claim controller first makes the pod's claims from its
	// templates; the scheduler then starts on the cluster it left behind.
	if err := makeClaimsFromTemplates(ctx, client, pod); err != nil {
		return nil, err
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	sched, err := scheduler.New(ctx, client, factory, nil, fakeRecorder)
	if err != nil {
		return nil, fmt.Errorf("starting the scheduler: %w", err)
	}
	var diagnosis struct {
		sync.Mutex
		fitError *framework.FitError
	}
	// Keep the scheduler's own diagnosis of a refused pod (per-node reasons).
	recordSchedulePod(sched, func(err error) {
		var fitError *framework.FitError
		if errors.As(err, &fitError) {
			diagnosis.Lock()
			diagnosis.fitError = fitError
			diagnosis.Unlock()
		}
	})
	// Started as kube-scheduler starts it: informers synced, then every
	// event handler has seen the initial objects, then the scheduling loop.
	factory.Start(ctx.Done())
	waitForCacheSync(ctx, factory)
	if err := untilDone(ctx, sched.WaitForHandlersSync); err != nil {
		return nil, fmt.Errorf("waiting for the scheduler's event handlers: %w", err)
	}
	var running sync.WaitGroup
	running.Add(1)
	go func() {
		defer running.Done()
		sched.Run(ctx)
	}()

	var final *v1.Pod
	waitErr := wait.PollUntilContextTimeout(ctx, 2*time.Millisecond, scheduleTimeout, true, func(ctx context.Context) (bool, error) {
		current, err := client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		final = current
		return current.Spec.NodeName != "" || refusal(current) != nil, nil
	})
	cancel()
	running.Wait()
	factory.Shutdown()

	if final != nil {
		if final.Spec.NodeName != "" {
			result.Node = &final.Spec.NodeName
		}
		result.Message = refusal(final)
		for _, status := range final.Status.ResourceClaimStatuses {
			if status.ResourceClaimName != nil {
				result.Names[status.Name] = *status.ResourceClaimName
			}
		}
		result.ExtendedResourceClaim = extendedResourceClaim(final)
	}
	if result.Node == nil && result.Message == nil && waitErr != nil {
		text := fmt.Sprintf("the pod was neither bound nor refused within %s", scheduleTimeout)
		result.Message = &text
	}
	diagnosis.Lock()
	result.Nodes = nodeVerdicts(decoded, result.Node, diagnosis.fitError)
	diagnosis.Unlock()

	claims, err := listClaims(client)
	if err != nil {
		return nil, err
	}
	result.Claims = append(result.Claims, claims...)
	// Claims of the input first, in input order, then the ones made during
	// the cycle, by name.
	position := map[string]int{}
	for i, obj := range decoded {
		if claim, ok := obj.(*resourceClaim); ok {
			position[claim.Namespace+"/"+claim.Name] = i + 1
		}
	}
	sort.SliceStable(result.Claims, func(i, j int) bool {
		a, b := result.Claims[i], result.Claims[j]
		pa, pb := position[a.Namespace+"/"+a.Name], position[b.Namespace+"/"+b.Name]
		if pa == 0 || pb == 0 {
			if pa != pb {
				return pb == 0
			}
			return a.Name < b.Name
		}
		return pa < pb
	})
	return result, nil
}

// listClaims lists every ResourceClaim of the fake apiserver, in the version
// the components read (claimsAPI, in the release files).
func listClaims(client *fake.Clientset) ([]*resourceClaim, error) {
	list, err := claimsAPI(client).ResourceClaims("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	claims := make([]*resourceClaim, 0, len(list.Items))
	for i := range list.Items {
		claims = append(claims, &list.Items[i])
	}
	return claims, nil
}

// makeClaimsFromTemplates runs the release's resource-claim controller until
// every claim of the pod that comes from a template exists and is recorded in
// the pod's status.
func makeClaimsFromTemplates(parent context.Context, client *fake.Clientset, pod *v1.Pod) error {
	fromTemplates := 0
	for _, podClaim := range pod.Spec.ResourceClaims {
		if podClaim.ResourceClaimTemplateName != nil {
			fromTemplates++
		}
	}
	if fromTemplates == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	factory := informers.NewSharedInformerFactory(client, 0)
	controller, err := newClaimController(ctx, client, factory)
	if err != nil {
		return fmt.Errorf("starting the resource-claim controller: %w", err)
	}
	factory.Start(ctx.Done())
	waitForCacheSync(ctx, factory)
	var running sync.WaitGroup
	running.Add(1)
	go func() {
		defer running.Done()
		controller.Run(ctx, 1)
	}()
	defer func() {
		cancel()
		running.Wait()
		factory.Shutdown()
	}()
	err = wait.PollUntilContextTimeout(ctx, 2*time.Millisecond, scheduleTimeout, true, func(ctx context.Context) (bool, error) {
		current, err := client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return len(current.Status.ResourceClaimStatuses) >= fromTemplates, nil
	})
	if err != nil {
		return fmt.Errorf("the resource-claim controller made no claims for the pod: %w", err)
	}
	return nil
}

// refusal is the PodScheduled=False message the scheduler writes.
func refusal(pod *v1.Pod) *string {
	for _, condition := range pod.Status.Conditions {
		if condition.Type == v1.PodScheduled && condition.Status == v1.ConditionFalse {
			message := condition.Message
			return &message
		}
	}
	return nil
}

// nodeVerdicts states, per node in input order, what the scheduler said: on a
// refusal each node's reasons from the scheduler's own diagnosis; on success
// only that the chosen node fits.
func nodeVerdicts(objects []runtime.Object, chosen *string, fitError *framework.FitError) []scheduleNode {
	verdicts := []scheduleNode{}
	fits, refused := true, false
	for _, obj := range objects {
		node, ok := obj.(*v1.Node)
		if !ok {
			continue
		}
		verdict := scheduleNode{Name: node.Name}
		switch {
		case chosen != nil && *chosen == node.Name:
			verdict.Fits = &fits
		case chosen == nil && fitError != nil:
			if status := diagnosedStatus(fitError, node.Name); status != nil && !status.IsSuccess() {
				reason := strings.Join(status.Reasons(), ", ")
				verdict.Fits, verdict.Reason = &refused, &reason
			}
		}
		verdicts = append(verdicts, verdict)
	}
	return verdicts
}

// schedulerObjects decodes the objects as the scheduler reads them and picks
// the pod to schedule: the first without spec.nodeName. Other pods without a
// node are left out, so that only one pod is scheduled. With a node given,
// the other nodes are left out.
func schedulerObjects(objects []object, onlyNode *string) ([]runtime.Object, *v1.Pod, error) {
	var decoded []runtime.Object
	var pending *v1.Pod
	for _, obj := range objects {
		if obj.Kind == "Namespace" {
			continue
		}
		typed, err := decodeServed(obj)
		if err != nil {
			return nil, nil, fmt.Errorf("object %d (%s %s): %w", obj.Index, obj.Kind, obj.Name, err)
		}
		giveIdentity(typed, obj)
		switch typed := typed.(type) {
		case *v1.Node:
			if onlyNode != nil && typed.Name != *onlyNode {
				continue
			}
			withPodCapacity(typed)
		case *v1.Pod:
			if typed.Spec.NodeName == "" {
				if pending != nil {
					continue
				}
				pending = typed
			}
		}
		decoded = append(decoded, typed)
	}
	return append(decoded, namespaceObjects(objects)...), pending, nil
}

// withPodCapacity gives a node written without status.allocatable room for
// pods (as a kubelet reports it), so that NodeResourcesFit judges only what
// the case is about.
func withPodCapacity(node *v1.Node) {
	if _, ok := node.Status.Allocatable[v1.ResourcePods]; ok {
		return
	}
	if node.Status.Allocatable == nil {
		node.Status.Allocatable = v1.ResourceList{}
	}
	node.Status.Allocatable[v1.ResourcePods] = resource.MustParse("110")
}

// fakeAPIServer is a fake clientset that behaves like the apiserver where
// the scheduler and the controller rely on it: uids, increasing
// resourceVersions, generateName with the apiserver's own name generator,
// and the pods/binding subresource setting spec.nodeName.
func fakeAPIServer(objects []runtime.Object) *fake.Clientset {
	client := fake.NewSimpleClientset(objects...)
	var version atomic.Int64
	version.Store(100)
	stamp := func(action clienttesting.Action) (bool, runtime.Object, error) {
		var obj runtime.Object
		switch action := action.(type) {
		case clienttesting.CreateAction:
			obj = action.GetObject()
		case clienttesting.UpdateAction:
			obj = action.GetObject()
		}
		if obj == nil {
			return false, nil, nil
		}
		objectMeta, err := meta.Accessor(obj)
		if err != nil {
			return false, nil, nil
		}
		if action.GetVerb() == "create" {
			if objectMeta.GetName() == "" && objectMeta.GetGenerateName() != "" {
				objectMeta.SetName(names.SimpleNameGenerator.GenerateName(objectMeta.GetGenerateName()))
			}
			if objectMeta.GetUID() == "" {
				objectMeta.SetUID(types.UID(fmt.Sprintf("uid-%d", version.Add(1))))
			}
		}
		objectMeta.SetResourceVersion(fmt.Sprint(version.Add(1)))
		return false, nil, nil
	}
	client.PrependReactor("create", "*", stamp)
	client.PrependReactor("update", "*", stamp)
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
		gvr := v1.SchemeGroupVersion.WithResource("pods")
		obj, err := client.Tracker().Get(gvr, binding.Namespace, binding.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*v1.Pod).DeepCopy()
		pod.Spec.NodeName = binding.Target.Name
		pod.ResourceVersion = fmt.Sprint(version.Add(1))
		return true, binding, client.Tracker().Update(gvr, pod, pod.Namespace)
	})
	return client
}

// Command upstream runs one case at a time through the real code of one
// Kubernetes release (the apiserver's create path, the scheduler's
// DynamicResources plugin, the structured allocator) and answers in JSON.
//
// It reads JSON lines on stdin and writes one JSON line per case on stdout
// (the contract is in README.md). The feature gates are set once, at start-up,
// from -gates, as a component sets them from --feature-gates; a case whose
// gates differ is answered with an error (the Python client starts another
// process for another gate set).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime/debug"

	"k8s.io/klog/v2"
)

type request struct {
	ID        string            `json:"id"`
	Gates     map[string]bool   `json:"gates"`
	Node      *string           `json:"node"`
	Objects   []json.RawMessage `json:"objects"`
	Documents string            `json:"documents"`
	Run       []string          `json:"run"`
}

type response struct {
	ID       string          `json:"id"`
	Release  string          `json:"release"`
	Gates    *gatesResult    `json:"gates,omitempty"`
	Create   []createResult  `json:"create,omitempty"`
	Schedule *scheduleResult `json:"schedule,omitempty"`
	Allocate *allocateResult `json:"allocate,omitempty"`
	Error    *string         `json:"error"`
}

func main() {
	gatesJSON := flag.String("gates", "{}", "feature gates as a JSON object, set once at start-up")
	verbosity := flag.Int("log", -1, "the components' log verbosity on stderr (none when negative)")
	flag.Parse()
	if *verbosity >= 0 {
		logFlags := flag.NewFlagSet("klog", flag.ExitOnError)
		klog.InitFlags(logFlags)
		_ = logFlags.Set("v", fmt.Sprint(*verbosity))
	} else {
		klog.SetOutput(io.Discard)
		klog.LogToStderr(false)
	}

	var gates map[string]bool
	if err := json.Unmarshal([]byte(*gatesJSON), &gates); err != nil {
		fmt.Fprintln(os.Stderr, "-gates:", err)
		os.Exit(2)
	}
	refused := setGates(gates)

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		if err := out.Encode(answer(in.Bytes(), gates, refused)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// answer runs one case; a failure of the harness becomes the case's error.
func answer(line []byte, gates map[string]bool, refused *string) (resp response) {
	resp.Release = release()
	defer func() {
		if r := recover(); r != nil {
			resp.Error = errorText(fmt.Errorf("harness panic: %v\n%s", r, debug.Stack()))
		}
	}()
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		resp.Error = errorText(fmt.Errorf("reading the request: %w", err))
		return resp
	}
	resp.ID = req.ID
	if !sameGates(req.Gates, gates) {
		resp.Error = errorText(fmt.Errorf("this process runs with gates %v, the case asks for %v", gates, req.Gates))
		return resp
	}
	objects, err := readObjects(req)
	if err != nil {
		resp.Error = errorText(err)
		return resp
	}
	for _, mode := range req.Run {
		if mode == "gates" {
			resp.Gates = &gatesResult{Refused: refused}
		}
	}
	if refused != nil {
		// The components do not start with this gate set: nothing else
		// runs, and the refusal is the answer whatever was asked.
		resp.Gates = &gatesResult{Refused: refused}
		return resp
	}
	for _, mode := range req.Run {
		switch mode {
		case "gates":
		case "create":
			resp.Create = createAll(objects)
		case "allocate":
			resp.Allocate, err = allocate(objects, req.Node)
		case "schedule":
			resp.Schedule, err = schedule(objects, req.Node)
		default:
			err = fmt.Errorf("unknown run mode %q (gates, create, schedule, allocate)", mode)
		}
		if err != nil {
			resp.Error = errorText(err)
			return resp
		}
	}
	return resp
}

func sameGates(a, b map[string]bool) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

func errorText(err error) *string {
	text := err.Error()
	return &text
}

// release is the k8s.io/kubernetes module version this binary was built with.
func release() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/kubernetes" {
			return dep.Version[1:]
		}
	}
	return "unknown"
}

package main

import (
	"encoding/json"
	"testing"
)

// run answers one request of documents in the given modes, as the process
// would, and fails the test on a harness error.
func run(t *testing.T, documents string, modes ...string) response {
	t.Helper()
	line, err := json.Marshal(request{ID: t.Name(), Documents: documents, Run: modes})
	if err != nil {
		t.Fatal(err)
	}
	resp := answer(line, nil, nil)
	if resp.Error != nil {
		t.Fatalf("harness error: %s", *resp.Error)
	}
	return resp
}

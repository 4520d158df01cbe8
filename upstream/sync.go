// Waiting for the components' caches, for every release.

package main

import (
	"context"
	"time"

	"k8s.io/client-go/informers"
)

// The informers' and the scheduler's waits for their caches and event handlers
// poll every 100 ms (client-go's syncedPollPeriod), while a case's objects are
// listed within a few milliseconds: most of a case went by in those waits. The
// helpers below ask the same waits again every millisecond instead: each call
// checks at once and gives up at its short deadline, so the condition waited
// for is the components' own and nothing else changes.
const syncRetry = time.Millisecond

// waitForCacheSync returns once every informer started by the factory has
// synced, or ctx is done.
func waitForCacheSync(ctx context.Context, factory informers.SharedInformerFactory) {
	for ctx.Err() == nil {
		short, cancel := context.WithTimeout(ctx, syncRetry)
		synced := factory.WaitForCacheSync(short.Done())
		cancel()
		if allTrue(synced) {
			return
		}
	}
}

func allTrue[K comparable](values map[K]bool) bool {
	for _, value := range values {
		if !value {
			return false
		}
	}
	return true
}

// untilDone calls wait (a wait that checks at once and returns its context's
// error when that ends first) with a short deadline until it succeeds or ctx
// is done.
func untilDone(ctx context.Context, wait func(context.Context) error) error {
	for {
		short, cancel := context.WithTimeout(ctx, syncRetry)
		err := wait(short)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
}

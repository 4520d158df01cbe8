"""The structured-parameters allocator, one job per module (entry point: ``allocator``).

* ``allocator``: the entry point: allocate claims on a node, or search every node.
* ``switches``: the allocator's own switches from the feature gates, and the choice of upstream implementation.
* ``pools``: pools gathered from ResourceSlices, and whether each is complete and valid.
* ``nodes``: which nodes a slice, a class or an allocation selects.
* ``candidates``: a device the search may pick, and the taints that keep it from a request.
* ``requests``: requests and subrequests as one shape, with API defaults.
* ``state``: what already-allocated claims hold.
* ``capacity``: consumable capacity (shares of a device, request policies).
* ``constraints``: matchAttribute and distinctAttribute.
* ``search``: the backtracking search itself.
* ``results``: AllocationResult per claim (device results, config, node selector).
* ``explain``: per request and device, matches or the first reason why not.
* ``proofs``: exact proofs that claims cannot fit, and memoised failure.
* ``node_views``: what the allocation sees from a node, so that nodes alike share one search.
* ``alternatives``: the other grants a search reaches on a node.
* ``encode``: typed objects back to apiserver JSON.
* ``errors``: NodeAllocationError and SearchLimitError, on AllocatorError.

Class and request selectors are evaluated by ``allocator.cel.selectors``, which the validation's
warnings share.
"""

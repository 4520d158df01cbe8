"""The structured-parameters allocator, one job per module (entry point: ``allocator.allocate``).

* ``features``: allocator features from gates, and the choice of upstream implementation.
* ``requests``: requests and subrequests as one shape, with API defaults.
* ``state``: what already-allocated claims hold.
* ``selectors``: CEL class and request selectors, evaluated once per device content.
* ``capacity``: consumable capacity (shares of a device, request policies).
* ``constraints``: matchAttribute and distinctAttribute.
* ``search``: the backtracking search itself.
* ``results``: AllocationResult per claim (device results, config, node selector).
* ``explain``: per request and device, matches or the first reason why not.
* ``proofs``: exact proofs that claims cannot fit, and memoised failure.
* ``node_views``: what the allocation sees from a node, so that nodes alike share one search.
* ``alternatives``: the other grants a search reaches on a node.
* ``encode``: typed objects back to apiserver JSON.
* ``errors``: AllocatorError and NodeAllocationError.

Pool gathering lives in ``allocator.pools``, node selection in ``allocator.nodes``.
"""

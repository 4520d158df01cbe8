"""The site's features, one module each, shared by the page (``playground.views``) and the API (``api.views``).

A service takes a ``State`` (or what a feature needs beyond it), runs the engine with the site's limits and
the state's inventory (a stored cluster read by id), and returns the engine's answer or raises a located
refusal. Shaping for a template stays with the page (``playground.results``, ``capacity``, ``console``),
serializing with the API (``api.serializers``).

``analyze``  the analysis of a state (validate, allocate, analyze, and the page's results)
``compare``  two analyses of the same documents and what differs
``capacity`` how many copies of the workload fit
``evaluate`` a CEL expression on one device of the inventory (the page's console, ``/api/v1/evaluate``)
``convert``  documents rewritten in another resource.k8s.io version
"""

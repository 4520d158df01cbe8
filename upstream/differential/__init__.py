"""The differential runner: the engine against the real Kubernetes components (``./dev conformance``).

``generate`` makes random cases, ``ours`` asks the engine, ``upstream.client`` asks the real components,
``compare`` tells what differs, ``shrink`` reduces a disagreement, ``regressions`` records it, ``run`` drives
a release and ``report`` prints the table.
"""

"""``kubectl dra``: the engine on a live cluster.

A kubectl plugin (``kubectl-dra`` on PATH) that reads the DRA objects of the
cluster kubectl points at and asks the engine the questions a person with a
pending pod asks: why is it pending (``why``), would these claims fit now
(``fit``), how many copies fit (``capacity``), and a snapshot to paste into the
playground or share through a playground site (``snapshot``).

Modules: ``connection`` (kubeconfig, HTTP, paging, errors that name the missing
permission), ``cluster`` (what each command reads), ``release`` (the cluster's
release and feature gates), ``snapshot`` (objects stripped to what the engine
reads), ``commands`` (one function per command), ``render`` (text output),
``main`` (the command line).
"""

"""What differs between two analyses of the same documents under two settings.

``differences(left, right)`` takes two reports (``engine.analyze(...)``)
and lists, as ``{"path", "left", "right"}``, the outcomes a person compares:
validity and the errors, whether the claims were allocated and on which
node, the devices each request and each container got, the reasons given
when nothing fits, and which nodes fit. Settings themselves (release, gates)
are not listed: they are the input of the comparison, not its outcome.

Paths are dotted, with the name of a claim, request, pod or node in
brackets: ``allocation.devices[default/pair][gpus]``. A missing side is
``None`` (a request that one side allocated and the other did not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from allocator.engine import Report


def _request_devices(report: Report) -> dict[str, list[str]]:
    """``[namespace/claim][request]`` -> devices granted, in the order of the allocation."""
    out: dict[str, list[str]] = {}
    for claim in report.allocation.claims:
        for result in claim.results:
            out.setdefault(f"[{claim.ref}][{result.request}]", []).append(result.key)
    return out


def _container_devices(report: Report) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for entry in report.containers:
        out.setdefault(f"[{entry.pod}][{entry.container}]", []).extend(d.key for d in entry.devices)
    return out


def _errors(report: Report) -> list[str]:
    return [d.message() for d in report.errors]


def _keyed(prefix: str, left: dict[str, Any], right: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"path": f"{prefix}{key}", "left": left.get(key), "right": right.get(key)}
            for key in sorted(left.keys() | right.keys()) if left.get(key) != right.get(key)]


def differences(left: Report, right: Report) -> list[dict[str, Any]]:
    """The outcomes that differ between two reports, most telling first."""
    out: list[dict[str, Any]] = []

    def same(path: str, a: object, b: object) -> None:
        if a != b:
            out.append({"path": path, "left": a, "right": b})

    same("valid", left.valid, right.valid)
    same("errors", _errors(left), _errors(right))
    la, ra = left.allocation, right.allocation
    same("allocation.status", la.status, ra.status)
    same("allocation.node", la.node, ra.node)
    same("allocation.error", la.error, ra.error)
    out.extend(_keyed("allocation.devices", _request_devices(left), _request_devices(right)))
    out.extend(_keyed("containers", _container_devices(left), _container_devices(right)))
    same("allocation.reasons", la.reasons, ra.reasons)
    out.extend(_keyed("nodes", {f"[{n.name}].fits": n.fits for n in left.nodes},
                      {f"[{n.name}].fits": n.fits for n in right.nodes}))
    return out


def compare(left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    """Analyze the two sides (``engine.analyze`` keyword arguments each) and say what differs."""
    from allocator.engine import analyze

    first = analyze(**left)
    reports = first, analyze(**right, readings=first.readings)  # the same texts are read once
    return {"left": reports[0].to_dict(), "right": reports[1].to_dict(), "differences": differences(*reports)}

"""Text output: what a person reads in a terminal. JSON and YAML print the answers as they are."""

from __future__ import annotations

# Devices listed per request before "... and N more": a terminal, not a report.
DEVICES_SHOWN = 8


def _cluster_lines(about: dict) -> list[str]:
    lines = [f"Cluster: {about['server']} ({about['serverVersion']}), simulated as Kubernetes "
             f"{about['kubernetesVersion']}; feature gates: {about['featureGatesSource']}"]
    if about["featureGates"]:
        lines.append("  gates away from the release defaults: " + ", ".join(
            f"{k}={str(v).lower()}" for k, v in sorted(about["featureGates"].items())))
    lines += [f"  note: {note}" for note in about.get("notes", [])]
    return lines


def _claim_devices(claim: dict) -> str:
    results = (((claim.get("status") or {}).get("allocation") or {}).get("devices") or {}).get("results") or []
    return ", ".join(f"{r['request']}: {r['driver']}/{r['pool']}/{r['device']}" for r in results) or "no devices"


def _claim_name(claim: dict) -> str:
    metadata = claim.get("metadata") or {}
    return f"{metadata.get('namespace', 'default')}/{metadata.get('name')}"


def _analysis_lines(analysis: dict, errors: list[dict]) -> list[str]:
    lines: list[str] = []
    if errors:
        lines.append("The objects are not valid; the apiserver would refuse them:")
        lines += [f"  {e.get('kind', '')} {e.get('name', '')}: {e.get('field', '')}: {e.get('detail', '')}"
                  for e in errors]
        return lines
    status = analysis["status"]
    if status == "allocated":
        lines.append(f"The engine: fits on node {analysis['node']}.")
        scoring = analysis.get("scoring") or {}
        if scoring.get("note"):
            lines.append(f"  {scoring['note']}")
        lines += [f"  claim {_claim_name(c)}: {_claim_devices(c)}" for c in analysis["claims"]]
        for container in analysis.get("containers") or []:
            devices = ", ".join(f"{d['driver']}/{d['pool']}/{d['device']}" for d in container.get("devices") or [])
            if devices:
                lines.append(f"  container {container['container']}: {devices}")
    elif status == "error":
        lines.append(f"The engine: the scheduler's allocator would fail: {analysis['error']}")
    else:
        lines.append("The engine: no node fits." if status == "unsatisfiable" else f"The engine: {status}.")
        lines += [f"  {reason}" for reason in analysis.get("reasons") or []]
    # Each node's verdict, except those the reasons above already state word for word.
    said = set(analysis.get("reasons") or [])
    rows = [f"{row['name']}: {'fits' if row.get('fits') else (row.get('reason') or 'does not fit')}"
            for row in analysis.get("nodes") or []]
    rows = [row for row in rows if row not in said]
    if rows and status != "allocated":
        lines.append("Per node:")
        lines += [f"  {row}" for row in rows]
    requests = analysis.get("requests") or []
    if requests and status != "allocated":
        seen_from = analysis.get("explainedNode")
        lines.append(f"Requests, seen from node {seen_from}:" if seen_from else "Requests:")
        for request in requests:
            lines += _request_lines(request)
    return lines


def _request_lines(request: dict) -> list[str]:
    devices = request.get("devices") or []
    matching = [d for d in devices if d.get("matches")]
    wanted = request.get("count") if request.get("mode") == "ExactCount" else request.get("mode")
    head = f"  {request['claim']} request {request['request']} (class {request.get('deviceClass')}, {wanted}): " \
           f"{len(matching)} of {len(devices)} devices match"
    lines = [head]
    if request.get("error"):
        lines.append(f"    {request['error']}")
    refused = [d for d in devices if not d.get("matches") or d.get("takenBy")]
    for device in refused[:DEVICES_SHOWN]:
        why = device.get("reason") or (f"taken by {device['takenBy']}" if device.get("takenBy") else "")
        held = device.get("heldBy")
        if held:
            pods = ", ".join(held["reservedFor"])
            why = f"allocated to claim {held['claim']}" + (f" (reserved for pod {pods})" if pods else "")
        lines.append(f"    {device['pool']}/{device['device']}: {why}")
    if len(refused) > DEVICES_SHOWN:
        lines.append(f"    ... and {len(refused) - DEVICES_SHOWN} more (-o json lists every device)")
    return lines


def why_text(answer: dict) -> str:
    condition = (answer.get("scheduler") or {}).get("condition") or {}
    lines: list[str] = []
    if answer["scheduled"]:
        lines.append(f"Pod {answer['pod']} is scheduled on node {answer['node']}.")
        lines += [f"  claim {_claim_name(c)}: {_claim_devices(c)}" for c in answer.get("claims") or []]
        return "\n".join(lines) + "\n"
    said = condition.get("message")
    lines.append(f"Pod {answer['pod']} is pending." + (f" The scheduler says ({condition.get('reason')}): {said}"
                                                        if said else " The scheduler has not reported on it yet."))
    lines += _cluster_lines(answer["cluster"])
    for missing in answer["podClaims"]["missing"]:
        lines.append(f"  {missing} is not in the cluster: the scheduler waits for it")
    for entry, claim in answer["podClaims"]["generated"].items():
        lines.append(f"  pod claim {entry}: the resource-claim controller made claim {claim}")
    lines += _analysis_lines(answer["analysis"], answer["errors"])
    if answer["analysis"]["status"] == "allocated":
        lines.append("DRA does not hold this pod back here: a plugin other than DynamicResources may (CPU, "
                     "memory, node affinity, taints), or the scheduler has not retried since the cluster changed.")
    return "\n".join(lines) + "\n"


def fit_text(answer: dict) -> str:
    lines = _cluster_lines(answer["cluster"])
    lines += _analysis_lines(answer["analysis"], answer["errors"])
    return "\n".join(lines) + "\n"


def capacity_text(answer: dict) -> str:
    result = answer["capacity"]
    lines = _cluster_lines(answer["cluster"])
    lines.append(f"{result.get('placed')} copies fit ({result.get('strategy')}); stopped by: {result.get('stoppedBy')}")
    for workload in result.get("workloads") or []:
        asked = workload.get("asked")
        lines.append(f"  {workload['kind']}/{workload['name']}: {workload['placed']} placed"
                     + (f" of {asked}" if asked is not None else ""))
    for row in result.get("byNode") or []:
        lines.append(f"  node {row['name']}: {row['copies']} copies, {row['used']} of {row['total']} devices used")
    nxt = result.get("next")
    if nxt:
        lines.append(f"The next copy ({nxt.get('workload')}) does not fit: {nxt.get('reason')}")
        lines += [f"  {row['name']}: {row['reason']}" for row in nxt.get("nodes") or []][:DEVICES_SHOWN]
    if result.get("error"):
        lines.append(f"error: {result['error']}")
    return "\n".join(lines) + "\n"

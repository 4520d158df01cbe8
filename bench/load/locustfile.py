"""Locust users for the load test (run it with bench/load/run.py, not directly).

Each simulated user loads the home page, posts gallery examples to the
analyze API and polls the health check, with 0.5-2 s of think time between
requests, like a person clicking around (plus a monitor).
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml
from locust import HttpUser, between, task

EXAMPLES = Path(__file__).resolve().parents[2] / "playground" / "samples" / "examples"


def _payloads() -> list[dict]:
    out = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        example = yaml.safe_load(path.read_text(encoding="utf-8"))
        out.append({
            "documents": example["documents"],
            "inventory": example.get("inventory"),
            "node": example.get("node") or "",
            "featureGates": example.get("featureGates") or {},
            "kubernetesVersion": str(example.get("kubernetesVersion") or "1.37"),
        })
    return out


PAYLOADS = _payloads()


class PlaygroundUser(HttpUser):
    wait_time = between(0.5, 2)

    @task(2)
    def page(self) -> None:
        self.client.get("/", name="GET /")

    @task(2)
    def analyze(self) -> None:
        self.client.post("/api/v1/analyze", json=random.choice(PAYLOADS), name="POST /api/v1/analyze")

    @task(1)
    def health(self) -> None:
        self.client.get("/healthz", name="GET /healthz")

"""The time budget on an analysis (allocator.reading.deadline): where the engine stops and what it says.

The clocks here are fakes that run out at a chosen point (a location reached, a number of looks), so
nothing depends on how fast the machine is.
"""

from __future__ import annotations

import pytest

from allocator.cel import compile_selector
from allocator.engine import analyze
from allocator.reading import deadline
from allocator.reading.deadline import BudgetExceeded, time_budget

NESTED = "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, device.driver.matches('^gpu')))"

INVENTORY = """
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: device.driver == 'gpu.example.com'}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-gpus}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
  - name: gpu-1
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n2-gpus}
spec:
  driver: gpu.example.com
  nodeName: n2
  pool: {name: n2, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
"""

CLAIM = f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: slow}}
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu
        count: 2
        selectors:
        - cel:
            expression: "{NESTED}"
"""


class RunsOutWhen:
    """A clock at 0 until ``condition(where)`` holds for the budget's location, then far past any budget."""

    def __init__(self, condition):
        self.condition = condition
        self.deadline: deadline.Deadline | None = None

    def __call__(self) -> float:
        if self.deadline is not None and self.condition(self.deadline.where):
            return 1e9
        return 0.0


def run_out(condition, call):
    clock = RunsOutWhen(condition)
    with pytest.raises(BudgetExceeded) as caught, time_budget(5, clock=clock) as budget:
        clock.deadline = budget
        call()
    return caught.value


def test_no_budget_changes_nothing():
    selector = compile_selector(NESTED)
    assert deadline.current() is None
    assert selector.evaluate("gpu.example.com", {}, {}) is True


def test_cel_evaluation_stops_inside_a_comprehension():
    # 20 x 20 x 20 iterations: far more cost than one look at the clock's worth.
    twenty = "[" + ",".join(str(i) for i in range(20)) + "]"
    selector = compile_selector(f"{twenty}.all(a, {twenty}.all(b, {twenty}.all(c, device.driver.matches('^gpu'))))")
    looks = []

    def clock():
        looks.append(1)
        return 0.0 if len(looks) < 3 else 1e9  # the budget starts, the evaluation starts, the next look runs out

    with pytest.raises(BudgetExceeded) as caught, time_budget(5, clock=clock):
        selector.evaluate("gpu.example.com", {}, {})
    assert len(looks) == 3
    assert caught.value.seconds == 5
    assert caught.value.message == "time budget of 5 s ran out while analyzing"


def test_many_cheap_evaluations_look_at_the_clock_too():
    selector = compile_selector(NESTED)
    looks = []

    def clock():
        looks.append(1)
        return 0.0 if len(looks) < 50 else 1e9

    with pytest.raises(BudgetExceeded), time_budget(5, clock=clock):
        for _ in range(10_000):
            selector.evaluate("gpu.example.com", {}, {})
    assert len(looks) == 50


def test_a_stop_is_not_an_internal_error_nor_a_cel_error():
    # BudgetExceeded passes the evaluator's "except Exception" that turns bugs into CELInternalError.
    assert not issubclass(BudgetExceeded, Exception)
    selector = compile_selector(NESTED)
    with pytest.raises(BudgetExceeded), time_budget(5, clock=iter([0.0] + [1e9] * 100).__next__):
        for _ in range(10_000):
            selector.evaluate("gpu.example.com", {}, {})


def test_analysis_stops_in_the_search_and_says_where():
    err = run_out(lambda where: where.get("phase") == "scheduling" and "slow" in where.get("selector", ""),
                  lambda: analyze(CLAIM, INVENTORY))
    assert err.where["phase"] == "scheduling"
    assert err.where["node"] == "n1"
    assert err.where["claim"] == "default/slow"
    assert err.where["request"] == "gpus"
    assert err.where["device"] == "gpu.example.com/n1/gpu-0"
    assert err.where["selector"].startswith("claim default/slow selector #0 ([1,2,3")
    assert err.message.startswith("time budget of 5 s ran out while scheduling: node n1, claim default/slow, "
                                  "request gpus, device gpu.example.com/n1/gpu-0, evaluating claim default/slow")
    assert err.to_dict()["where"] == err.where


def test_analysis_stops_on_the_node_it_is_on():
    err = run_out(lambda where: where.get("node") == "n2", lambda: analyze(CLAIM.replace("count: 2", "count: 1"),
                                                                          INVENTORY))
    assert err.where == {"phase": "scheduling", "node": "n2"}


@pytest.mark.parametrize("phase", ["reading", "validating", "checking the selectors on the inventory"])
def test_analysis_stops_between_phases(phase):
    err = run_out(lambda where: where.get("phase") == phase, lambda: analyze(CLAIM, INVENTORY))
    assert err.where["phase"] == phase


def test_the_search_loop_looks_at_the_budget():
    # Steps of the device search without any selector: the search's own looks at the clock stop it.
    plain = CLAIM.replace('        selectors:\n        - cel:\n            expression: "' + NESTED + '"\n', "")
    assert "selectors" not in plain
    looks = []

    def condition(where):
        if where.get("phase") == "scheduling" and where.get("node") == "n1":
            looks.append(1)
            return len(looks) > 1  # the node's entry passes; the search's first look runs out
        return False

    err = run_out(condition, lambda: analyze(plain, INVENTORY))
    assert err.where == {"phase": "scheduling", "node": "n1"}


def test_budget_off_answers():
    with time_budget(None) as budget:
        assert budget is None
        report = analyze(CLAIM, INVENTORY)
    assert report.allocation.status == "allocated"


def test_a_selector_over_the_cost_estimate_gets_upstream_s_refusal_not_the_budget():
    # 20 x 20 x 20 matches() of a long pattern: the apiserver's estimate refuses it on create, so the
    # answer is that refusal, without evaluating the selector on the inventory's devices first.
    twenty = "[" + ",".join(str(i) for i in range(20)) + "]"
    pattern = "^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
    expensive = (f"{twenty}.all(a, {twenty}.all(b, {twenty}.all(c, "
                 f"device.attributes['gpu.example.com'].uuid.matches('{pattern}'))))")
    clock = RunsOutWhen(lambda where: "[0,1,2" in where.get("selector", ""))  # only if it is evaluated
    with time_budget(5, clock=clock) as budget:
        clock.deadline = budget
        report = analyze(CLAIM.replace(NESTED, expensive), INVENTORY)
    assert [d.detail for _, d in report.diagnostics] == ["too complex, exceeds cost limit"]
    assert report.allocation.reasons == ["the objects are not valid: the apiserver would reject them"]


def test_the_command_line_takes_a_budget_and_exits_2_saying_where(tmp_path, capsys, monkeypatch):
    from allocator.cli import main

    inventory, claim = tmp_path / "inventory.yaml", tmp_path / "claim.yaml"
    inventory.write_text(INVENTORY)
    claim.write_text(CLAIM)
    ticks = iter(range(0, 10**9, 100))
    monkeypatch.setattr(deadline, "CLOCK", lambda: float(next(ticks)))  # past the budget at the first look
    assert main(["allocate", "--time-budget", "3", str(inventory), str(claim)]) == 2
    assert capsys.readouterr().err.startswith("error: the time budget of 3 s ran out while ")
    monkeypatch.undo()
    assert main(["allocate", str(inventory), str(claim)]) == 0  # no budget unless asked

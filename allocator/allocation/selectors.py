"""CEL selectors of classes and requests, evaluated per device and remembered.

Upstream evaluates a device against a request once per allocation and
remembers the answer. We remember per selector and device content, which
gives the same answers (CEL sees only driver, attributes, capacity and
allowMultipleAllocations) and lets a search over many nodes with identical
devices evaluate each expression once.
"""

from __future__ import annotations

from .. import model
from ..cel import CELCompileError, CELRuntimeError, build_device, compile_selector
from ..cel.explain import explain_false
from .errors import AllocatorError

# cel.EnhanceRuntimeError adds this to every "no such key" error.
_NO_SUCH_KEY_HINT = (". consider using CEL optional chaining (.? followed by orValue()) or guarding the check "
                     "with has() for optional fields")


def enhance_runtime_error(message: str) -> str:
    if "no such key:" in message and _NO_SUCH_KEY_HINT not in message:
        return message + _NO_SUCH_KEY_HINT
    return message


def compile_error_text(err) -> str:
    """The text of upstream's compile error: issues from cel-go get a prefix, a wrong result type does not."""
    if getattr(err, "reason", "") in ("syntax", "type"):
        return f"compilation failed: {err}"
    return str(err)


def device_fingerprint(driver: str, device: model.Device, allow_multiple: bool) -> tuple:
    """What a CEL selector can see of a device, as a hashable value."""
    attrs = tuple(sorted(
        (name, a.int, a.bool, a.string, a.version,
         tuple(a.ints) if a.ints is not None else None, tuple(a.bools) if a.bools is not None else None,
         tuple(a.strings) if a.strings is not None else None, tuple(a.versions) if a.versions is not None else None)
        for name, a in device.attributes.items()))
    capacity = tuple(sorted((name, c.value) for name, c in device.capacity.items()))
    return driver, attrs, capacity, allow_multiple


class _Memory:
    """What a SelectorEvaluator has learned; replaced whole when it grows too big.

    Content keys (small numbers) index the other maps, so they must never be
    mixed between two memories: every public call takes one memory and keeps it.
    """

    __slots__ = ("device_keys", "classes", "content_keys", "built", "results", "verdicts", "explained")

    def __init__(self):
        self.device_keys: dict[int, tuple[model.Device, int]] = {}  # id(device) -> (device, content key)
        self.classes: dict[int, tuple[model.DeviceClass, tuple[str, ...]]] = {}  # id(class) -> its expressions
        self.content_keys: dict[tuple, int] = {}
        # content -> the device as CEL sees it (or why it cannot), built once for all its selectors
        self.built: dict[int, dict | CELRuntimeError] = {}
        self.results: dict[tuple[str, int], bool | Exception] = {}
        self.verdicts: dict[tuple, tuple[str, int]] = {}
        self.explained: dict[tuple[str, int], list[dict]] = {}  # (expression, content) -> deciding parts

    def answers(self) -> int:
        return len(self.results) + len(self.verdicts) + len(self.explained)

    def forget_answers(self) -> None:
        """Drop the answers but keep the devices' keys and CEL values (the costly part to build again)."""
        self.results, self.verdicts, self.explained = {}, {}, {}


class SelectorEvaluator:
    """Compiles (through ``allocator.cel``) and evaluates selectors, remembering the answers.

    Answers depend only on the expressions and the device content, never on
    the node or the call, so one evaluator can serve every call of a process
    (``shared_evaluator``): a claim edited against a stored cluster then
    evaluates only the expressions that changed. ``max_devices`` and
    ``max_answers`` bound the memory (see ``forget_if_full``).
    """

    def __init__(self, gates: frozenset[str], max_devices: int | None = None, max_answers: int | None = None):
        self.gates = gates
        self.max_devices = max_devices
        self.max_answers = max_answers
        self._compiled: dict[str, object] = {}  # expression -> compiled selector or CELCompileError
        self._memory = _Memory()

    def _current(self) -> _Memory:
        return self._memory

    def forget_if_full(self) -> None:
        """Keep within the bounds (checked between calls, not per device): past ``max_devices`` devices
        start again; past ``max_answers`` answers forget the answers only."""
        memory = self._memory
        if self.max_devices is not None and len(memory.device_keys) + len(memory.classes) > self.max_devices:
            self._memory = _Memory()
            self._compiled = {}
        elif self.max_answers is not None and memory.answers() > self.max_answers:
            memory.forget_answers()
        if self.max_answers is not None and len(self._compiled) > MAX_COMPILED:
            self._compiled = {}  # every keystroke in a selector is a new expression; compiling again is cheap

    @staticmethod
    def _device_value(memory: _Memory, content: int, driver: str, device: model.Device,
                      allow_multiple: bool) -> dict:
        """The CEL value of a device; raises CELRuntimeError when it has none (e.g. a bad version)."""
        built = memory.built.get(content)
        if built is None:
            try:
                built = build_device(driver, device.attributes, device.capacity, allow_multiple)
            except CELRuntimeError as err:
                built = err
            except ValueError as err:  # a capacity that is no quantity (validation says so too)
                built = CELRuntimeError(str(err))
            memory.built[content] = built
        if isinstance(built, CELRuntimeError):
            raise CELRuntimeError(str(built))  # a fresh one each time: a raised exception keeps its traceback
        return built

    @staticmethod
    def _content_key(memory: _Memory, driver: str, device: model.Device, allow_multiple: bool) -> int:
        """A small number per distinct device content (cheap to hash, unlike the content itself).

        The map by ``id(device)`` keeps the device alive, so an id is never reused while it is in there."""
        found = memory.device_keys.get(id(device))
        if found is None or found[0] is not device:
            fingerprint = device_fingerprint(driver, device, allow_multiple)
            key = memory.content_keys.setdefault(fingerprint, len(memory.content_keys))
            found = (device, key)
            memory.device_keys[id(device)] = found
        return found[1]

    @staticmethod
    def _class_expressions(memory: _Memory, device_class: model.DeviceClass) -> tuple[str, ...]:
        """The class's CEL expressions (what its verdicts depend on), worked out once per class object."""
        found = memory.classes.get(id(device_class))
        if found is None or found[0] is not device_class:
            found = (device_class, tuple(s.cel.expression if s.cel is not None else ""
                                         for s in device_class.spec.selectors))
            memory.classes[id(device_class)] = found
        return found[1]

    def _compile(self, expression: str):
        compiled = self._compiled.get(expression)
        if compiled is None:
            try:
                compiled = compile_selector(expression, gates=self.gates, estimate_cost=False)
            except CELCompileError as err:
                compiled = err
            self._compiled[expression] = compiled
        return compiled

    def verdict(self, device_class: model.DeviceClass | None, request_expressions: tuple[str, ...], driver: str,
                device: model.Device, allow_multiple: bool, device_id, claim: str) -> tuple[str, int]:
        """("", -1) when class and request selectors all match, else ("class" or "request", index).

        Remembered per device content, class and request selectors, so the
        same question on another node (or for another claim, or in the next
        call) costs a lookup. ``claim`` (``NS/NAME``) is for the messages of
        errors, which raise AllocatorError with upstream's text and are not remembered.
        """
        memory = self._current()
        content = self._content_key(memory, driver, device, allow_multiple)
        class_expressions = None if device_class is None else self._class_expressions(memory, device_class)
        key = (content, class_expressions, request_expressions)
        found = memory.verdicts.get(key)
        if found is None:
            found = ("", -1)
            if class_expressions is not None:
                index = self._first_false(memory, class_expressions, content, driver, device, allow_multiple,
                                          device_id, f"class {device_class.metadata.name}")
                if index >= 0:
                    found = ("class", index)
            if found[0] == "":
                index = self._first_false(memory, request_expressions, content, driver, device, allow_multiple,
                                          device_id, f"claim {claim}")
                if index >= 0:
                    found = ("request", index)
            memory.verdicts[key] = found
        return found

    def outcome(self, expression: str, driver: str, device: model.Device,
                allow_multiple: bool) -> bool | CELRuntimeError | CELCompileError:
        """One selector on one device: its value, or the error that compiling or evaluating it gave."""
        compiled = self._compile(expression)
        if isinstance(compiled, CELCompileError):
            return compiled
        memory = self._current()
        content = self._content_key(memory, driver, device, allow_multiple)
        return self._evaluated(memory, expression, compiled, content, driver, device, allow_multiple)

    def _evaluated(self, memory: _Memory, expression: str, compiled, content: int, driver: str,
                   device: model.Device, allow_multiple: bool) -> bool | CELRuntimeError:
        key = (expression, content)
        outcome = memory.results.get(key)
        if outcome is None:
            try:
                value = self._device_value(memory, content, driver, device, allow_multiple)
                outcome = bool(compiled.evaluate_device(value))
            except CELRuntimeError as err:
                outcome = err
            memory.results[key] = outcome
        return outcome

    def explain(self, expression: str, driver: str, device: model.Device, allow_multiple: bool) -> list[dict]:
        """The parts of a selector that made it false on this device (see ``allocator.cel.explain``)."""
        memory = self._current()
        content = self._content_key(memory, driver, device, allow_multiple)
        key = (expression, content)
        found = memory.explained.get(key)
        if found is None:
            found = []
            compiled = self._compile(expression)
            if not isinstance(compiled, CELCompileError):
                try:
                    built = self._device_value(memory, content, driver, device, allow_multiple)
                    found = [part.to_dict() for part in explain_false(compiled, built)]
                except CELRuntimeError:
                    pass  # the device cannot even be shown to CEL: the reason says so already
            memory.explained[key] = found
        return found

    def _first_false(self, memory: _Memory, expressions, content: int, driver: str, device: model.Device,
                     allow_multiple: bool, device_id, owner: str) -> int:
        """Index of the first selector that is false, -1 when all are true. Raises on CEL errors."""
        for i, expression in enumerate(expressions):
            compiled = self._compile(expression)
            if isinstance(compiled, CELCompileError):
                raise AllocatorError(f"{owner}: selector #{i}: CEL compile error: {compile_error_text(compiled)}")
            outcome = self._evaluated(memory, expression, compiled, content, driver, device, allow_multiple)
            if outcome is not True:
                if outcome is False:
                    return i
                error = AllocatorError(f"{owner}: selector #{i} on device {device_id}: CEL runtime error: "
                                       f"{enhance_runtime_error(str(outcome))}")
                error.expression = expression
                raise error from outcome
        return -1


# Bounds of a shared evaluator. A device costs about 2.8 KB here (its content key and CEL value) and
# is kept alive (another 2.7 KB as read); an answer about 150 bytes. 20,000 devices hold two clusters of
# 1,000 nodes with 8 devices each (~110 MB at most), 200,000 answers a few dozen selectors on them (~30 MB).
SHARED_MAX_DEVICES = 20_000
SHARED_MAX_ANSWERS = 200_000
MAX_COMPILED = 2_000  # expressions a bounded evaluator keeps compiled
_shared: dict[frozenset[str], SelectorEvaluator] = {}


def shared_evaluator(gates: frozenset[str]) -> SelectorEvaluator:
    """The process's evaluator for these CEL gates (the compile environment is all they change)."""
    found = _shared.get(gates)
    if found is None:
        found = _shared.setdefault(gates, SelectorEvaluator(gates, SHARED_MAX_DEVICES, SHARED_MAX_ANSWERS))
    found.forget_if_full()
    return found

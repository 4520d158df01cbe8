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


class SelectorEvaluator:
    """Compiles (through ``allocator.cel``) and evaluates selectors; one per prepared allocator."""

    def __init__(self, gates: frozenset[str]):
        self.gates = gates
        self._compiled: dict[str, object] = {}  # expression -> compiled selector or CELCompileError
        self._results: dict[tuple[str, int], bool | Exception] = {}
        self._verdicts: dict[tuple, tuple[str, int]] = {}
        self._device_keys: dict[int, tuple[model.Device, int]] = {}  # id(device) -> (device, content key)
        self._content_keys: dict[tuple, int] = {}
        self._explained: dict[tuple[str, int], list[dict]] = {}  # (expression, content) -> deciding parts
        # content -> the device as CEL sees it (or why it cannot), built once for all its selectors
        self._built: dict[int, dict | CELRuntimeError] = {}

    def _device_value(self, content: int, driver: str, device: model.Device, allow_multiple: bool) -> dict:
        """The CEL value of a device; raises CELRuntimeError when it has none (e.g. a bad version)."""
        built = self._built.get(content)
        if built is None:
            try:
                built = build_device(driver, device.attributes, device.capacity, allow_multiple)
            except CELRuntimeError as err:
                built = err
            self._built[content] = built
        if isinstance(built, CELRuntimeError):
            raise CELRuntimeError(str(built))  # a fresh one each time: a raised exception keeps its traceback
        return built

    def _content_key(self, driver: str, device: model.Device, allow_multiple: bool) -> int:
        """A small number per distinct device content (cheap to hash, unlike the content itself)."""
        found = self._device_keys.get(id(device))
        if found is None or found[0] is not device:
            fingerprint = device_fingerprint(driver, device, allow_multiple)
            key = self._content_keys.setdefault(fingerprint, len(self._content_keys))
            found = (device, key)
            self._device_keys[id(device)] = found
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
        same question on another node (or for another claim) costs a lookup.
        ``claim`` (``NS/NAME``) is for the messages of errors, which raise
        AllocatorError with upstream's text and are not remembered.
        """
        content = self._content_key(driver, device, allow_multiple)
        key = (content, id(device_class), request_expressions)
        found = self._verdicts.get(key)
        if found is None:
            found = ("", -1)
            if device_class is not None:
                expressions = tuple(s.cel.expression if s.cel is not None else "" for s in device_class.spec.selectors)
                index = self._first_false(expressions, content, driver, device, allow_multiple, device_id,
                                          f"class {device_class.metadata.name}")
                if index >= 0:
                    found = ("class", index)
            if found[0] == "":
                index = self._first_false(request_expressions, content, driver, device, allow_multiple, device_id,
                                          f"claim {claim}")
                if index >= 0:
                    found = ("request", index)
            self._verdicts[key] = found
        return found

    def explain(self, expression: str, driver: str, device: model.Device, allow_multiple: bool) -> list[dict]:
        """The parts of a selector that made it false on this device (see ``allocator.cel.explain``)."""
        content = self._content_key(driver, device, allow_multiple)
        key = (expression, content)
        found = self._explained.get(key)
        if found is None:
            found = []
            compiled = self._compile(expression)
            if not isinstance(compiled, CELCompileError):
                try:
                    built = self._device_value(content, driver, device, allow_multiple)
                    found = [part.to_dict() for part in explain_false(compiled, built)]
                except CELRuntimeError:
                    pass  # the device cannot even be shown to CEL: the reason says so already
            self._explained[key] = found
        return found

    def _first_false(self, expressions, content: int, driver: str, device: model.Device, allow_multiple: bool,
                     device_id, owner: str) -> int:
        """Index of the first selector that is false, -1 when all are true. Raises on CEL errors."""
        for i, expression in enumerate(expressions):
            compiled = self._compile(expression)
            if isinstance(compiled, CELCompileError):
                raise AllocatorError(f"{owner}: selector #{i}: CEL compile error: {compile_error_text(compiled)}")
            key = (expression, content)
            outcome = self._results.get(key)
            if outcome is None:
                try:
                    outcome = bool(compiled.evaluate_device(self._device_value(content, driver, device, allow_multiple)))
                except CELRuntimeError as err:
                    outcome = err
                self._results[key] = outcome
            if outcome is not True:
                if outcome is False:
                    return i
                error = AllocatorError(f"{owner}: selector #{i} on device {device_id}: CEL runtime error: "
                                       f"{enhance_runtime_error(str(outcome))}")
                error.expression = expression
                raise error from outcome
        return -1

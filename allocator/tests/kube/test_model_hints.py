"""The decoder resolves the model's annotations itself (each text once): to what typing.get_type_hints gives."""

from __future__ import annotations

import builtins
import dataclasses
import typing

from allocator.kube import decode, model

MODEL_CLASSES = [c for c in vars(model).values()
                 if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == model.__name__]


def test_every_model_field_decodes_into_the_type_get_type_hints_names():
    names = {**vars(builtins), **vars(model), "Any": typing.Any}
    assert len(MODEL_CLASSES) > 40
    for cls in MODEL_CLASSES:
        hints = typing.get_type_hints(cls, names, names)
        # (the decoder names typing's Any decode.AnyValue: the model does not import typing)
        decoded = {py: typing.Any if tp is decode.AnyValue else tp for py, tp in decode._fields_of(cls).values()}
        assert decoded == hints, cls.__name__


def test_a_field_named_like_a_builtin_does_not_shadow_it():
    # DeviceAttribute has fields "int" and "bool": its annotations still name the builtins.
    fields = {py: tp for py, tp in decode._fields_of(model.DeviceAttribute).values()}
    assert fields["int"] == int | None and fields["bool"] == bool | None

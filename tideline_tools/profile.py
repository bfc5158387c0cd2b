"""Read profiles/profiles.yml the way dbt does, so Python tools use the exact Spark settings dbt uses.

dbt renders every string of a profile with Jinja and `env_var()`; this module does the same
with plain jinja2 (a handful of lines), so the profile stays the single source of truth for
the warehouse, metastore and time-zone settings of the `local` target and for the Thrift
address of the `cluster` target.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
import yaml

PROJECT_DIR = Path(__file__).resolve().parent.parent
PROFILES_DIR = PROJECT_DIR / "profiles"
PROFILE_NAME = "tideline"
TARGETS = ("local", "cluster")


class ProfileError(RuntimeError):
    pass


def _env_var(name: str, default: Any = None) -> str:
    if name in os.environ:
        return os.environ[name]
    if default is None:
        raise ProfileError(f"Env var required but not provided: '{name}'")
    return str(default)


_JINJA = jinja2.Environment(undefined=jinja2.StrictUndefined)
_JINJA.globals["env_var"] = _env_var
_JINJA.filters["as_number"] = lambda v: v
_JINJA.filters["as_bool"] = lambda v: v


def _render(value: Any) -> Any:
    if isinstance(value, str):
        return _JINJA.from_string(value).render()
    if isinstance(value, dict):
        return {k: _render(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_render(v) for v in value]
    return value


def target_name(target: str | None = None) -> str:
    """The target to use: the argument, else TIDELINE_TARGET, else the profile's default."""
    raw = yaml.safe_load((PROFILES_DIR / "profiles.yml").read_text())[PROFILE_NAME]
    name = target or _render(raw["target"])
    if name not in TARGETS:
        raise ProfileError(f"unknown target {name!r}; accepted: {', '.join(TARGETS)}")
    return name


def target_config(target: str | None = None) -> dict[str, Any]:
    """The rendered output block of one target of the tideline profile."""
    raw = yaml.safe_load((PROFILES_DIR / "profiles.yml").read_text())[PROFILE_NAME]
    name = target_name(target)
    config = _render(raw["outputs"][name])
    config["name"] = name
    return config

"""Read profiles/profiles.yml with dbt's own profile renderer, so the Python tools use exactly
the Spark settings dbt uses.

dbt reads the file (`dbt.config.profile.read_profile`), picks the target and renders its
block (`Profile.render_profile` with a `ProfileRenderer`: `env_var()`, `as_number`, native
types), as `dbt run` does; the profile stays the single source of truth for the warehouse,
metastore and time-zone settings of the `local` target and the Thrift address of the
`cluster` target.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from dbt.config.profile import Profile, read_profile
from dbt.config.renderer import ProfileRenderer
from dbt_common.context import InvocationContext, reliably_get_invocation_var
from dbt_common.exceptions import DbtBaseException

PROJECT_DIR = Path(__file__).resolve().parent.parent
PROFILES_DIR = PROJECT_DIR / "profiles"
PROFILE_NAME = "tideline"
TARGETS = ("local", "cluster")


class ProfileError(RuntimeError):
    pass


@contextmanager
def _environment() -> Iterator[None]:
    """dbt's `env_var()` reads the invocation context's environment: this process's, for the
    time of one rendering (a dbt invocation sets its own)."""
    invocation = reliably_get_invocation_var()
    token = invocation.set(InvocationContext(os.environ))
    try:
        yield
    finally:
        invocation.reset(token)


def _raw() -> dict[str, Any]:
    return read_profile(str(PROFILES_DIR))[PROFILE_NAME]


def target_name(target: str | None = None) -> str:
    """The target to use: the argument, else TIDELINE_TARGET, else the profile's default (only
    the profile's `target` is rendered: a target's own env vars may not be set yet)."""
    with _environment():
        try:
            name = target or ProfileRenderer({}).render_value(_raw()["target"])
        except DbtBaseException as exc:
            raise ProfileError(f"profiles/profiles.yml, target: {exc}") from exc
    if name not in TARGETS:
        raise ProfileError(f"unknown target {name!r}; accepted: {', '.join(TARGETS)}")
    return name


def target_config(target: str | None = None) -> dict[str, Any]:
    """The rendered output block of one target of the tideline profile, as dbt renders it."""
    name = target_name(target)
    with _environment():
        try:
            _, config = Profile.render_profile(_raw(), PROFILE_NAME, name, ProfileRenderer({}))
        except DbtBaseException as exc:
            raise ProfileError(f"profiles/profiles.yml, target {name}: {exc}") from exc
    return {**config, "name": name}

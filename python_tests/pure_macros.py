"""tideline's pure macros called from Python, for fast-tier property tests of rules that live
in Jinja (no SQL runs, no dbt command: thousands of examples a second).

The macro files are rendered by dbt's own Jinja environment (dbt_common's get_environment,
the one dbt renders every macro with), and their macros are called with the part of dbt's
context a pure macro may use: `return`, `fromjson`, `tojson`, `exceptions.raise_compiler_error`,
`modules` (re, datetime) and the `tideline` namespace of the macros loaded. A macro that
reaches for anything else (adapter, run_query, config, var) fails with Jinja's undefined-name
error: it is not pure, and belongs in the SQL tier of the tests."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
from dbt_common.clients.jinja import MacroReturn, get_environment

MACROS = Path(__file__).parent.parent / "macros"


class Refused(Exception):
    """What exceptions.raise_compiler_error raises: the macro's refusal message."""


def _return(value: Any):
    raise MacroReturn(value)


def _refuse(message: str):
    raise Refused(message)


class PureMacros:
    """The macros of `files` (paths under macros/), as attributes: `PureMacros('a/b.sql').name(...)`
    returns what the macro returns (or renders, when it returns nothing)."""

    def __init__(self, *files: str):
        context = {"return": _return, "fromjson": json.loads, "tojson": lambda value, **kw: json.dumps(value, **kw),
                   "exceptions": SimpleNamespace(raise_compiler_error=_refuse),
                   "modules": SimpleNamespace(re=re, datetime=datetime), "tideline": self}
        environment = get_environment(None)
        environment.undefined = jinja2.StrictUndefined
        self._macros = {}
        for file in files:
            module = environment.from_string((MACROS / file).read_text()).make_module(context)
            self._macros.update({name[len("dbt_macro__"):]: getattr(module, name)
                                 for name in dir(module) if name.startswith("dbt_macro__")})

    def __getattr__(self, name: str):
        if name.startswith("_") and name not in self.__dict__.get("_macros", {}):
            raise AttributeError(name)
        try:
            macro = self._macros[name]
        except KeyError:
            raise AttributeError(f"tideline.{name} is not among the pure macros loaded") from None

        def call(*args, **kwargs):
            try:
                return str(macro(*args, **kwargs))
            except MacroReturn as returned:
                return returned.value
        return call

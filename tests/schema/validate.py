#!/usr/bin/env python3
"""Validates dlayout JSON documents against the schemas in docs/schema/.

    validate.py [--schema-dir DIR] [--expect-invalid] FILE...

Each document names its schema in its "schema" field: "dlayout-<kind>/<n>" is
checked against DIR/<kind>.json (default: docs/schema/ of this repository),
e.g. dlayout-model/1 -> model.json, dlayout-estimate/1 -> estimate.json. The
schema file pins the version (its "schema" property is a const), so
dlayout-model/2 against model.json is reported as invalid.

Exit status: 0 when every document is valid, 1 when one is not (each problem
is printed as FILE: at /json/pointer: message), 2 on a usage error, an
unreadable file or a missing schema. With --expect-invalid, 0 when every
document is rejected by its schema and 1 when one is accepted (for tests of
the schemas themselves); files that cannot be checked still give 2.
"""

import argparse
import json
import pathlib
import re
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("validate.py: the Python module 'jsonschema' is missing "
             "(Debian package python3-jsonschema)")

SCHEMA_NAME = re.compile(r"^dlayout-([a-z][a-z0-9_-]*)/([0-9]+)$")
DEFAULT_DIR = pathlib.Path(__file__).resolve().parents[2] / "docs" / "schema"


class CannotCheck(Exception):
    """The document cannot be checked at all (not a schema violation)."""


def pointer(path):
    return "/" + "/".join(str(p) for p in path) if path else "/"


def describe(error, limit=300):
    """Where and what; for a oneOf/anyOf failure, the failure inside it that
    reaches deepest into the document (the likeliest intended branch)."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    message = error.message
    if len(message) > limit:
        message = message[:limit] + "..."
    return f"at {pointer(error.absolute_path)}: {message}"


def load_validator(schema_dir, kind, cache):
    if kind not in cache:
        path = schema_dir / f"{kind}.json"
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CannotCheck(f"no schema for dlayout-{kind} ({path} is missing)")
        except (OSError, ValueError) as e:
            raise CannotCheck(f"cannot read schema {path}: {e}")
        Draft202012Validator.check_schema(schema)
        cache[kind] = Draft202012Validator(schema, resolver=sibling_resolver(schema_dir, path, schema))
    return cache[kind]


def sibling_resolver(schema_dir, path, schema):
    """Resolves "$ref": "layout.json#/..." against the other schemas of the
    directory, without fetching anything (works with the jsonschema of
    Debian 12 and with newer ones)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from jsonschema import RefResolver
        store = {}
        for other in schema_dir.glob("*.json"):
            try:
                store[other.resolve().as_uri()] = json.loads(other.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                pass
        return RefResolver(base_uri=path.resolve().as_uri(), referrer=schema, store=store)


def problems(path, schema_dir, cache):
    """The schema violations of the document at `path` (empty when valid)."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CannotCheck(f"cannot read: {e}")
    try:
        doc = json.loads(text)
    except ValueError as e:
        return [f"not valid JSON: {e}"]
    name = doc.get("schema") if isinstance(doc, dict) else None
    if not isinstance(name, str):
        return ['no "schema" field naming the document\'s schema '
                '("dlayout-<kind>/<version>")']
    match = SCHEMA_NAME.match(name)
    if not match:
        return [f'"schema" is {name!r}, not of the form dlayout-<kind>/<version>']
    validator = load_validator(schema_dir, match.group(1), cache)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [describe(e) for e in errors]


def main(argv):
    parser = argparse.ArgumentParser(
        description="Validate dlayout JSON documents against docs/schema/.")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--schema-dir", type=pathlib.Path, default=DEFAULT_DIR)
    parser.add_argument("--expect-invalid", action="store_true",
                        help="succeed only if every document is invalid")
    args = parser.parse_args(argv)

    cache = {}
    unexpected = cannot = 0
    for path in args.files:
        try:
            found = problems(path, args.schema_dir, cache)
        except CannotCheck as e:
            print(f"{path}: error: {e}", file=sys.stderr)
            cannot += 1
            continue
        if args.expect_invalid:
            if found:
                print(f"{path}: rejected as expected: {found[0]}")
            else:
                print(f"{path}: error: valid, but expected to be rejected",
                      file=sys.stderr)
                unexpected += 1
        else:
            for p in found:
                print(f"{path}: {p}", file=sys.stderr)
            unexpected += bool(found)
    if cannot:
        return 2
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

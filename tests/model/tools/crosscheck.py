#!/usr/bin/env python3
"""The JSON Schemas in docs/schema/ and the C++ readers agree.

    crosscheck.py TOOL [DOC...]

TOOL is model_doc_tool; the documents are those `TOOL write` writes and
each DOC (a valid document). For each document this makes
every single-edit mutation -- drop one member of any object, replace one
leaf by a value of another JSON type -- and checks that
  - every mutation the C++ reader accepts, the schema accepts too (the schema
    is never stricter than the reader, so what dlayout writes validates), and
  - every mutation the reader rejects for its form (a missing required field,
    a wrong type, an unknown field or name, the wrong schema), the schema
    rejects too (the schema catches what the reader catches, short of the
    cross-references only C++ checks).
Exits 1 with the disagreements, 0 when there are none.
"""

import copy
import json
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "schema"))
import validate  # noqa: E402  (tests/schema/validate.py)

STRUCTURAL = re.compile(
    r"required field is missing|: expected (a|an) |got null|unknown field|"
    r"expected schema|out of range|must not be negative|"
    r"unknown (bound kind|subscript class|distribution kind|topology|algorithm)|"
    r"must be (read or write|flow, anti or output|fortran|\[left, right\])|"
    r"not a field of a")

REPLACEMENTS = [7, "7", None, 2.5, {"bogus": 1}]


def json_type(v):
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer()):
        return "integer"
    if isinstance(v, float):
        return "number"
    return type(v).__name__


def mutations(doc):
    """(description, mutated document) for every single edit of doc, once
    per place in the schema: a leaf of arrays[0] stands for the same leaf of
    arrays[1], ..."""
    seen = set()

    def first(path, edit):
        key = (tuple("*" if isinstance(p, int) else p for p in path), edit)
        if key in seen:
            return False
        seen.add(key)
        return True

    def walk(node, path):
        if isinstance(node, dict):
            for key in node:
                yield path + [key], True
                yield from walk(node[key], path + [key])
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if i >= 3 and not isinstance(item, (dict, list)):
                    break  # a long list of numbers: its head will do
                yield from walk(item, path + [i])
        if not (isinstance(node, (dict, list)) and node):
            yield path, False  # a leaf

    def at(d, path):
        for p in path[:-1]:
            d = d[p]
        return d

    for path, is_member in walk(doc, []):
        if is_member and first(path, "drop"):
            m = copy.deepcopy(doc)
            del at(m, path)[path[-1]]
            yield f"drop {validate.pointer(path)}", m
        if not path:
            continue
        value = at(doc, path)[path[-1]]
        if isinstance(value, (dict, list)) and value:
            continue
        for r in REPLACEMENTS:
            if json_type(r) == json_type(value) or not first(path, json.dumps(r)):
                continue
            m = copy.deepcopy(doc)
            at(m, path)[path[-1]] = r
            yield f"{validate.pointer(path)} = {json.dumps(r)}", m


def main(argv):
    if len(argv) < 1:
        sys.exit(__doc__)
    tool, docs = argv[0], argv[1:]
    disagreements, total = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        written = pathlib.Path(tmp) / "written"
        written.mkdir()
        subprocess.run([tool, "write", str(written)], check=True)
        docs = sorted(str(p) for p in written.glob("*.json")) + docs
        cases = {}
        for doc_path in docs:
            doc = json.loads(pathlib.Path(doc_path).read_text())
            for what, m in mutations(doc):
                path = pathlib.Path(tmp) / f"{len(cases)}.json"
                path.write_text(json.dumps(m))
                cases[str(path)] = f"{doc_path}: {what}"
        out = subprocess.run([tool, "check", *cases], check=True,
                             capture_output=True, text=True).stdout
        cache = {}
        for line in out.splitlines():
            file, verdict, *message = line.split("\t")
            message = message[0] if message else ""
            schema_problems = validate.problems(file, validate.DEFAULT_DIR, cache)
            total += 1
            what = cases[file]
            if verdict == "ok" and schema_problems:
                disagreements.append(f"{what}: the reader accepts it, the schema "
                                     f"does not: {schema_problems[0]}")
            if (verdict == "error" and STRUCTURAL.search(message)
                    and not schema_problems):
                disagreements.append(f"{what}: the schema accepts it, the reader "
                                     f"does not: {message}")
    for d in disagreements:
        print(d, file=sys.stderr)
    print(f"crosscheck: {total} mutations, {len(disagreements)} disagreements")
    return 1 if disagreements or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Validates JSON Lines (stdin) against schema/events.schema.json (or the schema file named as the argument);
prints one line per invalid event, exits 1 if any."""
import json
import pathlib
import sys

import jsonschema

schema_path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "events.schema.json"
schema = json.loads(schema_path.read_text())
validator = jsonschema.Draft202012Validator(schema)
bad = 0
count = 0
for number, line in enumerate(sys.stdin, 1):
    count += 1
    try:
        event = json.loads(line)
    except json.JSONDecodeError as error:
        print(f"line {number}: not JSON: {error}")
        bad += 1
        continue
    if not validator.is_valid(event):
        # Pick the alternative matching the event's name, so the message says what is wrong inside it.
        name = event.get("event") if isinstance(event, dict) else None
        branch = schema["$defs"].get(name) if isinstance(name, str) else None
        errors = list(jsonschema.Draft202012Validator({**branch, "$defs": schema["$defs"]}).iter_errors(event)) if branch else []
        detail = "; ".join(f"{'/'.join(map(str, e.path)) or '(event)'}: {e.message}" for e in errors) or "unknown event"
        print(f"line {number}: {detail}")
        bad += 1
print(f"{count} lines, {bad} invalid")
sys.exit(1 if bad or count == 0 else 0)
